// read_note and list_notes: the two calls an agent makes most after a search.
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { readSnapshot } from '../../services/noteText.js';
import { resolveSection } from '../../core/markdown/sections.js';
import { noteTitle } from '../../core/paths.js';
import { pageAfter, newestFirstKey } from '../../core/cursor.js';
import { isoUtc, parseTime } from '../../core/time.js';
import { refuse } from '../../core/errors.js';
import { noteTags } from '../../core/markdown/frontmatter.js';

const outlineRow = z.object({
  ordinal: z.string().describe('Pass as read_note(section=…) to read just this section'),
  depth: z.number().int(),
  text: z.string(),
  size: z.number().int().describe('Characters in the section, heading line included'),
  exceeds_cap: z.boolean().describe('True when the section alone is larger than one read returns'),
});

export const readNote = defineTool({
  name: 'read_note',
  title: 'Read a note',
  family: 'read',
  description: (deps) =>
    `Read one markdown note: its body, frontmatter (JSON view and authoritative YAML), tags, aliases and content_hash. ` +
    `Use section= to read one part of a long note (exact heading text, a "Parent/Child" path, or the "#N" ordinal from an outline or search result; a bare "#N" is always the ordinal). ` +
    `Reads return at most ${deps.settings().readCapChars} characters; a truncated read says so, gives next_offset to continue with offset=, and for whole-note reads an outline of sections to pick from. ` +
    `Keep content_hash: pass it as expected_hash to edit_note/delete_note so an edit made from a stale read is refused. ` +
    `For attachments and non-markdown files use read_file; to find a note first use keyword_search or list_notes.`,
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path, e.g. "Projects/Plan.md"; ".md" may be omitted'),
    section: z.string().optional().describe('Heading text, "Parent/Child" heading path, or "#N" ordinal; omit for the whole note'),
    offset: z.number().int().min(0).default(0).describe('Character offset into the body (or section) to start from; use next_offset of a truncated read'),
    limit: z.number().int().min(1).optional().describe('Return at most this many characters (can only lower the server cap)'),
  }),
  output: z.object({
    path: z.string(),
    title: z.string(),
    tags: z.array(z.string()).describe('Frontmatter and inline tags, with "#"'),
    aliases: z.array(z.string()),
    frontmatter: z.record(z.string(), z.unknown()).nullable().describe('JSON view of the frontmatter; null when there is none or it cannot be said in JSON'),
    frontmatter_note: z.string().optional().describe('Why frontmatter is null although the note has a block'),
    frontmatter_yaml: z.string().describe('The frontmatter YAML as written (LF line endings); "" when none'),
    heading: z.string().optional().describe('Heading text of the section read'),
    section: z.string().optional().describe('Ordinal of the section read'),
    content: z.string().describe('The body (without the frontmatter block) or the section body'),
    content_hash: z.string().describe('sha256 of the whole raw file; pass as expected_hash when editing'),
    modified: z.string().describe('Last modification time, ISO 8601 UTC'),
    truncated: z.boolean(),
    offset: z.number().int(),
    next_offset: z.number().int().nullable(),
    total_chars: z.number().int().describe('Characters in the whole body (or section)'),
    outline: z.array(outlineRow).optional().describe('Sections of the note, given when a whole-note read is truncated'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const stat = ctx.vault.requireNote(args.path);
    const snap = await readSnapshot(ctx.vault, stat);
    const cap = Math.min(args.limit ?? Infinity, ctx.deps.settings().readCapChars);
    let whole = snap.split.body;
    let heading: string | undefined;
    let section: string | undefined;
    if (args.section !== undefined) {
      if (args.section.trim() === '') refuse('invalid_argument', 'section is empty; omit it to read the whole note, or give a heading text or "#N" ordinal.');
      const entry = resolveSection(snap.outline, args.section, stat.path);
      whole = snap.text.slice(entry.bodyStart, entry.end);
      heading = entry.text;
      section = entry.ordinal;
    }
    const total = whole.length;
    if (args.offset > total) refuse('invalid_argument', `offset ${args.offset} is past the end (${total} characters); use an offset below ${total}, or 0 to start over.`, { total_chars: total });
    let end = Math.min(total, args.offset + cap);
    // Never split a surrogate pair at the cut.
    if (end < total && /[\uD800-\uDBFF]/.test(whole[end - 1] ?? '')) end -= 1;
    const content = whole.slice(args.offset, end);
    const truncated = end < total;
    const out = {
      path: stat.path,
      title: noteTitle(stat.path),
      tags: snap.tags,
      aliases: snap.aliases,
      frontmatter: snap.frontmatter,
      ...(snap.frontmatterIssue ? { frontmatter_note: snap.frontmatterIssue } : {}),
      frontmatter_yaml: snap.split.yaml.replace(/\r\n/g, '\n'),
      ...(heading !== undefined ? { heading, section } : {}),
      content,
      content_hash: snap.hash,
      modified: isoUtc(stat.mtime),
      truncated,
      offset: args.offset,
      next_offset: truncated ? end : null,
      total_chars: total,
      ...(truncated && args.section === undefined
        ? { outline: snap.outline.map((e) => ({ ordinal: e.ordinal, depth: e.depth, text: e.text, size: e.size, exceeds_cap: e.size > cap })) }
        : {}),
    };
    const head = [`# ${out.title}${heading ? ` › ${heading} (${section})` : ''}`, `path: ${out.path}`, `content_hash: ${out.content_hash}`];
    if (out.tags.length) head.push(`tags: ${out.tags.join(' ')}`);
    if (out.frontmatter_yaml) head.push(`frontmatter:\n${out.frontmatter_yaml.trimEnd()}`);
    const tail = truncated ? `\n\n[truncated: ${end - args.offset} of ${total} characters shown; continue with offset=${end}${out.outline ? ' or read one section from the outline in structuredContent' : ''}]` : '';
    return { structured: out, text: `${head.join('\n')}\n---\n${content}${tail}` };
  },
});

const SORTS = ['modified', 'created', 'path'] as const;

export const listNotes = defineTool({
  name: 'list_notes',
  title: 'List notes',
  family: 'read',
  description:
    'List notes in the vault or a folder, newest first by default, with title, size, times and tags; filter by modification time with since/until. ' +
    'Use it to browse or to see what changed lately; to find notes by content use keyword_search, for folders use list_folders, for attachments list_files. ' +
    'Results are paged: pass next_cursor as cursor for the next page.',
  input: z.strictObject({
    folder: folderFilter,
    limit: z.number().int().min(1).max(500).default(50).describe('Rows per page (max 500)'),
    cursor: pageCursor,
    since: z.string().optional().describe('Only notes modified at or after this time (ISO 8601)'),
    until: z.string().optional().describe('Only notes modified before this time (ISO 8601)'),
    order_by: z.enum(SORTS).default('modified').describe('"modified" (newest first, default), "created" (newest first) or "path" (A→Z)'),
  }),
  output: z.object({
    folder: z.string().nullable(),
    total: z.number().int().describe('Notes matching the filters, across all pages'),
    notes: z.array(z.object({ path: z.string(), title: z.string(), size: z.number().int(), modified: z.string(), created: z.string(), tags: z.array(z.string()) })),
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const folder = ctx.vault.folderArg(args.folder);
    const since = args.since !== undefined ? parseTime(args.since, 'since') : -Infinity;
    const until = args.until !== undefined ? parseTime(args.until, 'until') : Infinity;
    const rows = ctx.vault.notes(folder).filter((f) => f.mtime >= since && f.mtime < until);
    const keyOf = args.order_by === 'path'
      ? (f: (typeof rows)[number]) => f.path
      : (f: (typeof rows)[number]) => newestFirstKey(args.order_by === 'created' ? f.ctime : f.mtime, f.path);
    rows.sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
    const { page, next_cursor } = pageAfter(rows, keyOf, args.limit, `list_notes:${args.order_by}`, args.cursor);
    const notes = page.map((f) => {
      const m = ctx.vault.metadata(f.path);
      return { path: f.path, title: noteTitle(f.path), size: f.size, modified: isoUtc(f.mtime), created: isoUtc(f.ctime), tags: m ? noteTags(m.frontmatter, m.tags) : [] };
    });
    const text = notes.length
      ? notes.map((n) => `${n.modified.slice(0, 16).replace('T', ' ')}  ${n.path}${n.tags.length ? '  ' + n.tags.join(' ') : ''}`).join('\n') + (next_cursor ? `\n… ${rows.length} in all; more with cursor="${next_cursor}"` : '')
      : 'No notes match.';
    return { structured: { folder: folder ?? null, total: rows.length, notes, next_cursor }, text };
  },
});

export const noteReadTools = [readNote, listNotes];
