// A vault laid out the way the containment attacks need it: notes inside and outside a Team/ root,
// an outside folder with secrets, and symlinks of every kind (files and folders; to outside, into
// dot-folders, out of the key's root, elsewhere in the vault, loops, dangling). The server runs
// in-process with the real HTTP endpoint and, when asked, the real file watcher.
import { join } from 'node:path';
import { mkdirSync, writeFileSync, symlinkSync, readdirSync, statSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NodeHost } from '../../../src/host/node/nodeHost.js';
import { KeyStore, type NewKey } from '../../../src/services/keyStore.js';
import type { Settings } from '../../../src/core/settings.js';
import { withDefaults } from '../../../src/settings.js';
import { startRuntime, type Runtime } from '../../../src/runtime.js';
import { tempDir } from '../../helpers/vault.js';
import { call, refusalCode, textOf, type ToolResult } from '../../helpers/server.js';
import { INSIDE, OUTSIDE } from '../helpers.js';

/** Words that exist only outside the vault or in its dot-folders: no answer may ever contain one. */
export const OUTSIDE_MARKERS = ['OUTSIDESECRETWORD', 'OUTSIDEDEEPWORD', 'DOTFOLDERWORD', 'HIDDENOUTSIDEWORD'];

export interface Layout { vault: string; outside: string; other: string }

/** Writes the files, the outside folders and the symlinks; returns their locations. */
export function makeLayout(): Layout {
  const root = tempDir('vmcp-adv-');
  const vault = join(root, 'vault');
  const outside = join(root, 'outside');
  const other = join(root, 'other');
  const write = (p: string, text: string) => { mkdirSync(join(p, '..'), { recursive: true }); writeFileSync(p, text); };
  for (const [p, text] of Object.entries({ ...INSIDE, ...OUTSIDE })) write(join(vault, p), text);
  write(join(vault, '.obsidian/app.json'), '{"DOTFOLDERWORD": true}\n');
  write(join(vault, '.obsidian/plugins/vault-mcp-server/keys.json'), '{"version":1,"keys":[]}\n');
  write(join(outside, 'secret.md'), '# Secret\n\nOUTSIDESECRETWORD lives outside the vault. plan team\n');
  write(join(outside, 'sub/deep.md'), '# Deep\n\nOUTSIDEDEEPWORD plan\n');
  write(join(outside, 'image.png'), 'OUTSIDESECRETWORD png');
  write(join(outside, '.hidden/h.md'), 'HIDDENOUTSIDEWORD\n');
  write(join(other, 'other.md'), '# Other\n\nOUTSIDESECRETWORD in another outside folder\n');
  const link = (target: string, at: string) => symlinkSync(target, join(vault, at));
  link(join(outside, 'secret.md'), 'leak.md'); // file → outside
  link(join(outside, 'secret.md'), 'Team/leak.md');
  link(join(outside, 'image.png'), 'Team/leak.png');
  link(join(vault, '.obsidian/app.json'), 'Team/cfg.md'); // file → dot-folder
  link('../.obsidian/plugins/vault-mcp-server/keys.json', 'Team/keys.md'); // relative, into the data folder
  link(join(vault, 'Private/Secret.md'), 'Team/escape.md'); // file → out of the key's root (inside the vault)
  link(outside, 'Team/outdir'); // folder → outside
  link(join(outside, '.hidden'), 'Team/hiddendir'); // folder → a dot-folder outside
  link(join(vault, '.obsidian'), 'Team/dotdir'); // folder → the config folder
  link(join(vault, 'Private'), 'Team/privdir'); // folder → out of the key's root
  link(join(vault, 'Team'), 'Team/loop'); // folder → itself
  link('/nonexistent/vmcp/nowhere.md', 'Team/dangling.md');
  link(other, 'otherdir'); // folder → a second outside folder (never allow-listed)
  link(join(vault, 'Team/Notes.md'), 'notes-link.md'); // file → elsewhere in the vault, outside any root
  link('../Notes.md', 'Team/Sub/alias.md'); // file → inside the root (relative)
  return { vault, outside, other };
}

/** Every symlink path of the layout (and paths through the folder links), each must read as missing unless noted. */
export const REFUSED_FILES = ['leak.md', 'Team/leak.md', 'Team/leak.png', 'Team/cfg.md', 'Team/keys.md', 'Team/dangling.md',
  'Team/outdir/secret.md', 'Team/outdir/sub/deep.md', 'Team/outdir/image.png', 'Team/hiddendir/h.md', 'Team/dotdir/app.json',
  'Team/dotdir/plugins/vault-mcp-server/keys.json', 'Team/privdir/Secret.md', 'Team/loop/Plan.md', 'otherdir/other.md'];
export const REFUSED_FOLDERS = ['Team/outdir', 'Team/outdir/sub', 'Team/hiddendir', 'Team/dotdir', 'Team/dotdir/plugins', 'Team/privdir', 'Team/loop', 'otherdir'];

export interface Server {
  rt: Runtime;
  host: NodeHost;
  url: string;
  key(spec: NewKey): Promise<string>;
  stop(): Promise<void>;
}

export async function serve(vault: string, settings: Partial<Settings> = {}, opts: { watch?: boolean } = {}): Promise<Server> {
  const dataDir = join(tempDir('vmcp-adv-data-'), 'data');
  const s = withDefaults({ port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0, ...settings });
  const host = new NodeHost(vault, { dataDir, watch: opts.watch ?? false, debounceMs: 30, allowedOutside: () => s.symlinkAllowedFolders });
  await host.ready();
  const keys = new KeyStore(host.data);
  const rt = await startRuntime({ host, settings: () => s, keys });
  return { rt, host, url: rt.server.url, key: async (spec) => (await keys.add(spec)).raw, stop: async () => { await rt.stop(); await host.close(); } };
}

/** sha256 of every file under `dir` (dot-entries included, symlinks not followed). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) out.set(r, 'symlink');
      else if (e.isDirectory()) { out.set(r + '/', 'dir'); walk(p, r); } else out.set(r, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  if (statSync(dir, { throwIfNoEntry: false })) walk(dir, '');
  return out;
}

/** Changes between two snapshots, as readable lines. */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of before) if (after.get(k) !== v) out.push(`${after.has(k) ? 'changed' : 'removed'} ${k}`);
  for (const k of after.keys()) if (!before.has(k)) out.push(`added ${k}`);
  return out;
}

/** Outside words in an answer (`echo`: the caller's own query, which an answer may repeat). */
export function leaks(r: ToolResult, echo = ''): string[] {
  let text = JSON.stringify(r);
  for (const w of echo.split(/\s+/).filter(Boolean)) text = text.split(w).join('');
  return OUTSIDE_MARKERS.filter((m) => text.includes(m));
}

let twin = 0;
/**
 * Calls `tool` with `path` and again with a path that surely does not exist (same file name);
 * the two answers must be the same refusal, word for word once each path is masked.
 */
export async function sameAsMissing(c: Client, tool: string, args: Record<string, unknown>, key: string, path: string): Promise<string | null> {
  // Same folder and file name under a folder that does not exist: "did you mean" hints match too.
  const cut = path.lastIndexOf('/');
  const missingPath = `${path.slice(0, cut + 1)}zz-missing-${++twin}/${path.slice(cut + 1)}`;
  const a = await call(c, tool, { ...args, [key]: path });
  const b = await call(c, tool, { ...args, [key]: missingPath });
  const mask = (r: ToolResult, p: string) => textOf(r).split(p).join('<P>').split(p.replace(/\.md$/, '')).join('<P>');
  const ca = a.isError ? refusalCode(a) : 'ok';
  const cb = b.isError ? refusalCode(b) : 'ok';
  if (ca !== cb) return `${tool}(${path}) answered ${ca}, a missing path ${cb}: ${textOf(a).slice(0, 200)}`;
  if (mask(a, path) !== mask(b, missingPath)) return `${tool}(${path}) differs from a missing path: ${mask(a, path).slice(0, 200)} vs ${mask(b, missingPath).slice(0, 200)}`;
  const l = leaks(a);
  if (l.length) return `${tool}(${path}) leaked ${l.join(', ')}`;
  return null;
}
