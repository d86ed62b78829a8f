// Result pieces every family shares. Claude Code and VS Code give the model only structuredContent, so
// what an agent needs next (more pages, a cut read, an index still building) is said there, in one
// `hint` sentence; the text copy repeats that sentence verbatim and is otherwise a short rendering.
// Fields that would be null, false or empty are left out unless they carry meaning. Staleness (an
// index still building, how many notes wait) is a hint sentence; clients also get _meta.index_stale.
import { z } from 'zod';
import type { ToolContext } from '../tool.js';

export const hintOut = z.string().optional().describe('Next step');
export const nextCursorOut = z.string().optional().describe('For cursor: more');
export const pathOut = z.string().describe('Path');

type Hint = string | false | null | undefined;

/** structured + hint (when any), and the text copy with the same hint as its last line. */
export function answer<T extends object>(structured: T, body: string, hints: Hint[] = []): { structured: T & { hint?: string }; text: string } {
  const hint = hints.filter((h): h is string => !!h).join(' ');
  return hint ? { structured: { ...structured, hint }, text: body ? `${body}\n${hint}` : hint } : { structured, text: body };
}

/** The sentence for a page that has more after it. */
export function moreHint(shown: number, total: number | null, next: string | null | undefined): Hint {
  if (!next) return null;
  return total === null ? `More after these ${shown}: pass next_cursor as cursor.` : `${shown} of ${total} shown; pass next_cursor as cursor for more.`;
}

/** next_cursor as an optional field. */
export function cursorField(next: string | null | undefined): { next_cursor?: string } {
  return next ? { next_cursor: next } : {};
}

/** Staleness of answers built from the host's metadata (graph, tags, tasks): fields and hint. */
/** Staleness of answers built from the host's metadata (graph, tags, tasks), said in the hint (and _meta.index_stale). */
export function hostStaleness(ctx: ToolContext, waited?: boolean): { hint: Hint } {
  const pending = ctx.deps.host.pendingCount();
  if (pending <= 0) return { hint: null };
  return {
    hint: waited === false
      ? `Index still building: ${pending} notes not parsed after waiting 10 s, so the answer may be incomplete; call again shortly.`
      : `Index still building: ${pending} notes not parsed yet, so the answer may be incomplete; pass wait_for_pending_writes=true for a complete one.`,
  };
}

/** Drops keys whose value is undefined, null or an empty array (not: false, 0, ""). */
export function compact<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

export const waitInput = z.boolean().default(false).describe('Wait for indexing (≤10 s)');
