// Tasks from markdown, the way the Tasks plugin and Dataview read them. Pure: the caller hands in the
// note text and the metadata (listItems with a task character, headings); nothing here touches a vault.
//
// Status: ' ' open, 'x'/'X' done, '-' cancelled, '/' in progress; any other character is reported as
// is (status = the character). Tasks-plugin signifiers may sit anywhere after the checkbox (the plugin
// itself wants them at the end; being lenient loses nothing): 📅 due, ⏳ scheduled, 🛫 start, ✅ done,
// ❌ cancelled, ➕ created (each followed by YYYY-MM-DD), priorities 🔺 ⏫ 🔼 🔽 ⏬, 🔁 recurrence (the
// text up to the next signifier), 🆔 id, ⛔ depends on. Dataview inline fields `[key:: value]` and
// `(key:: value)`: due, scheduled, start, completion, cancelled, created, priority, repeat map onto the
// same fields; every inline field is also returned in `fields`. A trailing `^block-id` is dropped from
// the text and returned as `block_id`.
import type { HeadingCache, NoteMetadata } from './markdown/metadata.js';

export type TaskStatus = 'open' | 'done' | 'cancelled' | 'in_progress' | (string & {});
export type TaskPriority = 'highest' | 'high' | 'medium' | 'low' | 'lowest';

export interface ParsedTask {
  status: TaskStatus;
  status_char: string;
  /** The description: signifiers, inline fields and the block id removed, whitespace collapsed; tags kept. */
  text: string;
  due: string | null;
  scheduled: string | null;
  start: string | null;
  done: string | null;
  cancelled: string | null;
  created: string | null;
  priority: TaskPriority | null;
  recurrence: string | null;
  id: string | null;
  depends_on: readonly string[];
  tags: readonly string[];
  /** Every Dataview inline field, key lower-cased, as written. */
  fields: Readonly<Record<string, string>>;
  block_id: string | null;
}

export interface NoteTask extends ParsedTask {
  /** 1-based line number in the note. */
  line: number;
  /** Heading texts from the top-level ancestor down to the task's section; [] before any heading. */
  heading_path: readonly string[];
  /** 1-based line of the parent task when the task is nested under another task, else null. */
  parent_line: number | null;
}

export function statusOf(ch: string): TaskStatus {
  if (ch === ' ') return 'open';
  if (ch === 'x' || ch === 'X') return 'done';
  if (ch === '-') return 'cancelled';
  if (ch === '/') return 'in_progress';
  return ch;
}

const VS = '\\uFE0F?'; // emoji variation selector, often typed after the symbol
const DATE = '(\\d{4}-\\d{2}-\\d{2})';
const DATE_SIGNS: [keyof ParsedTask, string][] = [
  ['due', '(?:\\u{1F4C5}|\\u{1F4C6}|\\u{1F5D3})'], // 📅 📆 🗓
  ['scheduled', '(?:\\u23F3|\\u231B)'], // ⏳ ⌛
  ['start', '\\u{1F6EB}'], // 🛫
  ['done', '\\u2705'], // ✅
  ['cancelled', '\\u274C'], // ❌
  ['created', '\\u2795'], // ➕
];
const PRIORITIES: [TaskPriority, string][] = [
  ['highest', '\\u{1F53A}'], // 🔺
  ['high', '\\u23EB'], // ⏫
  ['medium', '\\u{1F53C}'], // 🔼
  ['low', '\\u{1F53D}'], // 🔽
  ['lowest', '\\u23EC'], // ⏬
];
const RECUR = '\\u{1F501}'; // 🔁
const ID = '\\u{1F194}'; // 🆔
const DEPENDS = '\\u26D4'; // ⛔
/** Any signifier: where a recurrence text stops. */
const ANY_SIGN = new RegExp(`(?:${[...DATE_SIGNS.map((d) => d[1]), ...PRIORITIES.map((p) => p[1]), RECUR, ID, DEPENDS].join('|')})`, 'u');

const DATAVIEW_MAP: Record<string, keyof ParsedTask> = {
  due: 'due', scheduled: 'scheduled', start: 'start', completion: 'done', done: 'done', cancelled: 'cancelled', created: 'created',
  priority: 'priority', repeat: 'recurrence', recurrence: 'recurrence', id: 'id', dependson: 'depends_on',
};

const TASK_LINE = /^[ \t]*(?:>[ \t]?)*[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[(.)\](?:[ \t]+|$)/u;
const TAG = /(^|[\s([{,;:!?"'])#([\p{L}\p{N}\p{M}_\-/]+)/gu;

function validDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = new Date(Date.UTC(Number(m[1]), mo, 0)).getUTCDate();
  return d <= days;
}

function priorityWord(v: string): TaskPriority | null {
  const w = v.trim().toLowerCase();
  return (['highest', 'high', 'medium', 'low', 'lowest'] as const).find((p) => p === w) ?? null;
}

/** The checkbox character of a list-item line, or null when the line is not a task. */
export function taskCharOf(line: string): string | null {
  const m = TASK_LINE.exec(line);
  return m ? m[1] : null;
}

// A task index holds every task of the vault (at 100k notes, 100k tasks kept for the app's life): an
// empty list or field set is this one frozen object, not one of its own per task, and tasks under the
// same headings share one heading path (a third of the objects a task kept, each copied by collections).
const NO_STRINGS: readonly string[] = Object.freeze([]);
const NO_FIELDS: Readonly<Record<string, string>> = Object.freeze({});

/** Parses one task line (`- [ ] …`, any list marker, inside a quote or callout too); null when it is not a task. */
export function parseTaskLine(line: string): ParsedTask | null {
  const m = TASK_LINE.exec(line);
  if (!m) return null;
  const ch = m[1];
  let rest = line.slice(m[0].length);
  const out: ParsedTask = {
    status: statusOf(ch), status_char: ch, text: '', due: null, scheduled: null, start: null, done: null, cancelled: null,
    created: null, priority: null, recurrence: null, id: null, depends_on: NO_STRINGS, tags: NO_STRINGS, fields: NO_FIELDS, block_id: null,
  };
  let fields: Record<string, string> | null = null;
  const bid = /(?:^|\s)\^([A-Za-z0-9-]+)\s*$/.exec(rest);
  if (bid) { out.block_id = bid[1]; rest = rest.slice(0, bid.index); }

  // Dataview inline fields: [key:: value] and (key:: value).
  rest = rest.replace(/\[([^[\]():]+?)::[ \t]*([^\]]*?)[ \t]*\]|\(([^[\]():]+?)::[ \t]*([^)]*?)[ \t]*\)/g, (all, k1, v1, k2, v2) => {
    const key = String(k1 ?? k2).trim().toLowerCase();
    const value = String(v1 ?? v2).trim();
    fields ??= out.fields = {};
    fields[key] = value;
    const target = DATAVIEW_MAP[key.replace(/[\s_-]/g, '')];
    if (target === 'priority') out.priority ??= priorityWord(value);
    else if (target === 'recurrence' || target === 'id') (out[target]) ??= value || null;
    else if (target === 'depends_on') { if (!out.depends_on.length) out.depends_on = value.split(',').map((s) => s.trim()).filter(Boolean); }
    else if (target) {
      const d = value.slice(0, 10);
      if (validDate(d) && (out[target] as string | null) === null) (out as unknown as Record<string, unknown>)[target] = d;
    }
    return ' ';
  });

  for (const [field, sign] of DATE_SIGNS) {
    rest = rest.replace(new RegExp(`${sign}${VS}[ \\t]*${DATE}`, 'gu'), (all, d: string) => {
      if (!validDate(d)) return all;
      if ((out as unknown as Record<string, unknown>)[field] === null) (out as unknown as Record<string, unknown>)[field] = d;
      return ' ';
    });
  }
  for (const [p, sign] of PRIORITIES) {
    rest = rest.replace(new RegExp(`${sign}${VS}`, 'gu'), () => { out.priority ??= p; return ' '; });
  }
  rest = rest.replace(new RegExp(`${ID}${VS}[ \\t]*([A-Za-z0-9_-]+)`, 'gu'), (_a, id: string) => { out.id ??= id; return ' '; });
  rest = rest.replace(new RegExp(`${DEPENDS}${VS}[ \\t]*([A-Za-z0-9_-]+(?:[ \\t]*,[ \\t]*[A-Za-z0-9_-]+)*)`, 'gu'), (_a, ids: string) => {
    if (!out.depends_on.length) out.depends_on = ids.split(',').map((s) => s.trim()).filter(Boolean);
    return ' ';
  });
  const r = new RegExp(`${RECUR}${VS}`, 'u').exec(rest);
  if (r) {
    const after = rest.slice(r.index + r[0].length);
    const stop = ANY_SIGN.exec(after);
    const text = (stop ? after.slice(0, stop.index) : after).trim();
    out.recurrence ??= text || null;
    rest = rest.slice(0, r.index) + ' ' + (stop ? after.slice(stop.index) : '');
  }

  const text = rest.replace(/\s+/g, ' ').trim();
  out.text = text;
  const tags: string[] = [];
  for (const t of text.matchAll(TAG)) {
    const body = t[2].replace(/\/+$/, '');
    if (!body || /^[\d/]+$/.test(body) || body.startsWith('/')) continue;
    const tag = `#${body}`;
    if (!tags.some((x) => x.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  }
  if (tags.length) out.tags = tags;
  return out;
}

/** The heading path at `line`; tasks after the same headings get the same array (`paths`, by how many headings precede the line). */
function headingPathAt(headings: HeadingCache[], line: number, paths: Map<number, readonly string[]>): readonly string[] {
  let above = 0;
  while (above < headings.length && headings[above].position.start.line <= line) above++;
  let path = paths.get(above);
  if (path) return path;
  const stack: HeadingCache[] = [];
  for (let i = 0; i < above; i++) {
    const h = headings[i];
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
  }
  path = stack.length ? stack.map((h) => h.heading) : NO_STRINGS;
  paths.set(above, path);
  return path;
}

/**
 * A NoteTask with every field named: `{ ...parsed, line, … }` gave each task a hidden class of its own in
 * Node 20's V8 (a map and a descriptor array per task, kept as long as the task list). Chromium 150's V8
 * shares them; the headless server may run on Node 20 (test/plugin/hidden-classes.test.ts).
 */
function noteTask(p: ParsedTask, line: number, heading_path: readonly string[], parent_line: number | null): NoteTask {
  return {
    status: p.status, status_char: p.status_char, text: p.text, due: p.due, scheduled: p.scheduled, start: p.start, done: p.done,
    cancelled: p.cancelled, created: p.created, priority: p.priority, recurrence: p.recurrence, id: p.id, depends_on: p.depends_on,
    tags: p.tags, fields: p.fields, block_id: p.block_id, line, heading_path, parent_line,
  };
}

/** Splits text into lines without their line breaks (LF or CRLF). */
export function textLines(text: string): string[] {
  return text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * Every task of a note: list items whose metadata carries a task character, read from the note's text
 * lines. Items whose line no longer looks like a task (text newer than the metadata) are skipped.
 */
export function tasksOfNote(text: string, meta: NoteMetadata): NoteTask[] {
  const items = meta.listItems?.filter((i) => i.task !== undefined) ?? [];
  if (!items.length) return [];
  const lines = textLines(text);
  const headings = (meta.headings ?? []).slice().sort((a, b) => a.position.start.line - b.position.start.line);
  const taskLines = new Set(items.map((i) => i.position.start.line));
  const out: NoteTask[] = [];
  const paths = new Map<number, readonly string[]>();
  for (const item of items) {
    const n = item.position.start.line;
    const parsed = parseTaskLine(lines[n] ?? '');
    if (!parsed) continue;
    out.push(noteTask(parsed, n + 1, headingPathAt(headings, n, paths), item.parent >= 0 && taskLines.has(item.parent) ? item.parent + 1 : null));
  }
  return out.sort((a, b) => a.line - b.line);
}

/** Does `tag` (with '#') match the filter tag `want` ("a" matches "#a" and "#a/b"), case-insensitively? */
export function tagMatches(tag: string, want: string): boolean {
  const t = tag.toLowerCase().replace(/^#/, '');
  const w = want.toLowerCase().replace(/^#/, '').replace(/\/+$/, '');
  return t === w || t.startsWith(w + '/');
}
