// What the write tools share: the expected_hash argument, attribution in the change feed, the note
// path a caller may write, the conventions echo, and deleting (notes and files alike).
import { z } from 'zod';
import type { Caller, ToolContext } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { normalizeFilePath, withMdExtension } from '../../core/paths.js';
import { checkFresh, guarded, attributed, type OwnWrite } from '../../services/writeSupport.js';
import { conventionsFor, conventionsText } from '../../services/conventions.js';
import { pathOut } from './results.js';

export const HASH = 'content_hash you read';

export const conventionsOut = z.record(z.string(), z.string()).optional().describe('_conventions.md → rules (once per session)');

/** Runs a write attributed to the caller's key in the change feed (recorded before, withdrawn on failure). */
export function asCaller<T>(ctx: ToolContext, writes: OwnWrite[], fn: () => Promise<T>, wrote?: (r: T) => boolean): Promise<T> {
  return attributed(ctx.deps.services, ctx.caller.keyName, writes, fn, wrote);
}

/** A note path the caller may write: normalised, `.md` added, inside the key's root. */
export function writableNotePath(ctx: ToolContext, raw: string, what = 'path'): string {
  const p = withMdExtension(normalizeFilePath(raw, what));
  if (!ctx.vault.visible(p)) refuse('permission_denied', `"${p}" is outside the folder this key may write ("${ctx.vault.root}/").`);
  return p;
}

// Which convention texts a session (its Caller object) has already been shown: the first write into a
// folder shows the rules, later writes only name them, so every write does not repeat them.
const shown = new WeakMap<Caller, Set<string>>();

/** The conventions that apply to `folder`, with each file's text only the first time this session sees it. */
export async function conventionsEcho(ctx: ToolContext, folder: string): Promise<{ conventions?: Record<string, string>; text: string }> {
  const list = await conventionsFor(ctx.vault, folder);
  if (!list.length) return { text: '' };
  let seen = shown.get(ctx.caller);
  if (!seen) { seen = new Set(); shown.set(ctx.caller, seen); }
  const fresh = list.filter((c) => !seen.has(c.content_hash));
  for (const c of fresh) seen.add(c.content_hash);
  const rows = Object.fromEntries(list.map((c) => [c.path, fresh.includes(c) ? c.content : '(shown earlier in this session)']));
  return { conventions: rows, text: conventionsText(fresh) };
}

export async function deleteAny(ctx: ToolContext, path: string, permanent: boolean, expected: string | undefined, readWith: string) {
  let prev = '';
  const check = (bytes: Uint8Array) => { prev = checkFresh(bytes, expected, path, readWith); };
  const w = ctx.deps.host.writer;
  const reason = permanent ? `deleted permanently by the key "${ctx.caller.keyName}"` : `moved to the trash by the key "${ctx.caller.keyName}"`;
  const where = await asCaller(ctx, [{ path, kind: 'deleted', reason }], () => guarded(path, async () => (permanent ? await w.remove(path, check) : await w.trash(path, check))));
  return {
    structured: { path, ...(where ? { trashed_to: where } : {}), previous_hash: prev },
    // In Obsidian a permanent delete still follows the "Deleted files" setting (where says so).
    text: permanent && !where ? `Deleted ${path} permanently.` : `Moved ${path} to the trash (${where}).`,
  };
}

export const deleteOut = z.object({
  path: pathOut,
  trashed_to: z.string().optional().describe('Where it went'),
  previous_hash: z.string().describe('Hash deleted'),
});
