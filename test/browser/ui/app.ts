// The render page's script (bundled for the browser by ui/bundle.ts, 'obsidian' = ../obsidian-dom.ts):
// the plugin's REAL settings tab, activity view and status-bar text, drawn into app-like frames. Its
// data is a real plugin run's (UiSnapshot): the REAL KeyStore, UsageStore and AuditLog read the files
// that run left in its data folder; a key created here goes through KeyStore.add. What stays in Node is
// the server itself, so the controller's start/stop/apply only record what was asked.
import { Notice, Plugin, WorkspaceLeaf, notices } from '../obsidian-dom.js';
import { VaultMcpSettingTab, type SettingsController } from '../../../src/plugin/settingsTab.js';
import { ActivityView } from '../../../src/plugin/activityView.js';
import { statusText, statusTooltip } from '../../../src/plugin/statusBar.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { AuditLog } from '../../../src/audit/log.js';
import { UsageStore } from '../../../src/limits/usage.js';
import type { DataStore } from '../../../src/host/port.js';
import type { ServerDeps } from '../../../src/mcp/tool.js';
import type { UiSnapshot } from './snapshot.js';

/** The plugin data folder in memory, seeded with the real run's files. */
function memoryStore(dir: string, files: Record<string, string>): DataStore {
  const m = new Map<string, Uint8Array>(Object.entries(files).map(([k, v]) => [k, new TextEncoder().encode(v)]));
  return {
    dir,
    read: async (n) => m.get(n) ?? null,
    write: async (n, b) => {
      if (typeof b === 'function') throw new Error('the settings view writes no file in pieces');
      m.set(n, b instanceof Uint8Array ? b : new TextEncoder().encode(typeof b === 'string' ? b : b.join('')));
    },
    append: async (n, t) => { const old = m.get(n) ?? new Uint8Array(); const add = new TextEncoder().encode(typeof t === 'string' ? t : t.join('')); const out = new Uint8Array(old.length + add.length); out.set(old); out.set(add, old.length); m.set(n, out); },
    remove: async (n) => { m.delete(n); },
    size: async (n) => m.get(n)?.length ?? null,
  };
}

/** The app object the tab sees: only its secret storage (the LLM key) is read. */
class App {
  private readonly secrets = new Map<string, string>();
  readonly secretStorage = {
    getSecret: (id: string) => this.secrets.get(id) ?? null,
    setSecret: (id: string, v: string) => { if (v) this.secrets.set(id, v); else this.secrets.delete(id); },
    listSecrets: () => [...this.secrets.keys()],
  };
  constructor(_snap: UiSnapshot) {}
}

export interface Mounted { calls: string[]; notices: string[] }

async function setup(snap: UiSnapshot) {
  (globalThis as { __vmcpExisting?: string[] }).__vmcpExisting = snap.existing;
  const data = memoryStore(snap.dataDir, snap.files);
  const keys = new KeyStore(data);
  await keys.load();
  const usage = new UsageStore(data, () => snap.now);
  await usage.load();
  const audit = new AuditLog(data, () => snap.settings);
  await audit.load();
  const on = snap.state.kind === 'on';
  const semantic = snap.semantic && {
    status: () => snap.semantic!.status,
    onProgress: () => () => undefined,
    isPaused: () => snap.semantic!.paused,
    modelFolder: () => snap.semantic!.modelFolder,
    pause: () => undefined, resume: () => undefined, build: async () => undefined,
  };
  const deps = on ? ({
    services: {
      limits: { usage },
      audit,
      keyword: snap.keyword && { status: () => snap.keyword!, settingsChanged: () => undefined },
      semantic,
    },
    __tools: snap.tools,
  } as unknown as ServerDeps) : null;
  return { keys, deps, semantic };
}

function frame(cls: string, title?: string): HTMLElement {
  const shell = document.body.createDiv({ cls: `vmcp-shot ${cls}` });
  if (title) shell.createDiv({ cls: 'vmcp-shot-title', text: title });
  return shell;
}

const vmcpUi = {
  /** The settings tab inside the app's settings modal; `createKey` types a name and clicks Create. */
  async settings(snap: UiSnapshot, opts: { createKey?: { name: string; scope: 'read' | 'readwrite' } } = {}): Promise<Mounted> {
    const calls: string[] = [];
    const { keys, deps, semantic } = await setup(snap);
    const app = new App(snap);
    const plugin = new Plugin(app, { id: 'vault-mcp-server' });
    const ctl: SettingsController = {
      settings: snap.settings,
      state: snap.state,
      lastCreatedKey: null,
      saveSettings: async () => { calls.push('saveSettings'); },
      setEnabled: async (v) => { calls.push(`setEnabled(${v})`); },
      applyNetwork: async (p, b) => { calls.push(`applyNetwork(${p}, ${b})`); },
      keys: () => keys,
      createKey: async (name, scope) => { const { raw } = await keys.add({ name, scope }); ctl.lastCreatedKey = { name, raw }; calls.push(`createKey(${name}, ${scope})`); return raw; },
      revokeKey: async (name) => { calls.push(`revokeKey(${name})`); return keys.revoke(name); },
      connectUrl: () => snap.connectUrl,
      semantic: () => (semantic as unknown as ReturnType<SettingsController['semantic']>) ?? null,
      serverDeps: () => deps,
      // What server.js answers in the plugin: the size of the entries the real server listed for the key.
      toolsListSize: (rec) => {
        if (!deps) return null;
        const tools = snap.tools[rec.name] ?? snap.tools[`scope:${rec.scope}`] ?? [];
        const json = JSON.stringify({ tools });
        const bytes = new TextEncoder().encode(json).length;
        return { tools: tools.length, chars: json.length, bytes, tokens: Math.ceil(bytes / 4) };
      },
      dataDir: snap.dataDir,
      cacheDir: snap.cacheDir ?? `${snap.dataDir}/cache`,
      setCacheInVault: async (v) => { calls.push(`setCacheInVault(${v})`); },
    };
    const tab = new VaultMcpSettingTab(app as never, plugin as never, ctl);
    const modal = document.body.createDiv({ cls: 'modal-container mod-dim' }).createDiv({ cls: 'modal mod-settings' });
    modal.createDiv({ cls: 'vertical-tab-header' }).createDiv({ cls: 'vertical-tab-nav-item is-active', text: 'Vault MCP Server' });
    modal.createDiv({ cls: 'vertical-tab-content-container' }).appendChild(tab.containerEl);
    tab.display();
    await tab.rendered;
    if (opts.createKey) {
      const create = [...tab.containerEl.querySelectorAll('.setting-item')].find((s) => s.querySelector('.setting-item-name')?.textContent === 'Create key')!;
      const input = create.querySelector('input')!;
      input.value = opts.createKey.name;
      input.dispatchEvent(new Event('input'));
      const select = create.querySelector('select')!;
      select.value = opts.createKey.scope;
      select.dispatchEvent(new Event('change'));
      create.querySelector('button')!.click();
      // The click's handler awaits createKey, then redraws the tab; wait for the redrawn keys.
      for (let i = 0; i < 200 && !tab.containerEl.querySelector('.vmcp-new-key'); i++) await new Promise((r) => setTimeout(r, 10));
      await tab.rendered;
    }
    return { calls, notices };
  },

  /** The MCP activity view in a right-sidebar leaf. */
  async activity(snap: UiSnapshot): Promise<Mounted> {
    const { deps } = await setup(snap);
    const app = new App(snap);
    const leaf = new WorkspaceLeaf(app);
    const side = frame('mod-right-split workspace-split');
    side.appendChild(leaf.containerEl);
    await leaf.open(new ActivityView(leaf as never, () => deps) as unknown as Parameters<WorkspaceLeaf['open']>[0]);
    await new Promise((r) => setTimeout(r, 0));
    return { calls: [], notices };
  },

  /** Status bars with the plugin's item, text and tooltip as main.ts sets them, one per state. */
  statusBar(snap: UiSnapshot, rows: { state: UiSnapshot['state']; statuses?: UiSnapshot['statuses'] }[]): Mounted {
    for (const row of rows) {
      const bar = frame('status-bar-frame').createDiv({ cls: 'status-bar' });
      bar.createDiv({ cls: 'status-bar-item', text: '2 backlinks' });
      bar.createDiv({ cls: 'status-bar-item', text: '312 words 1,904 characters' });
      const item = bar.createDiv({ cls: ['status-bar-item', 'plugin-vault-mcp-server', 'vmcp-status'] });
      const statuses = row.state.kind === 'on' ? row.statuses ?? snap.statuses : [];
      item.setText(statusText(row.state, statuses));
      item.setAttr('aria-label', statusTooltip(row.state, statuses));
    }
    return { calls: [], notices };
  },

  notice(text: string): void { new Notice(text); },
};

(globalThis as unknown as { vmcpUi: typeof vmcpUi }).vmcpUi = vmcpUi;
