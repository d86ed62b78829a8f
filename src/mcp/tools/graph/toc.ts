// get_toc: the heading outline of a note (with read_note's section ordinals and sizes) or of every
// note in a folder.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../tool.js';
import { normalizeFolderPath } from '../../../core/paths.js';
import { readSnapshot } from '../../../services/noteText.js';
import { answer, cursorField, hintOut, moreHint, nextCursorOut, pathOut } from '../results.js';
import { byPath, pageInput, pageOf } from './shared.js';

const heading = z.object({
  ordinal: z.string().describe('Pass as read_note(section=…)'),
  depth: z.number().int().describe('Heading level 1–6'),
  text: z.string().describe('Heading text'),
  line: z.number().int().describe('1-based line'),
  size: z.number().int().optional().describe('Characters of the section (one note)'),
});

export const getToc = defineTool({
  name: 'get_toc',
  title: 'Table of contents',
  family: 'read',
  description: 'The heading outline of a note, with the #N ordinals read_note(section=…) takes and each section\'s size; or the outlines of a folder\'s notes (paged).',
  input: z.strictObject({
    path: z.string().describe('Note path or name, or a folder ("" = whole vault)'),
    max_level: z.number().int().min(1).max(6).optional().describe('Only headings up to this level'),
    ...pageInput(200, 50, 'Notes per page (folder)'),
  }),
  output: z.object({
    path: pathOut,
    headings: z.array(heading).optional().describe('The note\'s outline'),
    total_notes: z.number().int().optional().describe('Notes in the folder'),
    notes: z.array(z.object({ path: pathOut, headings: z.array(heading) })).optional().describe('Folder: each note\'s outline'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const maxLevel = args.max_level ?? 6;
    const folderLike = normalizeFolderPath(args.path, 'path');
    const isFolder = folderLike === '' || (ctx.vault.isFolder(folderLike) && !ctx.vault.stat(folderLike) && !ctx.vault.stat(`${folderLike}.md`));
    if (!isFolder) {
      const st = ctx.vault.requireNote(args.path);
      const snap = await readSnapshot(ctx.vault, st);
      const lineOf = new Map((snap.meta.headings ?? []).map((h) => [h.position.start.offset, h.position.start.line + 1]));
      const headings = snap.outline.filter((e) => e.depth <= maxLevel).map((e) => ({ ordinal: e.ordinal, depth: e.depth, text: e.text, line: lineOf.get(e.start) ?? 0, size: e.size }));
      const body = headings.length ? [`${st.path}`, ...headings.map((h) => `${'  '.repeat(h.depth - 1)}${h.ordinal} ${h.text}  (${h.size} chars)`)].join('\n') : `${st.path} has no headings.`;
      return answer({ path: st.path, headings }, body);
    }
    // A folder: '' is the whole vault here (not "root level only"): a TOC of top-level notes alone is rarely wanted.
    const folder = folderLike === '' ? (ctx.vault.root || undefined) : ctx.vault.folderArg(folderLike, 'path');
    const rows = ctx.vault.notes(folder).sort(byPath);
    const { page, next_cursor } = pageOf(rows, (f) => f.path, `get_toc:${folder ?? ''}`, args);
    const notes = page.map((f) => {
      const hs = (ctx.vault.metadata(f.path)?.headings ?? []).slice().sort((x, y) => x.position.start.offset - y.position.start.offset);
      return { path: f.path, headings: hs.map((h, i) => ({ ordinal: `#${i + 1}`, depth: h.level, text: h.heading, line: h.position.start.line + 1 })).filter((h) => h.depth <= maxLevel) };
    });
    const body = notes.length ? notes.map((n) => [n.path, ...n.headings.map((h) => `${'  '.repeat(h.depth)}${h.ordinal} ${h.text}`)].join('\n')).join('\n') : 'No notes in this folder.';
    return answer({ path: folder ?? '', total_notes: rows.length, notes, ...cursorField(next_cursor) }, body, [moreHint(page.length, rows.length, next_cursor)]);
  },
});
