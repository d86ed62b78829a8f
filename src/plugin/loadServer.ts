// Loads server.js (src/plugin/server.ts bundled on its own) from the plugin folder, on the first server
// start: main.js stays small, so Obsidian's launch pays only for the plugin shell. Also finds the app's
// data folder for the caches (src/host/cacheDir.ts).
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type * as ServerModule from './server.js';

export type Server = typeof ServerModule;
export const SERVER_FILE = 'server.js';
/** The brotli-compressed onnxruntime WASM shipped beside main.js (unpacked into the cache on first use). */
export const WASM_FILE = 'ort-wasm-simd.wasm.br';

export class ServerFileError extends Error {}

/** Evaluates `<pluginDir>/server.js` (once per app session; again when its version is not ours). */
export function loadServer(pluginDir: string, version: string): Server {
  const file = join(pluginDir, SERVER_FILE);
  if (!existsSync(file)) throw new ServerFileError(`${SERVER_FILE} is missing from ${pluginDir}. Reinstall the plugin: copy main.js, ${SERVER_FILE}, ${WASM_FILE}, manifest.json and styles.css into that folder.`);
  // Node's require (Electron's renderer has it): an absolute path, so the app's own module paths play no part.
  const load = createRequire(file);
  let mod = load(file) as Server;
  if (mod.VERSION !== version) {
    // An update replaced the files while the app kept the old module: drop it and evaluate the new one.
    delete load.cache[load.resolve(file)];
    mod = load(file) as Server;
  }
  if (mod.VERSION !== version) throw new ServerFileError(`${SERVER_FILE} is version ${mod.VERSION} but main.js is ${version}; reinstall the plugin so both come from the same release.`);
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
