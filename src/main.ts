// The Obsidian entry point: loads settings, builds the ObsidianHost once the layout is ready, and
// starts/stops the shared runtime. Only wiring and user-facing messages live here.
import { Notice, Plugin, TFile, TFolder, normalizePath, type WorkspaceLeaf } from 'obsidian';
import { withDefaults } from './settings.js';
import type { Settings } from './core/settings.js';
import type { KeyRecord } from './core/keys.js';
import type { ObsidianHost } from './host/obsidian/obsidianHost.js';
import { pluginDataDir, vaultBasePath } from './host/obsidian/paths.js';
import { cacheInVault, moveCaches, vaultCacheDir } from './host/cacheDir.js';
import { FsDataStore } from './host/fsDataStore.js';
import { KeyStore } from './services/keyStore.js';
import type { Runtime } from './runtime.js';
import { statusText, statusTooltip, type ServerState } from './plugin/statusBar.js';
import { claudeCodeCommand, connectUrl, KEY_PLACEHOLDER } from './plugin/connectInfo.js';
import { copyText } from './plugin/clipboard.js';
import { llmServices } from './plugin/llmSettings.js';
import { appUserData, loadServer, WASM_FILE, type Server } from './plugin/loadServer.js';
import { PORT_TRIES, portAuto } from './plugin/portChoice.js';
import type { SemanticService } from './semantic/service.js';
import type { ServerDeps } from './mcp/tool.js';
import { VaultMcpSettingTab, type SettingsController } from './plugin/settingsTab.js';
import { ACTIVITY_VIEW, ActivityView } from './plugin/activityView.js';
import { VERSION } from './version.js';
import { join } from 'node:path';

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
  /** server.js, evaluated at the first server start (never at launch). */
  private server: Server | null = null;
  private statusEl: HTMLElement | null = null;
  private releaseLock: (() => Promise<void>) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private unloading = false;

  override async onload(): Promise<void> {
    // Only the shell loads here (settings, status bar, commands, the tab): the server, search and
    // embeddings are in server.js, evaluated after layout-ready and only when the server is on.
    await this.loadSettings();
    this.statusEl = this.addStatusBarItem();
    this.statusEl.addClass('vmcp-status');
    this.updateStatus();
    this.addSettingTab(new VaultMcpSettingTab(this.app, this, this));
    this.addCommand({ id: 'start-server', name: 'Start server', callback: () => void this.setEnabled(true) });
    this.addCommand({ id: 'stop-server', name: 'Stop server', callback: () => void this.setEnabled(false) });
    this.addCommand({ id: 'copy-connect', name: 'Copy Claude Code connect line', callback: () => void this.copyConnectCommand() });
    // The "MCP activity" view: recent calls and the 14-day chart, fed by the running server.
    this.registerView(ACTIVITY_VIEW, (leaf) => new ActivityView(leaf, () => this.runtime?.deps ?? null));
    this.addCommand({ id: 'open-activity', name: 'Open MCP activity', callback: () => void this.openActivity() });
    this.addRibbonIcon('activity', 'Open MCP activity', () => void this.openActivity());
    this.registerInterval(window.setInterval(() => this.updateStatus(), 2000));
    // Not awaited: the layout becomes ready only after every plugin has loaded.
    this.ready = new Promise((resolve) => {
      this.app.workspace.onLayoutReady(() => {
        // onLayoutReady runs the callback at once when the plugin is enabled in a running app; the
        // start still goes to a later task, so onload itself never evaluates server.js.
        window.setTimeout(() => { void (this.settings.serverEnabled ? this.startServer() : Promise.resolve()).finally(resolve); }, 0);
      });
    });
  }

  /** Obsidian does not await this; tests do, to know the port is free again. */
  /** The stop onunload starts (the app does not wait for it); tests await it to know the port is free. */
  unloaded: Promise<void> = Promise.resolve();

  override onunload(): void {
    this.unloaded = this.stopAll();
  }

  private async stopAll(): Promise<void> {
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
    // A port the user applies is theirs: from now on a taken port is reported, not changed.
    if (port !== this.settings.port) this.settings.portAuto = false;
    this.settings.port = port;
    this.settings.bindAddress = bindAddress;
    await this.saveSettings();
    if (changed && (this.runtime || this.settings.serverEnabled)) await this.restartServer();
  }

  // ---- keys ----

  keys(): KeyStore {
    // One store for the plugin's lifetime: the running server uses it too, so a key created or
    // revoked here is live at once (and the CLI's changes are picked up by its re-read).
    this.keyStore ??= new KeyStore(this.host?.data ?? new FsDataStore(this.pluginDir));
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

  toolsListSize(rec: KeyRecord): { tools: number; chars: number; bytes: number; tokens: number } | null {
    return this.runtime && this.server ? this.server.toolsListSize(this.runtime.deps, rec) : null;
  }

  /** The plugin's folder in the vault: main.js, server.js, data.json, keys.json, the audit log. */
  get pluginDir(): string {
    return pluginDataDir(this.app, this.manifest);
  }

  get dataDir(): string {
    return this.host?.data.dir ?? this.pluginDir;
  }

  /** Where the rebuildable caches go (indexes, vectors, models, WASM): outside the vault by default. */
  get cacheDir(): string {
    return cacheInVault(this.settings) ? this.pluginDir : this.outsideCacheDir;
  }

  private get outsideCacheDir(): string {
    return vaultCacheDir(vaultBasePath(this.app), appUserData(this.pluginDir));
  }

  /** The settings tab's "keep caches inside the vault" switch: moves them and restarts the server. */
  async setCacheInVault(inside: boolean): Promise<void> {
    if (inside === cacheInVault(this.settings)) return;
    this.settings.cacheInVault = inside;
    await this.saveSettings();
    await this.serial(async () => {
      const wasRunning = !!this.runtime;
      await this.doStop();
      await this.host?.close();
      this.host = null;
      if (wasRunning || this.settings.serverEnabled) await this.doStart();
    });
  }

  /** Reveals the activity view, opening it in the right sidebar when no leaf shows it yet. */
  async openActivity(): Promise<void> {
    const ws = this.app.workspace;
    let leaf: WorkspaceLeaf | null = ws.getLeavesOfType(ACTIVITY_VIEW)[0] ?? null;
    if (!leaf) {
      leaf = ws.getRightLeaf(false);
      if (!leaf) { new Notice('Vault MCP Server: the right sidebar cannot open a new tab right now; open the activity view again after showing the right sidebar.'); return; }
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

  private ensureHost(server: Server): ObsidianHost {
    this.host ??= new server.ObsidianHost({
      app: this.app,
      manifest: this.manifest,
      register: (ref) => this.registerEvent(ref),
      classes: { TFile, TFolder },
      normalizePath,
      cacheDir: this.cacheDir,
      allowedOutside: () => this.settings.symlinkAllowedFolders ?? [],
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

  /** server.js, loaded on first use (its chunks one per task); a Notice and the error state when it cannot be. */
  private async serverModule(): Promise<Server | null> {
    if (this.server) return this.server;
    try {
      this.server = await loadServer(this.pluginDir, VERSION, () => new Promise((r) => window.setTimeout(r, 0)));
      return this.server;
    } catch (e) {
      const message = `Vault MCP Server did not start: ${(e as Error).message}`;
      this.setState({ kind: 'error', message });
      new Notice(message, NOTICE_MS);
      return null;
    }
  }

  /** With portAuto on, a taken port moves this vault to the next free one, remembered in data.json. */
  private async choosePort(server: Server): Promise<void> {
    const s = this.settings;
    if (!portAuto(s) || s.port === 0 || await server.portFree(s.bindAddress, s.port)) return;
    const next = await server.firstFreePort(s.bindAddress, s.port + 1, PORT_TRIES);
    if (next === null) return; // the bind below reports the busy port
    const was = s.port;
    s.port = next;
    await this.saveSettings();
    new Notice(`Vault MCP Server: port ${was} is taken (another vault or program), so this vault now uses port ${next} and keeps it. Clients of this vault connect to ${this.connectUrl()}.`, 8000);
  }

  private async doStart(): Promise<void> {
    if (this.runtime || this.unloading) return;
    this.setState({ kind: 'starting' });
    const server = await this.serverModule();
    if (!server) return;
    if (this.unloading) return;
    if (!this.host) {
      // Caches an older version (or the other setting) left behind are moved, not rebuilt or re-downloaded.
      const other = cacheInVault(this.settings) ? this.outsideCacheDir : this.pluginDir;
      await moveCaches(other, this.cacheDir).catch((e) => new Notice(`Vault MCP Server could not move its caches to ${this.cacheDir} (${(e as Error).message}); they are rebuilt there instead.`, NOTICE_MS));
    }
    const host = this.ensureHost(server);
    await this.choosePort(server);
    const s = this.settings;
    try {
      this.releaseLock = await server.acquireServeLock(host.data.dir, { pid: process.pid, host: 'obsidian', url: s.port ? connectUrl(s, s.port) : '', since: Date.now() });
    } catch (e) {
      const locked = e instanceof server.ServeLockError;
      const message = locked
        ? `Vault MCP Server did not start: ${(e).message} To stop the headless server, press Ctrl+C in the terminal running "node dist/cli.js serve" (or end that process), then run "Vault MCP Server: Start server".`
        : `Vault MCP Server did not start: ${(e as Error).message}`;
      this.setState(locked ? { kind: 'locked', message } : { kind: 'error', message });
      new Notice(message, NOTICE_MS);
      return;
    }
    try {
      // The app's requestUrl (no CORS) and SecretStorage for summaries (plugin/llmSettings.ts); the
      // onnxruntime WASM shipped beside main.js (unpacked into the cache folder on first use).
      const services = { ...llmServices(this.app, () => this.settings), ortWasmFile: join(this.pluginDir, WASM_FILE) };
      this.runtime = await server.startRuntime({ host, settings: () => this.settings, keys: this.keys(), services });
      this.setState({ kind: 'on', port: this.runtime.server.port });
      this.refreshActivityViews();
    } catch (e) {
      await this.releaseLock?.();
      this.releaseLock = null;
      if (e instanceof server.PortInUseError) {
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
    const live = this.runtime && this.server && this.state.kind === 'on' ? { rt: this.runtime, srv: this.server } : null;
    const statuses = live ? live.srv.indexStatuses(live.rt.deps) : [];
    const saves = live ? live.srv.saveProblems(live.rt.deps.host) : [];
    this.statusEl.setText(statusText(this.state, statuses, saves));
    this.statusEl.setAttr('aria-label', statusTooltip(this.state, statuses, saves));
  }
}
