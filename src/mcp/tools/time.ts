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
    'Notes changed most recently, newest first (UTC). order_by="content_changed" ignores touches and re-syncs that kept the bytes. What changed since a cursor, and who did it: get_changes.',
  input: z.strictObject({
    folder: folderFilter,
    limit: z.number().int().min(1).max(500).default(20).describe('Rows per page'),
    since: z.string().optional().describe('Changed at or after (ISO 8601)'),
    until: z.string().optional().describe('Changed before (ISO 8601)'),
    order_by: z.enum(['modified', 'content_changed']).default('modified').describe('File time, or when the bytes changed'),
    cursor: pageCursor,
  }),
  output: z.object({
    total: z.number().int().describe('Notes in the window'),
    notes: z.array(z.object({ path: pathOut, modified: z.string().describe('ISO 8601 UTC'), content_changed: z.string().optional().describe('When the bytes changed, if earlier'), size: z.number().int().describe('Bytes') })),
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
    'What changed after a cursor, oldest first: notes created, modified, moved or deleted, each by the key that did it or "human" (Obsidian, sync, git). ' +
    'Start with the cursor from get_vault_guide or a date; pass next_since to go on. "gap" lines: unwatched windows; "reset": earlier history unknown.',
  input: z.strictObject({
    since: z.string().describe('Cursor ("ev:42", next_since) or ISO 8601 date'),
    folder: z.string().optional().describe('Only this folder and below (either end of a move)'),
    kinds: z.array(z.enum(NOTE_KINDS)).optional().describe('Only these kinds'),
    by: z.enum(['any', 'me', 'agents', 'human']).default('any').describe('me: this key; agents: any key; human: the rest'),
    limit: z.number().int().min(1).max(500).default(50).describe('Lines per page'),
  }),
  output: z.object({
    changes: z.array(z.object({
      cursor: z.string().optional().describe('ev:<n> of this line'),
      time: z.string().describe('ISO 8601 UTC'),
      kind: z.enum(KINDS).describe('What happened'),
      path: z.string().optional().describe('Vault path'),
      from: z.string().optional().describe('Old path of a move'),
      by: z.string().describe('Key name, human or server'),
      reason: z.string().optional().describe('Why (deletes, gaps)'),
      gap_from: z.string().optional().describe('Gap start'),
      gap_until: z.string().optional().describe('Gap end'),
    })),
    next_since: z.string().describe('Pass as since to go on'),
    more: z.boolean().optional().describe('More lines follow now'),
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
