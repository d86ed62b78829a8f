// list_tasks: tasks from the task index (built from host events; notes are not re-read per call).
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { cursorAfter, PageCollector, refuseCursor } from '../../core/cursor.js';
import { Slicer } from '../../services/slicer.js';
import { refuse } from '../../core/errors.js';
import { inFolder } from '../../core/paths.js';
import { answer, compact, cursorField, hintOut, moreHint, nextCursorOut, pathOut, waitInput } from './results.js';
import { tagMatches } from '../../core/tasks.js';
import { taskService } from '../../graph/access.js';
import type { NoteTask } from '../../core/tasks.js';

const NAMED = ['open', 'done', 'cancelled', 'in_progress', 'any'] as const;

/** Where a task is in list order: due date (none last), then path, then line. */
interface TaskPlace { path: string; due: string; line: number }
interface TaskRow extends TaskPlace { t: NoteTask }
const NO_DUE = '9999-99-99';
const byDueThenPlace = (a: TaskPlace, b: TaskPlace) =>
  a.due < b.due ? -1 : a.due > b.due ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
/** The cursor's key: sorts as byDueThenPlace does ("\u0000" is in no path; lines below a billion). */
const taskKey = (r: TaskPlace) => `${r.due}\u0000${r.path}\u0000${String(r.line).padStart(9, '0')}`;
function taskPlaceAt(key: string): TaskPlace {
  const [due, path, line, extra] = key.split('\u0000');
  if (extra !== undefined || path === undefined || !/^\d{9}$/.test(line ?? '')) refuseCursor();
  return { path, due, line: Number(line) };
}
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
    'Tasks (- [ ] checkboxes) by due date, then path and line, with Tasks-plugin dates, priority, recurrence and Dataview fields. Change one: edit_note.',
  input: z.strictObject({
    folder: folderFilter,
    status: z.string().default('open').describe('open, done, cancelled, in_progress, any, or a character'),
    due_by: z.string().optional().describe('Due by (YYYY-MM-DD)'),
    scheduled_by: z.string().optional().describe('Scheduled by'),
    tags: z.array(z.string()).optional().describe('With all these tags'),
    limit: z.number().int().min(1).max(500).default(50).describe('Rows per page'),
    cursor: pageCursor,
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    total: z.number().int().describe('Tasks matching'),
    tasks: z.array(z.object({
      path: pathOut,
      line: z.number().int().describe('Line'),
      text: z.string().describe('Text'),
      status: z.string().optional().describe('Absent: open'),
      heading_path: z.array(z.string()).optional().describe('Headings above'),
      due: z.string().optional().describe('Due date'),
      dates: z.record(z.string(), z.string()).optional().describe('scheduled, start, done…'),
      priority: z.enum(['highest', 'high', 'medium', 'low', 'lowest']).optional().describe('Priority'),
      recurrence: z.string().optional().describe('Repeats'),
      tags: z.array(z.string()).optional().describe('Tags'),
      fields: z.record(z.string(), z.string()).optional().describe('Dataview fields'),
    })).describe('Tasks'),
    next_cursor: nextCursorOut,
    hint: hintOut,
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
    const want = (t: NoteTask) => {
      if (status === 'any') { /* all */ } else if ((NAMED as readonly string[]).includes(status)) { if (t.status !== status) return false; } else if (t.status_char !== status) return false;
      if (dueBy && !(t.due && t.due <= dueBy)) return false;
      if (schedBy && !(t.scheduled && t.scheduled <= schedBy)) return false;
      if (args.tags?.length && !args.tags.every((w) => t.tags.some((x) => tagMatches(x, w)))) return false;
      return true;
    };
    // Rows are offered to the page as they are gathered, in slices; only the page is kept and sorted,
    // and no sort key string is made per row (see PageCollector).
    const pages = new PageCollector<TaskRow, TaskPlace>(args.limit, byDueThenPlace, args.cursor ? taskPlaceAt(cursorAfter(args.cursor, 'list_tasks')) : null);
    let total = 0;
    const slicer = new Slicer();
    for (const [path, noteTasks] of svc.notes()) {
      if (slicer.due()) await slicer.pause();
      if (!ctx.vault.visible(path) || !inFolder(path, folder)) continue;
      for (const t of noteTasks) if (want(t)) { total++; pages.offer({ t, path, due: t.due ?? NO_DUE, line: t.line }); }
    }
    const { page: kp, next_cursor } = pages.result(taskKey, 'list_tasks');
    const page = kp.map((x) => ({ ...x.t, path: x.path }));
    const pending = svc.pending();
    const tasks = page.map((t) => {
      const dates = compact({ scheduled: t.scheduled, start: t.start, done: t.done, cancelled: t.cancelled, created: t.created });
      return compact({
        path: t.path, line: t.line, text: t.text, status: t.status === 'open' ? undefined : t.status, heading_path: [...t.heading_path],
        due: t.due, dates: Object.keys(dates).length ? dates as Record<string, string> : undefined, priority: t.priority,
        recurrence: t.recurrence, tags: [...t.tags], fields: Object.keys(t.fields).length ? { ...t.fields } : undefined,
      });
    });
    const head = `${total} task${total === 1 ? '' : 's'} (${status === 'any' ? 'any status' : status})`;
    const text = [head, ...page.map((t) => `- [${t.status_char}] ${t.text}${t.due ? `  (due ${t.due})` : ''}  ${t.path}:${t.line}`)].join('\n');
    return {
      ...answer({ total, tasks, ...cursorField(next_cursor) }, text, [
        moreHint(tasks.length, total, next_cursor),
        pending > 0 && (args.wait_for_pending_writes && !settled
          ? `Index still building: ${pending} notes not scanned for tasks after waiting 10 s, so the list may be incomplete; call again shortly.`
          : `Index still building: ${pending} notes not scanned for tasks yet, so the list may be incomplete; pass wait_for_pending_writes=true for a complete one.`),
      ]),
      meta: { index_stale: pending > 0, ...(args.wait_for_pending_writes && !settled ? { wait_timed_out: true } : {}) },
    };
  },
});

export const taskTools = [listTasks];
