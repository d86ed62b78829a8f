// App: vault, metadataCache, fileManager, workspace.onLayoutReady, plus the registries a plugin
// writes into (commands, setting tabs, status bar) so tests can reach them.
import { Events } from './events.js';
import { FakeElement } from './dom.js';
import { Vault } from './vault.js';
import { MetadataCache, type MetadataCacheOptions } from './metadataCache.js';
import { FileManager } from './fileManager.js';
import { SecretStorage } from './secretStorage.js';
import type { Command, PluginSettingTab } from './plugin.js';
import { WorkspaceLeaf, type ItemView } from './view.js';

export class Workspace extends Events {
  private waiting: (() => unknown)[] = [];
  /** registerView factories by view type; every open leaf; leaves revealed, in order. */
  readonly viewCreators = new Map<string, (leaf: WorkspaceLeaf) => ItemView>();
  leaves: WorkspaceLeaf[] = [];
  readonly revealed: WorkspaceLeaf[] = [];
  app!: App;
  constructor(public layoutReady: boolean) { super(); }

  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view?.getViewType() === type);
  }

  /** false: the right sidebar cannot take a new leaf (getRightLeaf returns null, as the API allows). */
  rightSplitAvailable = true;

  getRightLeaf(_split: boolean): WorkspaceLeaf | null {
    if (!this.rightSplitAvailable) return null;
    const leaf = new WorkspaceLeaf(this.app, 'right');
    this.leaves.push(leaf);
    return leaf;
  }

  getLeaf(_newLeaf?: unknown): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, 'main');
    this.leaves.push(leaf);
    return leaf;
  }

  async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    this.revealed.push(leaf);
  }

  detachLeavesOfType(type: string): void {
    for (const l of this.getLeavesOfType(type)) void l.detach();
  }

  /** Runs the callback once the layout is ready: right away (synchronously) when it already is. */
  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.waiting.push(callback);
  }

  /** Test helper: the app finished restoring the layout. */
  setLayoutReady(): void {
    this.layoutReady = true;
    for (const cb of this.waiting.splice(0)) cb();
    this.trigger('layout-ready');
  }
}

export interface AppOptions extends MetadataCacheOptions {
  /** false: the app is still starting (plugins load before the layout is ready). */
  layoutReady?: boolean;
}

export class App {
  readonly vault: Vault;
  readonly metadataCache: MetadataCache;
  readonly fileManager: FileManager;
  readonly workspace: Workspace;
  /** Since 1.11.4; a test may delete it to imitate an older app. */
  readonly secretStorage = new SecretStorage();
  readonly commands = {
    commands: {} as Record<string, Command>,
    executeCommandById: (id: string): boolean => {
      const c = this.commands.commands[id];
      if (!c) return false;
      if (c.checkCallback) c.checkCallback(false); else c.callback?.();
      return true;
    },
  };
  readonly setting = { pluginTabs: [] as PluginSettingTab[] };
  readonly statusBar = new FakeElement('div', { cls: 'status-bar' });
  readonly ribbon = new FakeElement('div', { cls: 'side-dock-ribbon' });

  /** Test helper: what the app does after loading the plugins at startup: the vault reports every
   *  existing file with a 'create' event (obsidian.d.ts: "also called when the vault is first loaded
   *  for each existing file"), then the layout becomes ready. */
  finishStartup(): void {
    for (const f of this.vault.getAllLoadedFiles()) if (f.path !== '/') this.vault.trigger('create', f);
    this.workspace.setLayoutReady();
  }

  constructor(vaultPath: string, opts: AppOptions = {}) {
    this.vault = new Vault(vaultPath);
    this.metadataCache = new MetadataCache(this.vault, opts);
    this.fileManager = new FileManager(this.vault, this.metadataCache);
    this.workspace = new Workspace(opts.layoutReady ?? true);
    this.workspace.app = this;
  }
}
