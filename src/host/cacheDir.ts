// Where rebuildable caches live (keyword index, vectors, downloaded models, the unpacked WASM): a
// per-vault folder outside the vault, so sync and backups do not carry tens of megabytes that can be
// rebuilt. Keys, settings, the audit log and the change feed stay in the plugin folder.
//   <base>/vault-mcp-server/<vault name>-<12 hex of sha256(vault path)>/
// base = Obsidian's own data folder (Electron's app.getPath('userData')) when the plugin can reach it,
// else the same folder guessed by platform, else the OS cache folder. The headless CLI computes the
// same path, so the app and the CLI share one cache.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync, promises as fs } from 'node:fs';
import { homedir, platform } from 'node:os';
import { basename, join } from 'node:path';
import { CACHE_DEFAULTS, cacheInVault } from './cacheSetting.js';

export { CACHE_DEFAULTS, cacheInVault };

type Env = Record<string, string | undefined>;

/** Obsidian's userData folder by platform (what app.getPath('userData') returns for the app). */
export function obsidianUserDataGuess(os: string = platform(), env: Env = process.env, home: string = homedir()): string {
  if (os === 'darwin') return join(home, 'Library', 'Application Support', 'obsidian');
  if (os === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'obsidian');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'obsidian');
}

/** The OS's per-user cache folder. */
export function osCacheDir(os: string = platform(), env: Env = process.env, home: string = homedir()): string {
  if (os === 'darwin') return join(home, 'Library', 'Caches');
  if (os === 'win32') return env.LOCALAPPDATA ?? join(home, 'AppData', 'Local');
  return env.XDG_CACHE_HOME ?? join(home, '.cache');
}

/** The base folder: userData when given or found on disk, else the OS cache folder. */
export function cacheBase(userData?: string | null): string {
  if (userData) return userData;
  const guess = obsidianUserDataGuess();
  return existsSync(guess) ? guess : osCacheDir();
}

/** A folder name unique to this vault: readable name plus a hash of its real path. */
export function vaultCacheKey(vaultPath: string): string {
  let real = vaultPath;
  try { real = realpathSync(vaultPath); } catch { /* a vault that is not there yet keys by the given path */ }
  const hash = createHash('sha256').update(real.normalize('NFC')).digest('hex').slice(0, 12);
  const name = basename(real).normalize('NFC').replace(/[^\p{L}\p{N}_-]+/gu, '_').slice(0, 40) || 'vault';
  return `${name}-${hash}`;
}

export function vaultCacheDir(vaultPath: string, userData?: string | null): string {
  return join(cacheBase(userData), 'vault-mcp-server', vaultCacheKey(vaultPath));
}

/** The cache files and folders, by name (the same in both places). */
export const CACHE_ENTRIES = ['keyword-index.bin', 'keyword-index.json', 'semantic-index.bin', 'models', 'ort-wasm-simd.wasm'];

/** Moves caches left in `from` (an older version's plugin folder, or the other setting's folder) to
 *  `to`, so a switch re-downloads no model and rebuilds no index. Entries already in `to` are kept. */
export async function moveCaches(from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  const moved: string[] = [];
  for (const name of CACHE_ENTRIES) {
    const src = join(from, name);
    const dest = join(to, name);
    if (!existsSync(src) || existsSync(dest)) continue;
    await fs.mkdir(to, { recursive: true });
    try {
      await fs.rename(src, dest);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      // Another disk: copy, then remove the original.
      await fs.cp(src, dest, { recursive: true, errorOnExist: true, force: false });
      await fs.rm(src, { recursive: true, force: true });
    }
    moved.push(name);
  }
  return moved;
}
