// get_recent (notes by modification or content-change time) and get_changes (the change feed).
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY, type ToolContext } from '../tool.js';
import { pageAfter, newestFirstKey } from '../../core/cursor.js';
import { refuse } from '../../core/errors.js';
import { inFolder } from '../../core/paths.js';
import { answer, cursorField, hintOut, moreHint, nextCursorOut, pathOut } from './results.js';
import { isoUtc, parseTime } from '../../core/time.js';
import { ChangeService } from '../../changes/service.js';
import { NOTE_KINDS, parseCursor, type ChangeEvent } from '../../changes/feed.js';

function changes(ctx: ToolContext): ChangeService | undefined {
  return ctx.deps.services.changes;
}

export const getRecent = defineTool({
  name: 'get_recent',
  title: 'Recently changed notes',
  family: 'read',
  description:
    'Notes changed most recently, newest first; content_changed ignores touches that kept the bytes. Who changed what since a cursor: get_changes.',
  input: z.strictObject({
    folder: folderFilter,
    limit: z.number().int().min(1).max(500).default(20).describe('Rows per page'),
    since: z.string().optional().describe('Changed since (ISO 8601)'),
    until: z.string().optional().describe('Changed before'),
    order_by: z.enum(['modified', 'content_changed']).default('modified').describe('Which time'),
    cursor: pageCursor,
  }),
  output: z.object({
    total: z.number().int().describe('Notes in the window'),
    notes: z.array(z.object({ path: pathOut, modified: z.string().describe('UTC'), content_changed: z.string().optional().describe('Bytes changed, if earlier'), size: z.number().int().describe('Bytes') })).describe('Newest first'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const folder = ctx.vault.folderArg(args.folder);
    const since = args.since !== undefined ? parseTime(args.since, 'since') : -Infinity;
    const until = args.until !== undefined ? parseTime(args.until, 'until') : Infinity;
    const feed = changes(ctx);
    if (feed && args.order_by === 'content_changed') await feed.settle();
    const rows = ctx.vault.notes(folder).map((f) => {
      const c = feed?.contentChanged(f.path) ?? f.mtime;
      return { f, t: args.order_by === 'modified' ? f.mtime : Math.min(c, f.mtime) };
    }).filter((r) => r.t >= since && r.t < until);
    const keyOf = (r: (typeof rows)[number]) => newestFirstKey(r.t, r.f.path);
    rows.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const { page, next_cursor } = pageAfter(rows, keyOf, args.limit, `get_recent:${args.order_by}`, args.cursor);
    const notes = page.map(({ f }) => {
      const changed = Math.min(feed?.contentChanged(f.path) ?? f.mtime, f.mtime);
      return { path: f.path, modified: isoUtc(f.mtime), ...(changed < f.mtime ? { content_changed: isoUtc(changed) } : {}), size: f.size };
    });
    const body = notes.length ? notes.map((n) => `${(args.order_by === 'modified' ? n.modified : n.content_changed ?? n.modified).slice(0, 19).replace('T', ' ')}Z  ${n.path}`).join('\n') : 'No notes changed in that window.';
    return answer({ total: rows.length, notes, ...cursorField(next_cursor) }, body, [moreHint(notes.length, rows.length, next_cursor)]);
  },
});

const KINDS = [...NOTE_KINDS, 'gap', 'reset'] as const;

export const getChanges = defineTool({
  name: 'get_changes',
  title: 'Change feed',
  family: 'read',
  description:
    'Notes created, modified, moved or deleted after a cursor, oldest first, each by the key that did it or "human". Start from get_vault_guide\'s cursor or a date; go on with next_since. "gap": unwatched time.',
  input: z.strictObject({
    since: z.string().describe('Cursor ("ev:42") or ISO date'),
    folder: z.string().optional().describe('Folder and below'),
    kinds: z.array(z.enum(NOTE_KINDS)).optional().describe('Only these kinds'),
    by: z.enum(['any', 'me', 'agents', 'human']).default('any').describe('Who'),
    limit: z.number().int().min(1).max(500).default(50).describe('Lines per page'),
  }),
  output: z.object({
    changes: z.array(z.object({
      cursor: z.string().optional().describe('This line'),
      time: z.string().describe('UTC'),
      kind: z.enum(KINDS).describe('What'),
      path: z.string().optional().describe('Note'),
      from: z.string().optional().describe('Moved from'),
      by: z.string().describe('Key, human or server'),
      reason: z.string().optional().describe('Why'),
    })).describe('Oldest first'),
    next_since: z.string().describe('Pass as since next'),
    more: z.boolean().optional().describe('More now'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  available: (deps) => !!deps.services.changes,
  async handler(args, ctx) {
    const feed = changes(ctx);
    if (!feed) refuse('unavailable', 'The change feed is not running on this server; use get_recent instead.');
    const c = parseCursor(args.since);
    if (!c) refuse('invalid_argument', `since="${args.since}" is not a cursor; pass next_since exactly as returned (e.g. "ev:42") or a date such as "2026-01-31".`);
    if (c.kind === 'time') parseTime(args.since, 'since');
    const folder = args.folder !== undefined ? ctx.vault.folderArg(args.folder) : undefined;
    const me = ctx.caller.keyName;
    const accept = (e: ChangeEvent) => {
      if (args.kinds && !args.kinds.includes(e.kind as (typeof NOTE_KINDS)[number])) return false;
      if (args.by === 'me' && e.by !== me) return false;
      if (args.by === 'agents' && (e.by === 'human' || e.by === 'server')) return false;
      if (args.by === 'human' && e.by !== 'human') return false;
      if (folder !== undefined && !(inFolder(e.path ?? '', folder) || (e.from !== undefined && inFolder(e.from, folder)))) return false;
      return true;
    };
    const r = await feed.query({ since: args.since, accept, visible: (p) => ctx.vault.visible(p), limit: args.limit });
    const rows = r.rows.map(({ event: e, synthetic }) => ({
      ...(synthetic ? {} : { cursor: `ev:${e.n}` }), time: isoUtc(e.t), kind: e.kind,
      ...(e.path !== undefined ? { path: e.path } : {}), ...(e.from !== undefined ? { from: e.from } : {}),
      by: e.by, ...(e.reason ? { reason: e.reason } : {}),
      ...(e.gap_from !== undefined ? { gap_from: isoUtc(e.gap_from) } : {}), ...(e.gap_until !== undefined ? { gap_until: isoUtc(e.gap_until) } : {}),
    }));
    const out = { changes: rows, next_since: r.next_since, ...(r.more ? { more: true } : {}) };
    const line = (x: (typeof rows)[number]) => x.kind === 'gap' || x.kind === 'reset'
      ? `${x.cursor ?? '—'} ${x.time} ${x.kind.toUpperCase()}: ${x.reason}`
      : `${x.cursor} ${x.time} ${x.kind} ${x.from ? `${x.from} → ` : ''}${x.path} by ${x.by}${x.reason ? ` (${x.reason})` : ''}`;
    const body = (rows.length ? rows.map(line).join('\n') : 'No changes.') + `\nnext_since: ${r.next_since}`;
    return answer(out, body, [r.more && `More changes follow: call again with since="${r.next_since}".`]);
  },
});

export const timeTools = [getRecent, getChanges];
