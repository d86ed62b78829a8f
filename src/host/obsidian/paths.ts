// Where the vault and the plugin's own folder are on disk (small: main.js uses it before the server loads).
import { join } from 'node:path';
import type { App, PluginManifest } from 'obsidian';

/** The vault's folder on disk: the plugin is desktop-only, so the adapter is a FileSystemAdapter. */
export function vaultBasePath(app: App): string {
  const adapter = app.vault.adapter as { getBasePath?: () => string };
  if (typeof adapter.getBasePath !== 'function') {
    throw new Error('Vault MCP Server needs the desktop app: this vault has no folder on disk.');
  }
  return adapter.getBasePath();
}

/** `<vault>/<configDir>/plugins/<id>`, or the folder the app actually loaded the plugin from. */
export function pluginDataDir(app: App, manifest: Pick<PluginManifest, 'id' | 'dir'>): string {
  return join(vaultBasePath(app), manifest.dir ?? `${app.vault.configDir}/plugins/${manifest.id}`);
}

/** A character outside ASCII: only such paths can have another Unicode spelling. */
export const NON_ASCII = /[\u0080-\uffff]/;
/** A path with a component starting with '.' (.obsidian, .trash, .git…): never shown. */
export const hidden = (p: string) => p.charCodeAt(0) === 46 || p.includes('/.');
/** The NFC spelling of a path (all-ASCII paths as they are, without normalizing). */
export const nfc = (p: string) => (NON_ASCII.test(p) ? p.normalize('NFC') : p);

/**
 * Obsidian's normalizePath, as obsidian.d.ts documents it and the app applies it to the paths of files it
 * creates and moves: slashes collapsed and trimmed, no-break spaces (U+00A0, U+202F) as spaces, NFC.
 * main.ts passes the app's own function; this copy serves tests of src/ and anything older.
 */
export function appNormalizePath(path: string): string {
  let p = path.replace(/([\\/])+/g, '/').replace(/(^\/+|\/+$)/g, '');
  if (p === '') p = '/';
  return p.replace(/[\u00A0\u202F]/g, ' ').normalize('NFC');
}
