// The settings tab: server switch, network, read cap, and API keys (create once-shown, revoke).
// Rendered imperatively with display() because the plugin supports app versions before 1.13's
// declarative getSettingDefinitions().
import { Notice, PluginSettingTab, Setting, type App, type Plugin } from 'obsidian';
import type { Settings } from '../core/settings.js';
import type { KeyStore } from '../services/keyStore.js';
import type { KeyRecord } from '../core/keys.js';
import type { ServerState } from './statusBar.js';
import { statusTooltip } from './statusBar.js';
import { bridgePath, claudeCodeCommand, claudeDesktopConfig, isLoopback } from './connectInfo.js';
import { copyText } from './clipboard.js';
import { cacheInVault } from '../host/cacheSetting.js';
import type { SemanticService } from '../semantic/service.js';
import { renderSemanticSettings } from './semanticSettings.js';
import { renderLlmSettings, secretsOf } from './llmSettings.js';
import { renderSearchSettings } from './searchSettings.js';
import { renderSymlinkSettings } from './symlinkSettings.js';
import { renderImportSettings } from './importSettings.js';
import { renderKeyLimits } from './keySettings.js';
import type { ServerDeps } from '../mcp/tool.js';

/** What the tab needs from the plugin, and nothing else. */
export interface SettingsController {
  settings: Settings;
  state: ServerState;
  lastCreatedKey: { name: string; raw: string } | null;
  saveSettings(): Promise<void>;
  setEnabled(on: boolean): Promise<void>;
  applyNetwork(port: number, bindAddress: string): Promise<void>;
  keys(): KeyStore;
  createKey(name: string, scope: 'read' | 'readwrite'): Promise<string>;
  revokeKey(name: string): Promise<boolean>;
  connectUrl(): string;
  /** The running server's semantic service, or null when the server is off. */
  semantic(): SemanticService | null;
  /** The running server's deps (limits, audit, tools), or null when it is off. */
  serverDeps(): ServerDeps | null;
  /** Size of a key's tools/list from the running server, or null when it is off. */
  toolsListSize(rec: KeyRecord): { tools: number; chars: number; bytes: number; tokens: number } | null;
  /** The plugin's data folder (absolute). */
  readonly dataDir: string;
  /** The vault's cache folder (absolute): indexes, vectors, models. */
  readonly cacheDir: string;
  /** Keep the caches in the plugin folder (true) or outside the vault; moves them and restarts. */
  setCacheInVault(inside: boolean): Promise<void>;
}

const when = (t: number | null | undefined) => (t ? new Date(t).toLocaleString() : 'never');

export function bindWarning(bind: string): string {
  return isLoopback(bind)
    ? ''
    : `Warning: with ${bind || '(empty)'} other devices on your network can reach the server. Keys are still required, but traffic is unencrypted HTTP. Use 127.0.0.1 unless you know you need this.`;
}

export class VaultMcpSettingTab extends PluginSettingTab {
  /** The raw key box is shown only until the tab is closed. */
  private showKey = false;
  /** The last asynchronous keys rendering; tests await it. */
  rendered: Promise<void> = Promise.resolve();

  constructor(app: App, plugin: Plugin, private readonly ctl: SettingsController) {
    super(app, plugin);
  }

  /** Stops the semantic section's live status updates. */
  private stopSections: (() => void) | null = null;

  override hide(): void {
    this.showKey = false;
    this.stopSections?.();
    this.stopSections = null;
  }

  /** Obsidian before 1.13 renders the tab through display() (minAppVersion is 1.11.4). */
  override display(): void {
    this.render();
  }

  private render(): void {
    const el = this.containerEl;
    this.stopSections?.();
    this.stopSections = null;
    el.empty();
    const c = this.ctl;
    const s = c.settings;

    new Setting(el).setName('Server').setHeading();
    new Setting(el)
      .setName('Serve this vault over MCP')
      .setDesc(statusTooltip(c.state))
      .addToggle((t) => t.setValue(s.serverEnabled).onChange(async (v) => { await c.setEnabled(v); this.render(); }));

    let port = String(s.port);
    let bind = s.bindAddress;
    new Setting(el)
      .setName('Port')
      .setDesc('The local port MCP clients connect to (default 27200).')
      .addText((t) => t.setPlaceholder('27200').setValue(port).onChange((v) => { port = v.trim(); }));
    let warnEl: HTMLElement | null = null;
    new Setting(el)
      .setName('Bind address')
      .setDesc('127.0.0.1 keeps the server reachable from this computer only.')
      .addText((t) => t.setPlaceholder('127.0.0.1').setValue(bind).onChange((v) => { bind = v.trim(); warnEl?.setText(bindWarning(bind)); }));
    warnEl = el.createDiv({ cls: 'vmcp-warning', text: bindWarning(bind) });
    new Setting(el)
      .setName('Apply port and address')
      .setDesc('Saves them and restarts the server if it is running.')
      .addButton((b) => b.setButtonText('Apply').setCta().onClick(async () => {
        const n = Number(port);
        if (!/^\d+$/.test(port) || n > 65535) { new Notice(`"${port}" is not a port; use a whole number up to 65535 (0 picks a free port at each start).`); return; }
        if (bind === '') { new Notice('The bind address is empty; use 127.0.0.1.'); return; }
        await c.applyNetwork(n, bind);
        this.render();
      }));

    new Setting(el)
      .setName('Read cap')
      .setDesc('Most characters one read returns; longer notes are read in pages.')
      .addText((t) => t.setValue(String(s.readCapChars)).onChange(async (v) => {
        const n = Number(v.trim());
        if (!Number.isInteger(n) || n < 1000) return; // keep the old value while the user types
        s.readCapChars = n;
        await c.saveSettings();
      }));

    new Setting(el)
      .setName('Keep caches in the vault')
      .setDesc(`The keyword index, vectors, models and the unpacked WASM can all be rebuilt, so they live outside the vault by default and sync or backups do not carry them: now in ${c.cacheDir}. Keys and settings always stay in the plugin folder. Switching moves the files and restarts the server.`)
      .addToggle((t) => t.setValue(cacheInVault(s)).onChange(async (v) => { await c.setCacheInVault(v); this.render(); }));

    new Setting(el).setName('API keys').setHeading();
    const keysEl = el.createDiv({ cls: 'vmcp-keys' });
    // Per-key restrictions, usage and the limits: rendered once the keys are loaded.
    const limitsEl = el.createDiv({ cls: 'vmcp-limits' });
    const redisplay = () => this.render();
    const save = () => c.saveSettings();
    this.rendered = this.renderKeys(keysEl)
      .then(() => renderKeyLimits(limitsEl, { settings: s, saveSettings: save, keys: () => c.keys(), deps: () => c.serverDeps(), redisplay, serverState: () => statusTooltip(c.state), toolsListSize: (r) => c.toolsListSize(r) }))
      .catch((e) => {
        keysEl.createDiv({ cls: 'vmcp-warning', text: `Could not read the keys: ${(e as Error).message}` });
      });

    // Sections owned by their features (they render below the keys, which fill in asynchronously).
    this.stopSections = renderSemanticSettings(el.createDiv(), { settings: s, saveSettings: save, semantic: () => c.semantic(), cacheDir: c.cacheDir, redisplay });
    renderLlmSettings(el.createDiv(), { app: this.app, settings: s, saveSettings: save, secrets: secretsOf(this.app), redisplay });
    renderSearchSettings(el.createDiv(), { settings: s, saveSettings: save, keyword: () => c.serverDeps()?.services.keyword ?? null });
    renderImportSettings(el.createDiv(), { settings: s, saveSettings: save });
    renderSymlinkSettings(el.createDiv(), { settings: s, saveSettings: save });
  }

  private async renderKeys(el: HTMLElement): Promise<void> {
    const c = this.ctl;
    const store = c.keys();
    await store.load();
    const rows = store.list().filter((k) => !k.ephemeral);
    if (!rows.length) el.createEl('p', { text: 'No keys yet. Create one for each client you connect.', cls: 'setting-item-description' });
    for (const r of rows) {
      let armed = false;
      new Setting(el)
        .setName(r.name)
        .setDesc(`${r.scope === 'readwrite' ? 'Read and write' : 'Read only'}${r.root ? ` · folder ${r.root}` : ''} · created ${when(r.created)} · last used ${when(r.lastUsed)}`)
        .addButton((b) => b.setButtonText('Revoke').setClass('mod-warning').onClick(async () => {
          // Two clicks: revoking cuts off a client at once and cannot be undone.
          if (!armed) { armed = true; b.setButtonText('Click again to revoke'); return; }
          await c.revokeKey(r.name);
          new Notice(`Revoked key "${r.name}"; clients using it are refused from their next request.`);
          this.render();
        }));
    }

    let name = '';
    let scope: 'read' | 'readwrite' = 'read';
    new Setting(el)
      .setName('Create key')
      .setDesc('Name it after the client that will use it. Read-only keys cannot change the vault.')
      .addText((t) => t.setPlaceholder('claude-code').onChange((v) => { name = v.trim(); }))
      .addDropdown((d) => d.addOption('read', 'Read only').addOption('readwrite', 'Read and write').setValue(scope)
        .onChange((v) => { scope = v === 'readwrite' ? 'readwrite' : 'read'; }))
      .addButton((b) => b.setButtonText('Create').setCta().onClick(async () => {
        if (!name) { new Notice('Give the key a name first.'); return; }
        try {
          await c.createKey(name, scope);
          this.showKey = true;
        } catch (e) {
          new Notice((e as Error).message);
        }
        this.render();
      }));

    const k = c.lastCreatedKey;
    if (this.showKey && k) this.renderNewKey(el, k);
  }

  private renderNewKey(el: HTMLElement, k: { name: string; raw: string }): void {
    const url = this.ctl.connectUrl();
    const box = el.createDiv({ cls: 'vmcp-new-key' });
    box.createEl('p', { text: `Key "${k.name}" created. Copy it now: it is shown only this once (only its hash is stored).` });
    const block = (label: string, text: string) => {
      new Setting(box).setName(label).addButton((b) => b.setButtonText('Copy').onClick(async () => {
        new Notice((await copyText(text)) ? `Copied: ${label}` : 'Could not use the clipboard; select the text and copy it.');
      }));
      box.createEl('pre', { cls: 'vmcp-copy-text', text });
    };
    block('Key', k.raw);
    block('Claude Code', claudeCodeCommand(url, k.raw));
    block('Claude Desktop (claude_desktop_config.json, needs Node.js)', claudeDesktopConfig(url, k.raw, bridgePath(this.ctl.dataDir)));
  }
}
