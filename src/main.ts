// The Obsidian entry point: loads settings, builds the ObsidianHost once the layout is ready, and
// starts/stops the shared runtime. Only wiring and user-facing messages live here.
import { Notice, Plugin, TFile, TFolder, type WorkspaceLeaf } from 'obsidian';
import { withDefaults } from './settings.js';
import type { Settings } from './core/settings.js';
import { ObsidianHost, pluginDataDir } from './host/obsidian/obsidianHost.js';
import { FsDataStore } from './host/fsDataStore.js';
import { acquireServeLock, ServeLockError } from './host/serveLock.js';
import { KeyStore } from './services/keyStore.js';
import { indexStatuses } from './services/indexReport.js';
import { PortInUseError } from './http/listen.js';
import { startRuntime, type Runtime } from './runtime.js';
import { statusText, statusTooltip, type ServerState } from './plugin/statusBar.js';
import { claudeCodeCommand, connectUrl, KEY_PLACEHOLDER } from './plugin/connectInfo.js';
import { copyText } from './plugin/clipboard.js';
import { llmServices } from './plugin/llmSettings.js';
import type { SemanticService } from './semantic/service.js';
import type { ServerDeps } from './mcp/tool.js';
import { VaultMcpSettingTab, type SettingsController } from './plugin/settingsTab.js';
import { ACTIVITY_VIEW, ActivityView } from './plugin/activityView.js';

const NOTICE_MS = 15_000;

export default class VaultMcpPlugin extends Plugin implements SettingsController {
  override settings: Settings = withDefaults(null);
  host: ObsidianHost | null = null;
  runtime: Runtime | null = null;
  state: ServerState = { kind: 'off' };
  /** The layout-ready start (when the server is enabled) has finished; tests await it. */
  ready: Promise<void> = Promise.resolve();
  /** Raw keys are shown once; the last one created in this session is kept in memory only. */
  lastCreatedKey: { name: string; raw: string } | null = null;
  private keyStore: KeyStore | null = null;
  private statusEl: HTMLElement | null = null;
  private releaseLock: (() => Promise<void>) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private unloading = false;

  override async onload(): Promise<void> {
    await this.loadSettings();
    this.statusEl = this.addStatusBarItem();
    this.statusEl.addClass('vmcp-status');
    this.updateStatus();
    this.addSettingTab(new VaultMcpSettingTab(this.app, this, this));
    this.addCommand({ id: 'start-server', name: 'Start server', callback: () => void this.setEnabled(true) });
    this.addCommand({ id: 'stop-server', name: 'Stop server', callback: () => void this.setEnabled(false) });
    this.addCommand({ id: 'copy-connect-command', name: 'Copy Claude Code connect command', callback: () => void this.copyConnectCommand() });
    // The "MCP activity" view: recent calls and the 14-day chart, fed by the running server.
    this.registerView(ACTIVITY_VIEW, (leaf) => new ActivityView(leaf, () => this.runtime?.deps ?? null));
    this.addCommand({ id: 'open-activity', name: 'Open MCP activity', callback: () => void this.openActivity() });
    this.addRibbonIcon('activity', 'Open MCP activity', () => void this.openActivity());
    this.registerInterval(globalThis.setInterval(() => this.updateStatus(), 2000) as unknown as number);
    // Not awaited: the layout becomes ready only after every plugin has loaded.
    this.ready = new Promise((resolve) => {
      this.app.workspace.onLayoutReady(() => {
        this.ensureHost();
        (this.settings.serverEnabled ? this.startServer() : Promise.resolve()).finally(resolve);
      });
    });
  }

  /** Obsidian does not await this; tests do, to know the port is free again. */
  override async onunload(): Promise<void> {
    this.unloading = true;
    await this.serial(() => this.doStop());
    await this.keyStore?.flush().catch(() => undefined);
    await this.host?.close();
  }

  // ---- settings ----

  async loadSettings(): Promise<void> {
    const data = (await this.loadData()) as { settings?: Partial<Settings> } | null;
    this.settings = withDefaults(data?.settings);
  }

  async saveSettings(): Promise<void> {
    // data.json may hold more than settings; keep the rest.
    const data = ((await this.loadData()) as Record<string, unknown> | null) ?? {};
    await this.saveData({ ...data, settings: this.settings });
  }

  async setEnabled(on: boolean): Promise<void> {
    this.settings.serverEnabled = on;
    await this.saveSettings();
    await (on ? this.startServer() : this.stopServer());
  }

  async applyNetwork(port: number, bindAddress: string): Promise<void> {
    const changed = port !== this.settings.port || bindAddress !== this.settings.bindAddress;
    this.settings.port = port;
    this.settings.bindAddress = bindAddress;
    await this.saveSettings();
    if (changed && (this.runtime || this.settings.serverEnabled)) await this.restartServer();
  }

  // ---- keys ----

  keys(): KeyStore {
    // One store for the plugin's lifetime: the running server uses it too, so a key created or
    // revoked here is live at once (and the CLI's changes are picked up by its re-read).
    this.keyStore ??= new KeyStore(this.host?.data ?? new FsDataStore(pluginDataDir(this.app, this.manifest)));
    return this.keyStore;
  }

  async createKey(name: string, scope: 'read' | 'readwrite'): Promise<string> {
    const { raw, record } = await this.keys().add({ name, scope });
    this.lastCreatedKey = { name: record.name, raw };
    return raw;
  }

  async revokeKey(name: string): Promise<boolean> {
    const rec = this.keys().list().find((k) => k.name === name && !k.ephemeral);
    const hit = await this.keys().revoke(name);
    if (hit && rec) await this.runtime?.sessions.removeKey(rec.id);
    if (hit && this.lastCreatedKey?.name === name) this.lastCreatedKey = null;
    return hit;
  }

  /** The port clients should use now: the bound one when running (port 0 picks one). */
  get port(): number {
    return this.runtime?.server.port ?? this.settings.port;
  }

  connectUrl(): string {
    return connectUrl(this.settings, this.port);
  }

  serverDeps(): ServerDeps | null {
    return this.runtime?.deps ?? null;
  }

  semantic(): SemanticService | null {
    return this.runtime?.deps.services.semantic ?? null;
  }

  get dataDir(): string {
    return this.host?.data.dir ?? pluginDataDir(this.app, this.manifest);
  }

  /** Reveals the activity view, opening it in the right sidebar when no leaf shows it yet. */
  async openActivity(): Promise<void> {
    const ws = this.app.workspace;
    let leaf: WorkspaceLeaf | null = ws.getLeavesOfType(ACTIVITY_VIEW)[0] ?? null;
    if (!leaf) {
      leaf = ws.getRightLeaf(false);
      if (!leaf) return;
      await leaf.setViewState({ type: ACTIVITY_VIEW, active: true });
    }
    await ws.revealLeaf(leaf);
  }

  /** Open activity views follow the server (its audit log and counters) after a start or stop. */
  private refreshActivityViews(): void {
    for (const leaf of this.app.workspace.getLeavesOfType(ACTIVITY_VIEW)) {
      if (leaf.view instanceof ActivityView) leaf.view.refresh();
    }
  }

  async copyConnectCommand(): Promise<string> {
    const key = this.lastCreatedKey?.raw ?? KEY_PLACEHOLDER;
    const cmd = claudeCodeCommand(this.connectUrl(), key);
    const ok = await copyText(cmd);
    const hint = key === KEY_PLACEHOLDER
      ? ` Replace ${KEY_PLACEHOLDER} with one of your keys: keys are shown only when created, so create a new one in Settings → Vault MCP Server if you no longer have it.`
      : '';
    new Notice(ok ? `Copied the Claude Code command.${hint}` : `Could not use the clipboard; the command is:\n${cmd}`, NOTICE_MS);
    return cmd;
  }

  // ---- server ----

  private ensureHost(): ObsidianHost {
    this.host ??= new ObsidianHost({
      app: this.app,
      manifest: this.manifest,
      register: (ref) => this.registerEvent(ref),
      classes: { TFile, TFolder },
    });
    void this.host.ready();
    return this.host;
  }

  /** Start/stop/restart run one at a time, in the order asked. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  startServer(): Promise<void> {
    return this.serial(() => this.doStart());
  }

  stopServer(): Promise<void> {
    return this.serial(() => this.doStop());
  }

  restartServer(): Promise<void> {
    return this.serial(async () => { await this.doStop(); await this.doStart(); });
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.updateStatus();
  }

  private async doStart(): Promise<void> {
    if (this.runtime || this.unloading) return;
    const host = this.ensureHost();
    const s = this.settings;
    this.setState({ kind: 'starting' });
    try {
      this.releaseLock = await acquireServeLock(host.data.dir, { pid: process.pid, host: 'obsidian', url: s.port ? connectUrl(s, s.port) : '', since: Date.now() });
    } catch (e) {
      const message = e instanceof ServeLockError
        ? `Vault MCP Server did not start: ${e.message} To stop the headless server, press Ctrl+C in the terminal running "node dist/cli.js serve" (or end that process), then run "Vault MCP Server: Start server".`
        : `Vault MCP Server did not start: ${(e as Error).message}`;
      this.setState(e instanceof ServeLockError ? { kind: 'locked', message } : { kind: 'error', message });
      new Notice(message, NOTICE_MS);
      return;
    }
    try {
      // The app's requestUrl (no CORS) and SecretStorage for summaries: see plugin/llmSettings.ts.
      this.runtime = await startRuntime({ host, settings: () => this.settings, keys: this.keys(), services: { ...llmServices(this.app) } });
      this.setState({ kind: 'on', port: this.runtime.server.port });
      this.refreshActivityViews();
    } catch (e) {
      await this.releaseLock?.();
      this.releaseLock = null;
      if (e instanceof PortInUseError) {
        this.setState({ kind: 'port-busy', port: e.port });
        new Notice(`Vault MCP Server did not start: port ${e.port} on ${e.host} is already in use by another program. Pick another port in Settings → Vault MCP Server → Port (for example ${e.port + 1}) and press Apply, or close the program using it.`, NOTICE_MS);
      } else {
        const message = `Vault MCP Server did not start: ${(e as Error).message}`;
        this.setState({ kind: 'error', message });
        new Notice(message, NOTICE_MS);
      }
    }
  }

  private async doStop(): Promise<void> {
    const rt = this.runtime;
    this.runtime = null;
    // Closes every session and connection, open event streams included, so the port is free.
    if (rt) await rt.stop().catch(() => undefined);
    await this.releaseLock?.().catch(() => undefined);
    this.releaseLock = null;
    if (!this.unloading) { this.setState({ kind: 'off' }); this.refreshActivityViews(); }
  }

  updateStatus(): void {
    if (!this.statusEl) return;
    const statuses = this.runtime && this.state.kind === 'on' ? indexStatuses(this.runtime.deps) : [];
    this.statusEl.setText(statusText(this.state, statuses));
    this.statusEl.setAttr('aria-label', statusTooltip(this.state, statuses));
  }
}
