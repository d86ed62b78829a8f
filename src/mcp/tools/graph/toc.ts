// get_toc: the heading outline of a note (with read_note's section ordinals and sizes) or of every
// note in a folder.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../../tool.js';
import { normalizeFolderPath } from '../../../core/paths.js';
import { readSnapshot } from '../../../services/noteText.js';
import { sectionLabel } from '../../../core/markdown/sections.js';
import { answer, cursorField, hintOut, moreHint, nextCursorOut, pathOut } from '../results.js';
import { byPath, pageInput, pageOf } from './shared.js';

const headings = z.array(z.string()).describe('"#N Heading (h2, L13, 420 chars)": pass "#N Heading" as read_note section');

/** One outline row: the section label read_note takes, its level, line and (for one note) size. */
const row = (label: string, depth: number, line: number, size?: number) => `${label} (h${depth}, L${line}${size !== undefined ? `, ${size} chars` : ''})`;

export const getToc = defineTool({
  name: 'get_toc',
  title: 'Table of contents',
  family: 'read',
  description: 'The heading outline of a note with sizes and the sections read_note takes, or of each note in a folder.',
  input: z.strictObject({
    path: z.string().describe('Note, or folder ("" = all)'),
    max_level: z.number().int().min(1).max(6).optional().describe('Deepest level'),
    ...pageInput(200, 50, 'Notes per page'),
  }),
  output: z.object({
    path: pathOut,
    total_notes: z.number().int().describe('Notes'),
    notes: z.array(z.object({ path: pathOut, headings })).describe('Outlines'),
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
      const outline = snap.outline.filter((e) => e.depth <= maxLevel);
      const rows = outline.map((e) => row(sectionLabel(e), e.depth, lineOf.get(e.start) ?? 0, e.size));
      const body = rows.length ? [`${st.path}`, ...rows.map((h, i) => `${'  '.repeat(outline[i].depth - 1)}${h}`)].join('\n') : `${st.path} has no headings.`;
      return answer({ path: st.path, total_notes: 1, notes: [{ path: st.path, headings: rows }] }, body);
    }
    // A folder: '' is the whole vault here (not "root level only"): a TOC of top-level notes alone is rarely wanted.
    const folder = folderLike === '' ? (ctx.vault.root || undefined) : ctx.vault.folderArg(folderLike, 'path');
    const rows = ctx.vault.notes(folder).sort(byPath);
    const { page, next_cursor } = pageOf(rows, (f) => f.path, `get_toc:${folder ?? ''}`, args);
    const notes = page.map((f) => {
      const hs = (ctx.vault.metadata(f.path)?.headings ?? []).slice().sort((x, y) => x.position.start.offset - y.position.start.offset);
      return { path: f.path, headings: hs.map((h, i) => ({ h, i })).filter(({ h }) => h.level <= maxLevel).map(({ h, i }) => row(`#${i + 1} ${h.heading}`, h.level, h.position.start.line + 1)) };
    });
    const body = notes.length ? notes.map((n) => [n.path, ...n.headings.map((h) => `  ${h}`)].join('\n')).join('\n') : 'No notes in this folder.';
    return answer({ path: folder ?? '', total_notes: rows.length, notes, ...cursorField(next_cursor) }, body, [moreHint(page.length, rows.length, next_cursor)]);
  },
});
