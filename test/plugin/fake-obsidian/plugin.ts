// Component/Plugin lifecycle as the app runs it: load() awaits onload(); unload() runs every
// registered cleanup (events, intervals, commands, status bar, tabs), then onunload().
import type { EventRef } from './events.js';
import { FakeElement } from './dom.js';
import type { App } from './app.js';
import type { ItemView, WorkspaceLeaf } from './view.js';

export interface PluginManifest { id: string; name: string; version: string; minAppVersion: string; description: string; author: string; isDesktopOnly?: boolean; dir?: string }
export interface Command { id: string; name: string; callback?: () => unknown; checkCallback?: (checking: boolean) => boolean | void }

export class Component {
  private _fakeLoaded = false;
  private _fakeCleanups: (() => unknown)[] = [];
  private _fakeChildren: Component[] = [];

  async load(): Promise<void> {
    if (this._fakeLoaded) return;
    this._fakeLoaded = true;
    await this.onload();
    for (const c of this._fakeChildren) await c.load();
  }

  onload(): unknown { return undefined; }

  /** The app ignores onunload's result; the fake returns it so a test can await an async one. */
  unload(): unknown {
    if (!this._fakeLoaded) return undefined;
    this._fakeLoaded = false;
    for (const c of this._fakeChildren.splice(0)) c.unload();
    for (const fn of this._fakeCleanups.splice(0)) fn();
    return this.onunload();
  }

  onunload(): unknown { return undefined; }

  addChild<T extends Component>(c: T): T { this._fakeChildren.push(c); if (this._fakeLoaded) void c.load(); return c; }
  removeChild<T extends Component>(c: T): T { this._fakeChildren = this._fakeChildren.filter((x) => x !== c); c.unload(); return c; }
  register(cb: () => unknown): void { this._fakeCleanups.push(cb); }
  registerEvent(ref: EventRef): void { this.register(() => ref.e.offref(ref)); }
  registerInterval(id: number): number { this.register(() => clearInterval(id as unknown as NodeJS.Timeout)); return id; }
  /** Test helper: cleanups still registered. */
  get registeredCount(): number { return this._fakeCleanups.length; }
}

export abstract class SettingTab {
  app!: App;
  icon = 'settings';
  containerEl = new FakeElement('div', { cls: 'vertical-tab-content' });
  display(): void {}
  hide(): void {}
}

export abstract class PluginSettingTab extends SettingTab {
  constructor(app: App, readonly plugin: Plugin) {
    super();
    this.app = app;
  }
}

export class Plugin extends Component {
  constructor(readonly app: App, readonly manifest: PluginManifest) {
    super();
  }

  private get dataFile(): string {
    return `${this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`}/data.json`;
  }

  async loadData(): Promise<any> {
    const a = this.app.vault.adapter;
    if (!(await a.exists(this.dataFile))) return null;
    return JSON.parse(await a.read(this.dataFile));
  }

  async saveData(data: unknown): Promise<void> {
    const a = this.app.vault.adapter;
    await a.mkdir(this.dataFile.slice(0, this.dataFile.lastIndexOf('/')));
    await a.write(this.dataFile, JSON.stringify(data, null, 2));
  }

  addCommand(command: Command): Command {
    const full = { ...command, id: `${this.manifest.id}:${command.id}` };
    this.app.commands.commands[full.id] = full;
    this.register(() => { delete this.app.commands.commands[full.id]; });
    return full;
  }

  removeCommand(id: string): void { delete this.app.commands.commands[`${this.manifest.id}:${id}`]; }

  addStatusBarItem(): FakeElement {
    const el = this.app.statusBar.createDiv({ cls: ['status-bar-item', `plugin-${this.manifest.id}`] });
    this.register(() => el.detach());
    return el;
  }

  addSettingTab(tab: PluginSettingTab): void {
    this.app.setting.pluginTabs.push(tab);
    this.register(() => { this.app.setting.pluginTabs = this.app.setting.pluginTabs.filter((t) => t !== tab); });
  }

  /** Like the app: the factory is used for leaves of that type; unloading detaches them. */
  registerView(type: string, creator: (leaf: WorkspaceLeaf) => ItemView): void {
    this.app.workspace.viewCreators.set(type, creator);
    this.register(() => { this.app.workspace.detachLeavesOfType(type); this.app.workspace.viewCreators.delete(type); });
  }

  addRibbonIcon(icon: string, title: string, callback: (evt: unknown) => unknown): FakeElement {
    const el = this.app.ribbon.createDiv({ cls: 'side-dock-ribbon-action', attr: { 'aria-label': title, 'data-icon': icon } });
    (el as FakeElement & { onClick?: typeof callback }).onClick = callback;
    this.register(() => el.detach());
    return el;
  }
}
