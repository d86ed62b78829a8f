// Loads the server (src/plugin/server.ts, bundled apart from main.js) from the plugin folder, on the
// first server start: main.js stays small, so Obsidian's launch pays only for the plugin shell. The
// server is split into chunk files (scripts/esbuild-chunks.mjs): the eager ones are evaluated one per
// task, then server.js, so no single piece holds the app's thread for the whole 4 MB (it was 0.6–1 s).
// Also finds the app's data folder for the caches (src/host/cacheDir.ts).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as ServerModule from './server.js';

export type Server = typeof ServerModule;
export const SERVER_FILE = 'server.js';
/** The brotli-compressed onnxruntime WASM shipped beside main.js (unpacked into the cache on first use). */
export const WASM_FILE = 'ort-wasm-simd.wasm.br';

// Set by esbuild (esbuild.config.mjs): the eager chunks in evaluation order and the build they belong to.
declare const __SERVER_CHUNKS__: string[] | undefined;
declare const __SERVER_BUILD__: string | undefined;
/** server-*.js files evaluated before server.js, in order. */
export const SERVER_CHUNKS: string[] = typeof __SERVER_CHUNKS__ === 'undefined' ? [] : __SERVER_CHUNKS__;
const BUILD: string | null = typeof __SERVER_BUILD__ === 'string' ? __SERVER_BUILD__ : null;

export class ServerFileError extends Error {}

const reinstall = (dir: string) => `Reinstall the plugin: copy main.js, ${SERVER_FILE}, every server-*.js file, ${WASM_FILE}, manifest.json and styles.css into ${dir}.`;

/**
 * Evaluates the chunks and then `<pluginDir>/server.js`, giving the event loop a turn (`turn`) before
 * each (once per app session; again when what is cached comes from another build or version).
 */
export async function loadServer(pluginDir: string, version: string, turn: () => Promise<void>): Promise<Server> {
  // Node's require (Electron's renderer has it): absolute paths, so the app's own module paths play no
  // part, and the chunks' require("./server-x.js") between each other finds the same cached module.
  const load = createRequire(join(pluginDir, SERVER_FILE));
  const evaluate = <T>(name: string, current: (m: T) => boolean): T => {
    const file = join(pluginDir, name);
    if (!existsSync(file)) throw new ServerFileError(`${name} is missing from ${pluginDir}. ${reinstall(pluginDir)}`);
    let mod = load(file) as T;
    if (!current(mod)) {
      // An update replaced the files while the app kept the old module: drop it and evaluate the new one.
      delete load.cache[load.resolve(file)];
      mod = load(file) as T;
    }
    return mod;
  };
  for (const name of SERVER_CHUNKS) {
    await turn();
    const chunk = evaluate<{ __build?: string }>(name, (m) => m.__build === BUILD);
    if (chunk.__build !== BUILD) throw new ServerFileError(`${name} comes from another build than main.js. ${reinstall(pluginDir)}`);
  }
  await turn();
  const mod = evaluate<Server>(SERVER_FILE, (m) => m.VERSION === version && m.SERVER_BUILD === BUILD);
  if (mod.VERSION !== version) throw new ServerFileError(`${SERVER_FILE} is version ${mod.VERSION} but main.js is ${version}; reinstall the plugin so both come from the same release.`);
  if (mod.SERVER_BUILD !== BUILD) throw new ServerFileError(`${SERVER_FILE} comes from another build than main.js. ${reinstall(pluginDir)}`);
  return mod;
}

interface ElectronLike { remote?: { app?: { getPath(name: string): string } } }

/** Electron's app.getPath('userData') when the renderer can reach it (remote module), else null. */
export function appUserData(pluginDir: string): string | null {
  const load = createRequire(join(pluginDir, 'main.js'));
  for (const id of ['electron', '@electron/remote']) {
    try {
      const m = load(id) as ElectronLike & { app?: { getPath(name: string): string } };
      const app = m.remote?.app ?? m.app;
      const dir = app?.getPath('userData');
      if (typeof dir === 'string' && dir) return dir;
    } catch { /* not reachable from this renderer: the caller falls back to the platform's folder */ }
  }
  return null;
}
