// Temp vault copies and archive extraction for tests.
import { mkdtempSync, cpSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { SAMPLE_VAULT } from './paths.js';

/** Every temp dir this test process made, removed when it exits: a full run makes about a thousand
 *  (vault copies, data folders), and left behind they filled /tmp by gigabytes over repeated runs. */
const made: string[] = [];
process.on('exit', () => {
  for (const dir of made) {
    try { rmSync(dir, { recursive: true, force: true }); } catch { /* a mount still busy: left for the OS */ }
  }
});

export function tempDir(prefix = 'vmcp-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A fresh copy of a vault folder (default: the sample vault) without its plugin data. */
export function copyVault(src = SAMPLE_VAULT): string {
  const dir = join(tempDir('vmcp-vault-'), 'vault');
  cpSync(src, dir, { recursive: true, filter: (p) => !p.includes('/.obsidian/plugins/') });
  return dir;
}

const extracted = new Map<string, string>();

/** Extracts a .tar.gz once per process; returns the folder holding its top-level content. */
export function extractArchive(archive: string): string {
  const hit = extracted.get(archive);
  if (hit) return hit;
  const dir = tempDir('vmcp-extract-');
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', archive, '-C', dir]);
  extracted.set(archive, dir);
  return dir;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
