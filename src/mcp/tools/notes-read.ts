// read_note and list_notes: the two calls an agent makes most after a search. read_note aims: the
// lines that hold a match (with context and their section), a line range, a section, or pages that
// end on line boundaries.
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { readSnapshot, type NoteSnapshot } from '../../services/noteText.js';
import { resolveSection, sectionAt, sectionLabel, type OutlineEntry } from '../../core/markdown/sections.js';
import { pageAfter, newestFirstKey } from '../../core/cursor.js';
import { isoUtc, parseTime } from '../../core/time.js';
import { refuse } from '../../core/errors.js';
import { noteTags } from '../../core/markdown/frontmatter.js';
import { lineAt, lineCount, lineEnd, lineStarts, linesText, matchBlocks, pageEnd, parseLineRange } from '../../core/readSlices.js';
import { answer, cursorField, hintOut, moreHint, nextCursorOut, pathOut } from './results.js';

const MAX_BLOCKS = 50;

/** The innermost section holding `offset`, as {section, heading}; none before the first heading. */
function sectionFields(outline: OutlineEntry[], offset: number): { section?: string } {
  const hit = sectionAt(outline, offset);
  return hit ? { section: sectionLabel(hit) } : {};
}

/** Frontmatter, tags and aliases, each only when it has something (whole-note reads from the start). */
function noteHead(snap: NoteSnapshot) {
  const fm = snap.frontmatter && Object.keys(snap.frontmatter).length ? { frontmatter: snap.frontmatter } : {};
  const issue = snap.frontmatterIssue && snap.split.yaml ? { frontmatter_yaml: snap.split.yaml.replace(/\r\n/g, '\n') } : {};
  return { ...fm, ...issue, ...(snap.tags.length ? { tags: snap.tags } : {}) };
}

export const readNote = defineTool({
  name: 'read_note',
  title: 'Read a note',
  family: 'read',
  description: (deps) =>
    'Read a note: body, frontmatter, tags, content_hash (pass as expected_hash to edit). Aim: match= gives the lines holding a text with context and their section; lines="410-445" a line range; section= one part. ' +
    `At most ${deps.settings().readCapChars} characters; a cut read ends on a line and gives next_offset and the outline.`,
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    match: z.string().optional().describe('Only lines containing this (any case)'),
    context: z.number().int().min(0).max(20).default(2).describe('Lines around each match'),
    lines: z.string().optional().describe('e.g. "410-445" or "410-"'),
    section: z.string().optional().describe('Heading, "Parent/Child" or "#N"'),
    offset: z.number().int().min(0).default(0).describe('Start character (next_offset)'),
    limit: z.number().int().min(1).optional().describe('Max characters'),
  }),
  output: z.object({
    path: pathOut,
    content_hash: z.string().describe('Pass as expected_hash'),
    frontmatter: z.record(z.string(), z.unknown()).optional().describe('Properties'),
    frontmatter_yaml: z.string().optional().describe('Raw block, when not JSON'),
    tags: z.array(z.string()).optional().describe('Tags'),
    section: z.string().optional().describe('Section read'),
    content: z.string().optional().describe('Text read'),
    lines: z.string().optional().describe('Its file lines, "a-b of n"'),
    next_offset: z.number().int().optional().describe('Cut: offset to go on'),
    matches: z.array(z.object({
      lines: z.string().describe('File lines'),
      section: z.string().optional().describe('Its section'),
      text: z.string().describe('Those lines'),
    })).optional().describe('Matching lines'),
    total_matches: z.number().int().optional().describe('Lines matching'),
    outline: z.array(z.string()).optional().describe('Cut reads: "#N Heading (L13, 420 chars)"; pass "#N Heading" as section'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    if (args.lines !== undefined && args.section !== undefined) refuse('invalid_argument', 'Pass lines or section, not both: lines count over the whole file.');
    if (args.offset > 0 && (args.match !== undefined || args.lines !== undefined)) refuse('invalid_argument', 'offset pages the body or a section; with match or lines, narrow with lines="a-b" instead.');
    if (args.match === '') refuse('invalid_argument', 'match is empty; give the text to look for, or omit it.');
    if (args.section !== undefined && args.section.trim() === '') refuse('invalid_argument', 'section is empty; omit it to read the whole note, or give a heading text or "#N" ordinal.');
    const stat = ctx.vault.requireNote(args.path);
    const snap = await readSnapshot(ctx.vault, stat);
    const cap = Math.min(args.limit ?? Infinity, ctx.deps.settings().readCapChars);
    const text = snap.text;
    const starts = lineStarts(text);
    const totalLines = lineCount(text, starts);
    const entry = args.section !== undefined ? resolveSection(snap.outline, args.section, stat.path) : null;
    const base = { path: stat.path, content_hash: snap.hash, ...(entry ? { section: sectionLabel(entry) } : {}) };
    const title = `# ${stat.path}${entry ? ` › ${entry.text} (${entry.ordinal})` : ''}\ncontent_hash: ${snap.hash}`;

    if (args.match !== undefined) {
      const [from, to] = args.lines !== undefined ? parseLineRange(args.lines, totalLines)
        : entry ? [lineAt(starts, entry.start), lineAt(starts, Math.max(entry.start, entry.end - 1))] : [1, totalLines];
      const { blocks, matches } = matchBlocks(text, starts, args.match, args.context, from, to);
      const rows = [];
      let used = 0, shownHits = 0;
      for (const b of blocks) {
        const t = linesText(text, starts, b.first, b.last);
        if (rows.length && (used + t.length > cap || rows.length >= MAX_BLOCKS)) break;
        rows.push({ lines: `${b.first}-${b.last}`, ...sectionFields(snap.outline, b.hitOffset), text: t.length > cap ? t.slice(0, pageEnd(t, 0, cap)) : t });
        used += t.length;
        shownHits += b.hits.length;
      }
      const next = blocks[rows.length];
      const hint = next ? `${shownHits} of ${matches} matching lines shown; for the rest pass lines="${next.first}-${to}" with the same match.` : null;
      const body = rows.length ? rows.map((r) => `--- lines ${r.lines}${r.section ? ` (${r.section})` : ''}\n${r.text}`).join('\n') : `No line${entry || args.lines ? ' in that part' : ''} contains "${args.match}".`;
      return answer({ ...base, total_matches: matches, matches: rows }, `${title}\n${body}`, [hint]);
    }

    if (args.lines !== undefined) {
      const [first, last] = parseLineRange(args.lines, totalLines);
      const limitEnd = starts[first - 1] + cap;
      let upto = last;
      while (upto > first && lineEnd(text, starts, upto) > limitEnd) upto--;
      let content = linesText(text, starts, first, upto);
      let hint: string | null = upto < last ? `Lines ${first}-${upto} of ${first}-${last} fit the read cap; go on with lines="${upto + 1}-${last}".` : null;
      if (content.length > cap) {
        content = content.slice(0, pageEnd(content, 0, cap));
        hint = `Line ${first} is longer than the read cap (${cap} characters) and was cut; read it with offset paging.`;
      }
      return answer({ ...base, lines: `${first}-${upto} of ${totalLines}`, content }, `${title}\n--- lines ${first}-${upto}\n${content}`, [hint]);
    }

    const from = entry ? entry.bodyStart : snap.split.bodyStart;
    const whole = entry ? text.slice(entry.bodyStart, entry.end) : snap.split.body;
    const total = whole.length;
    if (args.offset > total) refuse('invalid_argument', `offset ${args.offset} is past the end (${total} characters); use an offset below ${total}, or 0 to start over.`, { total_chars: total });
    const end = pageEnd(whole, args.offset, cap);
    const content = whole.slice(args.offset, end);
    const cut = end < total;
    const lines = content ? `${lineAt(starts, from + args.offset)}-${lineAt(starts, from + end - 1)}` : undefined;
    const outline = cut && !entry ? snap.outline.map((e) => `${sectionLabel(e)} (L${lineAt(starts, e.start)}, ${e.size} chars)`) : undefined;
    const out = {
      ...base,
      ...(args.offset === 0 && !entry ? noteHead(snap) : {}),
      content,
      ...(lines ? { lines: `${lines} of ${totalLines}` } : {}),
      ...(cut ? { next_offset: end } : {}),
      ...(outline?.length ? { outline } : {}),
    };
    const head = [title];
    if (snap.tags.length && args.offset === 0 && !entry) head.push(`tags: ${snap.tags.join(' ')}`);
    if (snap.split.yaml && args.offset === 0 && !entry) head.push(`frontmatter:\n${snap.split.yaml.replace(/\r\n/g, '\n').trimEnd()}`);
    const hint = cut ? `Cut at character ${end} of ${total} (line ${lineAt(starts, from + end - 1)}): go on with offset=${end}${outline?.length ? ', or read one section from outline' : ''}, or aim with match= or lines=.` : null;
    return answer(out, `${head.join('\n')}\n---\n${content}`, [args.offset === 0 && !entry && snap.frontmatterIssue, hint]);
  },
});

const SORTS = ['modified', 'created', 'path'] as const;

export const listNotes = defineTool({
  name: 'list_notes',
  title: 'List notes',
  family: 'read',
  description: 'List notes in the vault or a folder, newest first by default, with size, time and tags. By content: keyword_search.',
  input: z.strictObject({
    folder: folderFilter,
    limit: z.number().int().min(1).max(500).default(50).describe('Rows per page'),
    cursor: pageCursor,
    since: z.string().optional().describe('Modified since (ISO 8601)'),
    until: z.string().optional().describe('Modified before'),
    order_by: z.enum(SORTS).default('modified').describe('Sort'),
  }),
  output: z.object({
    total: z.number().int().describe('Notes matching'),
    notes: z.array(z.object({
      path: pathOut,
      size: z.number().int().describe('Bytes'),
      modified: z.string().describe('ISO 8601 UTC'),
      created: z.string().optional().describe('ISO 8601 UTC'),
      tags: z.array(z.string()).optional().describe('Tags'),
    })).describe('Notes'),
    next_cursor: nextCursorOut,
    hint: hintOut,
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
      const tags = m ? noteTags(m.frontmatter, m.tags) : [];
      return { path: f.path, size: f.size, modified: isoUtc(f.mtime), ...(args.order_by === 'created' ? { created: isoUtc(f.ctime) } : {}), ...(tags.length ? { tags } : {}) };
    });
    const body = notes.length ? notes.map((n) => `${n.modified.slice(0, 16).replace('T', ' ')}  ${n.path}${n.tags ? '  ' + n.tags.join(' ') : ''}`).join('\n') : 'No notes match.';
    return answer({ total: rows.length, notes, ...cursorField(next_cursor) }, body, [moreHint(notes.length, rows.length, next_cursor)]);
  },
});

export const noteReadTools = [readNote, listNotes];
