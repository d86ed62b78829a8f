// list_tasks: tasks from the task index (built from host events; notes are not re-read per call).
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { pageAfter } from '../../core/cursor.js';
import { refuse } from '../../core/errors.js';
import { inFolder, noteTitle } from '../../core/paths.js';
import { tagMatches } from '../../core/tasks.js';
import { taskService } from '../../graph/access.js';
import type { TaskRow } from '../../tasks/service.js';

const NAMED = ['open', 'done', 'cancelled', 'in_progress', 'any'] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateArg(v: string | undefined, name: string): string | undefined {
  if (v === undefined) return undefined;
  const s = v.trim().slice(0, 10);
  if (!DATE.test(s) || Number.isNaN(Date.parse(`${s}T00:00:00Z`))) refuse('invalid_argument', `${name}="${v}" is not a date; use YYYY-MM-DD, e.g. "2026-12-31".`);
  return s;
}

export const listTasks = defineTool({
  name: 'list_tasks',
  title: 'List tasks',
  family: 'read',
  description:
    'Tasks (- [ ] checkboxes) across the vault or a folder, from the task index: status (open " ", done "x", cancelled "-", in_progress "/", or any other character as is), ' +
    'Tasks-plugin fields (📅 due, ⏳ scheduled, 🛫 start, ✅ done, ❌ cancelled, ➕ created, priority 🔺⏫🔼🔽⏬, 🔁 recurrence) and Dataview inline fields ([due:: 2026-01-31]). ' +
    'Each row has path, line, heading path, the task\'s own tags and text. Ordered by due date (undated last), then path and line; due_by / scheduled_by mean on or before. ' +
    'notes_pending in the answer counts notes not yet scanned: while it is > 0 the list may be incomplete (pass wait_for_pending_writes=true). Paged: pass next_cursor as cursor. To change a task, edit the note (read_note + edit_note).',
  input: z.strictObject({
    folder: folderFilter,
    status: z.string().default('open').describe('"open" (default), "done", "cancelled", "in_progress", "any", or one status character such as ">"'),
    due_by: z.string().optional().describe('Only tasks due on or before this date (YYYY-MM-DD); undated tasks are left out'),
    scheduled_by: z.string().optional().describe('Only tasks scheduled on or before this date (YYYY-MM-DD)'),
    tags: z.array(z.string()).optional().describe('Only tasks carrying every one of these tags on their own line ("a" also matches "#a/b")'),
    limit: z.number().int().min(1).max(500).default(100).describe('Rows per page (max 500)'),
    cursor: pageCursor,
    wait_for_pending_writes: z.boolean().default(false).describe('Wait (up to 10 s) until every note is scanned'),
  }),
  output: z.object({
    total: z.number().int().describe('Tasks matching, across all pages'),
    notes_pending: z.number().int().describe('Notes not yet scanned for tasks; > 0 means the list may be incomplete'),
    notes_with_tasks: z.number().int(),
    tasks: z.array(z.object({
      path: z.string(), title: z.string(), line: z.number().int().describe('1-based'),
      heading_path: z.array(z.string()),
      status: z.string(), status_char: z.string(), text: z.string(),
      due: z.string().nullable(), scheduled: z.string().nullable(), start: z.string().nullable(),
      done: z.string().nullable(), cancelled: z.string().nullable(), created: z.string().nullable(),
      priority: z.enum(['highest', 'high', 'medium', 'low', 'lowest']).nullable(),
      recurrence: z.string().nullable(),
      tags: z.array(z.string()),
      fields: z.record(z.string(), z.string()).describe('Dataview inline fields on the line'),
      parent_line: z.number().int().nullable().describe('Line of the parent task when nested'),
      block_id: z.string().nullable(),
    })),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const status = args.status.trim() === '' ? ' ' : args.status;
    if (!(NAMED as readonly string[]).includes(status) && [...status].length !== 1) {
      refuse('invalid_argument', `status="${args.status}" is not a status; use open, done, cancelled, in_progress, any, or a single status character such as ">".`);
    }
    const dueBy = dateArg(args.due_by, 'due_by');
    const schedBy = dateArg(args.scheduled_by, 'scheduled_by');
    const folder = ctx.vault.folderArg(args.folder);
    const svc = taskService(ctx);
    const settled = await svc.settle(args.wait_for_pending_writes ? 10_000 : 0);
    const want = (t: TaskRow) => {
      if (status === 'any') { /* all */ } else if ((NAMED as readonly string[]).includes(status)) { if (t.status !== status) return false; } else if (t.status_char !== status) return false;
      if (dueBy && !(t.due && t.due <= dueBy)) return false;
      if (schedBy && !(t.scheduled && t.scheduled <= schedBy)) return false;
      if (args.tags?.length && !args.tags.every((w) => t.tags.some((x) => tagMatches(x, w)))) return false;
      return true;
    };
    // Sort keys are computed once per row, not per comparison: this is the hot path on big vaults.
    const keyed: { t: TaskRow; k: string }[] = [];
    const visibleWithTasks = new Set<string>(); // counted within the caller's root: a confined key learns nothing outside it
    for (const t of svc.all()) {
      if (!ctx.vault.visible(t.path)) continue;
      visibleWithTasks.add(t.path);
      if (inFolder(t.path, folder) && want(t)) keyed.push({ t, k: `${t.due ?? '9999-99-99'}\u0000${t.path}\u0000${String(t.line).padStart(9, '0')}` });
    }
    keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
    const rows = keyed;
    const { page: kp, next_cursor } = pageAfter(keyed, (x) => x.k, args.limit, 'list_tasks', args.cursor);
    const page = kp.map((x) => x.t);
    const pending = svc.pending();
    const tasks = page.map((t) => ({
      path: t.path, title: noteTitle(t.path), line: t.line, heading_path: t.heading_path, status: t.status, status_char: t.status_char, text: t.text,
      due: t.due, scheduled: t.scheduled, start: t.start, done: t.done, cancelled: t.cancelled, created: t.created, priority: t.priority,
      recurrence: t.recurrence, tags: t.tags, fields: t.fields, parent_line: t.parent_line, block_id: t.block_id,
    }));
    const out = { total: rows.length, notes_pending: pending, notes_with_tasks: visibleWithTasks.size, tasks, next_cursor };
    const head = `${rows.length} task${rows.length === 1 ? '' : 's'} (${status === 'any' ? 'any status' : status})${pending ? `; ${pending} note${pending === 1 ? '' : 's'} not yet scanned, so this list may be incomplete` : ''}`;
    const mark = (t: (typeof tasks)[number]) => `[${t.status_char}]`;
    const text = [head, ...tasks.map((t) => `- ${mark(t)} ${t.text}${t.due ? `  (due ${t.due})` : ''}  ${t.path}:${t.line}`)].join('\n') + (next_cursor ? `\n… more with cursor="${next_cursor}"` : '');
    return { structured: out, text, meta: { index_stale: pending > 0, ...(args.wait_for_pending_writes && !settled ? { wait_timed_out: true } : {}) } };
  },
});

export const taskTools = [listTasks];
