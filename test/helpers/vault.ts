// Temp vault copies and archive extraction for tests.
import { mkdtempSync, cpSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { SAMPLE_VAULT } from './paths.js';

export function tempDir(prefix = 'vmcp-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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
