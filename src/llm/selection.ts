// Which notes a summarize call covers: paths and folders (a folder = every note under it, sorted),
// de-duplicated in argument order, resolved through the caller's ScopedVault (so a root-confined key
// sees paths outside its root as missing). Then the note limit and the reads, in that order.
import type { ScopedVault } from '../services/scopedVault.js';
import type { FileStat } from '../host/port.js';
import { Refusal } from '../core/errors.js';
import { dirname, isNotePath, noteTitle, normalizeFolderPath } from '../core/paths.js';

export type SkipReason = 'not_found' | 'invalid_path' | 'over_read_limit' | 'unreadable';
export interface Skipped { path: string; reason: SkipReason; detail: string }

export interface Selection {
  notes: FileStat[];
  skipped: Skipped[];
}

export function selectNotes(vault: ScopedVault, paths: string[]): Selection {
  const seen = new Set<string>();
  const notes: FileStat[] = [];
  const skipped: Skipped[] = [];
  const add = (st: FileStat) => { if (!seen.has(st.path)) { seen.add(st.path); notes.push(st); } };
  for (const raw of paths) {
    let p: string;
    try {
      p = normalizeFolderPath(raw, 'path');
    } catch (e) {
      skipped.push({ path: raw, reason: 'invalid_path', detail: e instanceof Refusal ? e.message : String(e) });
      continue;
    }
    if (p === '') {
      for (const st of vault.notes(vault.root === '' ? undefined : vault.root).sort(byPath)) add(st);
      continue;
    }
    const st = [isNotePath(p) ? p : `${p}.md`, p].map((c) => vault.stat(c)).find((x) => x) ?? null;
    if (st && isNotePath(st.path)) { add(st); continue; }
    if (vault.isFolder(p)) {
      const under = vault.notes(p).sort(byPath);
      if (!under.length) skipped.push({ path: p, reason: 'not_found', detail: 'the folder holds no notes' });
      for (const n of under) add(n);
      continue;
    }
    if (st) skipped.push({ path: st.path, reason: 'invalid_path', detail: 'not a markdown note (read it with read_file)' });
    else skipped.push({ path: p, reason: 'not_found', detail: 'no note or folder at this path' });
  }
  return { notes, skipped };
}

function byPath(a: FileStat, b: FileStat): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

export interface ReadNote { path: string; title: string; text: string }

/**
 * Reads notes in order until `limit` are read; the rest are omitted. Notes over the read limit or
 * failing to read are skipped and do not use up the limit.
 */
export async function readSelection(vault: ScopedVault, notes: FileStat[], limit: number, maxBytes: number, signal?: AbortSignal): Promise<{ read: ReadNote[]; omitted: string[]; skipped: Skipped[] }> {
  const read: ReadNote[] = [];
  const omitted: string[] = [];
  const skipped: Skipped[] = [];
  const decoder = new TextDecoder('utf-8');
  for (const st of notes) {
    if (read.length >= limit) { omitted.push(st.path); continue; }
    signal?.throwIfAborted();
    if (st.size > maxBytes) { skipped.push({ path: st.path, reason: 'over_read_limit', detail: `${st.size} bytes, over the ${maxBytes}-byte read limit` }); continue; }
    try {
      const text = decoder.decode(await vault.host.readBytes(st.path));
      read.push({ path: st.path, title: noteTitle(st.path), text });
    } catch (e) {
      skipped.push({ path: st.path, reason: 'unreadable', detail: String((e as NodeJS.ErrnoException)?.code ?? (e as Error)?.message ?? e).slice(0, 120) });
    }
  }
  return { read, omitted, skipped };
}

/** "Projects/A" (12 notes), … : where the omitted notes live, for the hint. */
export function omittedFolders(paths: string[], max = 6): string {
  const counts = new Map<string, number>();
  for (const p of paths) counts.set(dirname(p), (counts.get(dirname(p)) ?? 0) + 1);
  const rows = [...counts].sort((a, b) => b[1] - a[1]).slice(0, max).map(([f, n]) => `"${f || '(vault root)'}" (${n} note${n === 1 ? '' : 's'})`);
  return rows.join(', ') + (counts.size > max ? `, and ${counts.size - max} more folders` : '');
}
