// get_recent (notes by modification or content-change time) and get_changes (the change feed).
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY, type ToolContext } from '../tool.js';
import { pageAfter, newestFirstKey } from '../../core/cursor.js';
import { refuse } from '../../core/errors.js';
import { inFolder, noteTitle } from '../../core/paths.js';
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
    'Notes changed most recently, newest first, with times in UTC. order_by="modified" uses the file\'s modification time; "content_changed" uses when its bytes last changed, ignoring a touch or re-sync that kept them. ' +
    'since/until filter on the same time. For what happened since your last visit, with who did it, use get_changes. Paged: pass next_cursor as cursor.',
  input: z.strictObject({
    folder: folderFilter,
    limit: z.number().int().min(1).max(500).default(20).describe('Rows per page (max 500)'),
    since: z.string().optional().describe('Only notes changed at or after this time (ISO 8601)'),
    until: z.string().optional().describe('Only notes changed before this time (ISO 8601)'),
    order_by: z.enum(['modified', 'content_changed']).default('modified').describe('"modified" (file modification time, default) or "content_changed" (when the bytes last changed)'),
    cursor: pageCursor,
  }),
  output: z.object({
    total: z.number().int(),
    notes: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string(), content_changed: z.string(), size: z.number().int() })),
    next_cursor: z.string().nullable(),
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
    const notes = page.map(({ f }) => ({ path: f.path, title: noteTitle(f.path), modified: isoUtc(f.mtime), content_changed: isoUtc(Math.min(feed?.contentChanged(f.path) ?? f.mtime, f.mtime)), size: f.size }));
    const text = notes.length ? notes.map((n) => `${(args.order_by === 'modified' ? n.modified : n.content_changed).slice(0, 19).replace('T', ' ')}Z  ${n.path}`).join('\n') + (next_cursor ? `\n… more with cursor="${next_cursor}"` : '') : 'No notes changed in that window.';
    return { structured: { total: rows.length, notes, next_cursor }, text };
  },
});

const KINDS = [...NOTE_KINDS, 'gap', 'reset'] as const;

export const getChanges = defineTool({
  name: 'get_changes',
  title: 'Change feed',
  family: 'read',
  description:
    'What changed in the vault after a cursor, oldest first: one line per note created, modified, moved or deleted, each attributed to the key that made it or to "human" (Obsidian, a sync client, git; also changes found at start). ' +
    'Start with since="<date>" (ISO 8601), then pass next_since from every answer to continue exactly where you left off (cursors look like "ev:42"). ' +
    'Deletions say why; "gap" lines mark windows the server did not watch or lines dropped by retention, "reset" lines mean earlier history is unknown. by="me" shows your key\'s own changes, "agents" any key\'s, "human" the rest.',
  input: z.strictObject({
    since: z.string().describe('An "ev:<n>" cursor (next_since of an earlier call) or an ISO 8601 date/time to start from'),
    folder: z.string().optional().describe('Only changes in this folder and its sub-folders (either end of a move); "" = root level only'),
    kinds: z.array(z.enum(NOTE_KINDS)).optional().describe('Only these kinds (gap and reset lines are always shown)'),
    by: z.enum(['any', 'me', 'agents', 'human']).default('any').describe('"any" (default), "me" (this key), "agents" (any key) or "human" (everything not made through a key)'),
    limit: z.number().int().min(1).max(500).default(50).describe('Lines per page (max 500)'),
  }),
  output: z.object({
    changes: z.array(z.object({
      cursor: z.string().nullable().describe('ev:<n> of this line; null for a gap/reset line made for this answer'),
      time: z.string().describe('When the change was seen, ISO 8601 UTC'),
      kind: z.enum(KINDS),
      path: z.string().optional(),
      from: z.string().optional().describe('Old path of a move'),
      by: z.string().describe('Key name, "human", or "server" for gap/reset lines'),
      reason: z.string().optional(),
      gap_from: z.string().optional(),
      gap_until: z.string().optional(),
    })),
    next_since: z.string().describe('Pass as since to continue after this page'),
    more: z.boolean().describe('True when more lines follow right away'),
    head: z.string().describe('Cursor of the newest line in the feed'),
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
      cursor: synthetic ? null : `ev:${e.n}`, time: isoUtc(e.t), kind: e.kind,
      ...(e.path !== undefined ? { path: e.path } : {}), ...(e.from !== undefined ? { from: e.from } : {}),
      by: e.by, ...(e.reason ? { reason: e.reason } : {}),
      ...(e.gap_from !== undefined ? { gap_from: isoUtc(e.gap_from) } : {}), ...(e.gap_until !== undefined ? { gap_until: isoUtc(e.gap_until) } : {}),
    }));
    const out = { changes: rows, next_since: r.next_since, more: r.more, head: r.head };
    const line = (x: (typeof rows)[number]) => x.kind === 'gap' || x.kind === 'reset'
      ? `${x.cursor ?? '—'} ${x.time} ${x.kind.toUpperCase()}: ${x.reason}`
      : `${x.cursor} ${x.time} ${x.kind} ${x.from ? `${x.from} → ` : ''}${x.path} by ${x.by}${x.reason ? ` (${x.reason})` : ''}`;
    const text = (rows.length ? rows.map(line).join('\n') : 'No changes.') + `\nnext_since: ${r.next_since}${r.more ? ' (more follow)' : ''}`;
    return { structured: out, text };
  },
});

export const timeTools = [getRecent, getChanges];
