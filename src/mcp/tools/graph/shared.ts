// What the graph tools share: the link kind, paging arguments and pages, and the text of a linking line.
import { z } from 'zod';
import { pageCursor } from '../args.js';
import type { ToolContext } from '../../tool.js';
import { pageAfter } from '../../../core/cursor.js';
import { textLines } from '../../../core/tasks.js';
import type { LinkRef } from '../../../graph/service.js';

export const KINDS = ['wikilink', 'embed', 'markdown', 'frontmatter'] as const;
/** Output kind of a link, left out for the common wikilink. */
export const linkKindOut = z.enum(KINDS).optional().describe('Absent: wikilink');
export const kindField = (r: LinkRef) => (r.kind === 'wikilink' ? {} : { kind: r.kind });

/** The limit (bounds, default and wording differ per tool) and cursor arguments of a paged tool. */
export function pageInput(max: number, dflt: number, describe: string) {
  return {
    limit: z.number().int().min(1).max(max).default(dflt).describe(describe),
    cursor: pageCursor,
  };
}

export function pageOf<T>(rows: T[], key: (t: T) => string, scope: string, args: { limit: number; cursor?: string }) {
  return pageAfter(rows, key, args.limit, scope, args.cursor);
}

export const pad = (n: number) => String(n).padStart(9, '0');
export const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);

const LINE_CHARS = 160;

/** The line a link sits on, trimmed; a long line is cut to a window around the link. */
export function lineAround(lines: string[], r: LinkRef): string {
  const raw = lines[(r.line ?? 0) - 1] ?? '';
  const t = raw.trim();
  if (t.length <= LINE_CHARS) return t;
  const at = Math.max(0, t.indexOf(r.link));
  const from = Math.max(0, Math.min(at - 40, t.length - LINE_CHARS));
  return `${from > 0 ? '…' : ''}${t.slice(from, from + LINE_CHARS)}${from + LINE_CHARS < t.length ? '…' : ''}`;
}

export async function linesOf(ctx: ToolContext, path: string): Promise<string[]> {
  try { return textLines(await ctx.deps.host.readText(path)); } catch { return []; }
}
