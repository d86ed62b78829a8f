// Argument completion (completion/complete) over what the caller may see: note paths for the
// vault://note and vault://toc templates and for prompt arguments naming a note, folder paths for
// prompt arguments naming a folder. A root-confined key is offered only paths inside its root.
import type { ToolContext } from './tool.js';
import { basename } from '../core/paths.js';

/** At most this many values per answer (the protocol's limit). */
export const MAX_COMPLETIONS = 100;

export type Completion = {
  values: string[];
  total: number;
  hasMore: boolean;
};

/**
 * Candidates matching what was typed, best first: the path starts with it, then the file or folder
 * name does, then it appears anywhere (all case-insensitive); ties in path order.
 */
export function complete(candidates: string[], typed: string): Completion {
  const q = typed.normalize('NFC').toLowerCase().replace(/\\/g, '/').replace(/^\/+/, '');
  const ranked: { v: string; r: number }[] = [];
  for (const v of candidates) {
    const l = v.toLowerCase();
    const r = l.startsWith(q) ? 0 : basename(l).startsWith(q) ? 1 : l.includes(q) ? 2 : -1;
    if (r >= 0) ranked.push({ v, r });
  }
  ranked.sort((a, b) => a.r - b.r || (a.v < b.v ? -1 : a.v > b.v ? 1 : 0));
  return { values: ranked.slice(0, MAX_COMPLETIONS).map((x) => x.v), total: ranked.length, hasMore: ranked.length > MAX_COMPLETIONS };
}

export const notePaths = (ctx: ToolContext): string[] => ctx.vault.notes().map((n) => n.path);

/** Visible folders, the caller's root first when it has one. */
export const folderPaths = (ctx: ToolContext): string[] => (ctx.caller.root ? [ctx.caller.root, ...ctx.vault.folders()] : ctx.vault.folders());

export const EMPTY_COMPLETION: Completion = { values: [], total: 0, hasMore: false };
