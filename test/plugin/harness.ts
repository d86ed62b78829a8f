// Loads the BUILT plugin bundle (main.js) the way the app does: copied into the vault's plugin
// folder, evaluated as CommonJS with require('obsidian') answered by the fake module.
import Module, { createRequire } from 'node:module';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import * as fake from './fake-obsidian/index.js';
import { REPO } from '../helpers/paths.js';
import { tempDir } from '../helpers/vault.js';
import type { Settings } from '../../src/core/settings.js';
import type { ServerDeps } from '../../src/mcp/tool.js';
import { indexStatuses } from '../../src/services/indexReport.js';

export const PLUGIN_ID = 'vault-mcp-server';
export const PLUGIN_DIR = `.obsidian/plugins/${PLUGIN_ID}`;

/** What the tests touch on the plugin instance (main.js has no types here). */
export interface LoadedPlugin {
  app: fake.App;
  manifest: fake.PluginManifest;
  settings: Settings;
  state: { kind: string; port?: number; message?: string };
  runtime: { server: { port: number; url: string } } | null;
  ready: Promise<void>;
  lastCreatedKey: { name: string; raw: string } | null;
  load(): Promise<void>;
  unload(): unknown;
  /** The plugin's own stop, started by onunload (the app does not await it). */
  unloaded: Promise<void>;
  registeredCount: number;
}

// The plugin keeps rebuildable caches outside the vault, in the OS cache folder when Electron's userData is
// out of reach (src/host/cacheDir.ts): point both of its lookups at a temp folder, never the real home.
const cacheHome = tempDir('vmcp-cachehome-');
process.env.XDG_CACHE_HOME = join(cacheHome, 'cache');
process.env.XDG_CONFIG_HOME = join(cacheHome, 'config');

/** What a user copies into the plugin folder (README "Install in Obsidian"): main.js, server.js and its chunks server-*.js, the WASM, the bridge, the manifest and the styles. */
export const PLUGIN_FILES = ['main.js', 'server.js', 'ort-wasm-simd.wasm.br', 'bridge.cjs', 'manifest.json', 'styles.css', ...readdirSync(REPO).filter((f) => /^server-[a-z0-9]+\.js$/.test(f)).sort()];

/** Installs the plugin files into `<vault>/.obsidian/plugins/<id>/`. */
export function installPlugin(vault: string, settings: Partial<Settings> = {}): string {
  const main = join(REPO, 'main.js');
  if (!existsSync(main)) throw new Error('main.js is missing: run `npm run build` first.');
  const dir = join(vault, PLUGIN_DIR);
  mkdirSync(dir, { recursive: true });
  for (const f of PLUGIN_FILES) if (existsSync(join(REPO, f))) copyFileSync(join(REPO, f), join(dir, f));
  writeFileSync(join(dir, 'data.json'), JSON.stringify({ settings }, null, 2));
  return dir;
}

/** Evaluates the installed main.js with a require that answers 'obsidian' with the fake. */
export function loadPluginClass(pluginDir: string): new (app: fake.App, manifest: fake.PluginManifest) => LoadedPlugin {
  const file = join(pluginDir, 'main.js');
  const m = new Module(file);
  m.filename = file;
  m.paths = (Module as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths(pluginDir);
  const nodeRequire = createRequire(file);
  (m as unknown as { require: (id: string) => unknown }).require = (id: string) => (id === 'obsidian' ? fake : nodeRequire(id));
  (m as unknown as { _compile(code: string, f: string): void })._compile(readFileSync(file, 'utf8'), file);
  const exported = m.exports as { default?: unknown };
  return (exported.default ?? exported) as new (app: fake.App, manifest: fake.PluginManifest) => LoadedPlugin;
}

const started: LoadedPlugin[] = [];

/** The host has every note's metadata and every index that is on reports ready with nothing pending. */
export function indexesSettled(deps: ServerDeps): boolean {
  const off = (s: { state: string }) => s.state === 'disabled' || s.state === 'unavailable';
  return deps.host.pendingCount() === 0 && indexStatuses(deps).every((s) => off(s) || (s.state === 'ready' && s.pending === 0));
}

/** Unloads every plugin a test started and left loaded (a failed assertion), so the run can end. */
export async function unloadAll(): Promise<void> {
  for (const p of started.splice(0)) await p.unload();
}

export interface Started { app: fake.App; plugin: LoadedPlugin; dataDir: string }

/** Installs, constructs and loads the plugin on a vault folder, then waits for its layout-ready start. */
export async function startPlugin(vault: string, settings: Partial<Settings> = {}, appOpts: fake.AppOptions = {}): Promise<Started> {
  const dir = installPlugin(vault, settings);
  const Cls = loadPluginClass(dir);
  // As at app startup: plugins load before the layout is ready, then the vault reports every file.
  const starting = appOpts.layoutReady === undefined;
  const app = new fake.App(vault, { ...appOpts, layoutReady: appOpts.layoutReady ?? false });
  const manifest = { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), dir: PLUGIN_DIR } as fake.PluginManifest;
  const plugin = new Cls(app, manifest);
  // The app ignores onunload's result; tests wait for the stop the plugin started.
  const unload = plugin.unload.bind(plugin);
  plugin.unload = async () => { unload(); await plugin.unloaded; };
  started.push(plugin);
  await plugin.load();
  if (starting) app.finishStartup();
  await plugin.ready;
  return { app, plugin, dataDir: dir };
}

// The app's renderer has the browser's fetch, Request, Response and Headers built in. Node creates them
// at first touch (it loads its fetch implementation then: 40–55 ms of one task), a cost the app never
// pays; a bench measuring the plugin's tasks would otherwise charge it to whichever chunk touches them.
void [globalThis.fetch, globalThis.Request, globalThis.Response, globalThis.Headers];

/** Records clipboard writes (the renderer's navigator.clipboard). */
export const clipboard: string[] = [];
Object.defineProperty(globalThis, 'navigator', {
  configurable: true,
  value: { clipboard: { writeText: async (t: string) => { clipboard.push(t); } } },
});

/** Can a fresh server bind this port on 127.0.0.1 right now? */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** Holds a port with a plain TCP server until `close` is called. */
export function holdPort(): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      resolve({ port, close: () => new Promise((r) => s.close(() => r())) });
    });
  });
}

/** The Setting with this name in a rendered settings tab. */
export function findSetting(tab: fake.PluginSettingTab, name: string): fake.Setting {
  const s = tab.containerEl.settings().find((x) => x.name === name);
  if (!s) throw new Error(`no setting "${name}"; have: ${tab.containerEl.settings().map((x) => x.name).join(' | ')}`);
  return s;
}

export async function openTab(app: fake.App): Promise<fake.PluginSettingTab & { rendered: Promise<void> }> {
  const tab = app.setting.pluginTabs[0] as fake.PluginSettingTab & { rendered: Promise<void> };
  tab.display();
  await tab.rendered;
  return tab;
}

/** Polls until `cond` holds (commands run their async work without being awaited by the app). */
export { waitFor } from '../helpers/wait.js';
