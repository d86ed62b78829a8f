// Links of one note and across the vault: get_backlinks (grouped by linking note, a few lines each),
// get_links (outgoing) and get_broken_links (dangling, grouped by the note that holds them).
import { z } from 'zod';
import { folderFilter } from '../args.js';
import { defineTool, READ_ONLY } from '../../tool.js';
import { freshness, requireTarget, viewOf, type View } from '../../../graph/access.js';
import type { LinkRef } from '../../../graph/service.js';
import { answer, cursorField, hintOut, hostStaleness, moreHint, nextCursorOut, pathOut, waitInput } from '../results.js';
import { byPath, kindField, lineAround, linesOf, linkKindOut, pad, pageInput, pageOf } from './shared.js';

const lineOut = z.number().int().optional().describe('Line');
const propertyOut = z.string().optional().describe('Frontmatter key');

export const getBacklinks = defineTool({
  name: 'get_backlinks',
  title: 'Backlinks of a note',
  family: 'graph',
  description: 'Notes linking to a note or file, most links first, with their first linking lines; max_links_per_note=0: counts only.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    max_links_per_note: z.number().int().min(0).max(50).default(2).describe('Lines per note; 0 = counts'),
    ...pageInput(200, 20, 'Notes per page'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    path: pathOut,
    total_notes: z.number().int().describe('Linking notes'),
    backlinks: z.array(z.object({
      path: pathOut,
      count: z.number().int().describe('Its links'),
      links: z.array(z.string()).optional().describe('First ones: "L12: line text" or "[property] link"'),
    })).describe('Most links first'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = requireTarget(ctx, args.path);
    const view = viewOf(ctx);
    const sources = view.backlinks(st.path).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const { page, next_cursor } = pageOf(sources, (s) => `${pad(1e9 - s[1])}\u0000${s[0]}`, `get_backlinks:${st.path}`, args);
    const backlinks = [];
    for (const [src, count] of page) {
      if (args.max_links_per_note === 0) { backlinks.push({ path: src, count }); continue; }
      const refs = refsTo(view, src, st.path, count).slice(0, args.max_links_per_note);
      const lines = refs.some((r) => r.line !== null) ? await linesOf(ctx, src) : [];
      backlinks.push({ path: src, count, links: refs.map((r) => (r.line === null ? `[${r.key ?? ''}] ${r.link}` : `L${r.line}: ${lineAround(lines, r)}`)) });
    }
    const total_links = sources.reduce((a, s) => a + s[1], 0);
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const capped = args.max_links_per_note > 0 && page.some(([, c]) => c > args.max_links_per_note);
    const body = backlinks.length
      ? [`${sources.length} note${sources.length === 1 ? '' : 's'} link to ${st.path} (${total_links} links)`, ...backlinks.flatMap((b) => [`- ${b.path} (${b.count})`, ...(b.links ?? []).map((l) => `    ${l}`)])].join('\n')
      : `No note links to ${st.path}.`;
    return {
      ...answer({ path: st.path, total_notes: sources.length, backlinks, ...cursorField(next_cursor) }, body, [
        moreHint(page.length, sources.length, next_cursor),
        capped && `Lines shown per note are capped at ${args.max_links_per_note} (max_links_per_note).`,
        stale.hint,
      ]),
      meta,
    };
  },
});

/**
 * The links of `src` that lead to `target`. Only links named like the target are resolved; should the
 * host resolve some other way (fewer found than the `count` its graph holds), every link of the note is.
 */
export function refsTo(view: Pick<View, 'refs'>, src: string, target: string, count: number): LinkRef[] {
  const named = view.refs(src, target).filter((r) => r.target === target);
  return named.length >= count ? named : view.refs(src).filter((r) => r.target === target);
}

export const getLinks = defineTool({
  name: 'get_links',
  title: 'Links of a note',
  family: 'graph',
  description: 'Every link in a note, in order (frontmatter first), with the path each opens.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    ...pageInput(1000, 200, 'Links per page'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    path: pathOut,
    total: z.number().int().describe('Links'),
    links: z.array(z.object({
      link: z.string().describe('As written'),
      target: z.string().optional().describe('Path opened; absent: dangling'),
      kind: linkKindOut,
      display: z.string().optional().describe('Alias text'),
      line: lineOut,
      property: propertyOut,
    })).describe('In order'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = ctx.vault.requireNote(args.path);
    const refs = viewOf(ctx).refs(st.path).map((r, i) => ({ r, i }));
    const { page, next_cursor } = pageOf(refs, (x) => pad(x.i), `get_links:${st.path}`, args);
    const links = page.map(({ r }) => linkOut(r));
    const dangling = refs.filter((x) => x.r.target === null).length;
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const body = links.length
      ? [`${st.path}: ${refs.length} links (${dangling} dangling)`, ...links.map((l) => `- ${l.line === undefined ? `[${l.property}]` : `L${l.line}`} ${l.link}${l.target ? ` → ${l.target}` : '  (dangling)'}`)].join('\n')
      : `${st.path} has no links.`;
    return { ...answer({ path: st.path, total: refs.length, links, ...cursorField(next_cursor) }, body, [moreHint(page.length, refs.length, next_cursor), stale.hint]), meta };
  },
});

interface LinkRow { link: string; target?: string; kind?: LinkRef['kind']; display?: string; line?: number; property?: string }

function linkOut(r: LinkRef): LinkRow {
  const display = r.display !== null && r.display !== r.link && r.kind !== 'frontmatter' ? { display: r.display } : {};
  return { link: r.link, ...(r.target !== null ? { target: r.target } : {}), ...kindField(r), ...display, ...(r.line !== null ? { line: r.line } : { property: r.key ?? '' }) };
}

export const getBrokenLinks = defineTool({
  name: 'get_broken_links',
  title: 'Broken links',
  family: 'graph',
  description: 'Links that open no file, grouped by the note holding them.',
  input: z.strictObject({
    folder: folderFilter,
    ...pageInput(500, 50, 'Links per page'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    total: z.number().int().describe('Broken links'),
    notes: z.number().int().describe('Notes with some'),
    broken: z.array(z.object({
      source: pathOut,
      links: z.array(z.string()).describe('"L7: Target" or "[property] Target"'),
    })).describe('By note'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const folder = ctx.vault.folderArg(args.folder);
    const view = viewOf(ctx);
    const rows: { source: string; i: number; r: LinkRef }[] = [];
    const confined = ctx.vault.root !== '';
    let notes = 0;
    for (const f of ctx.vault.notes(folder).sort(byPath)) {
      // Without confinement only notes with unresolved links can have broken ones.
      if (!confined && !view.graph.hasUnresolved(f.path)) continue;
      const broken = view.refs(f.path).filter((r) => r.target === null);
      if (broken.length) notes++;
      broken.forEach((r, i) => rows.push({ source: f.path, i, r }));
    }
    const { page, next_cursor } = pageOf(rows, (x) => `${x.source}\u0000${pad(x.i)}`, 'get_broken_links', args);
    const broken: { source: string; links: string[] }[] = [];
    for (const { source, r } of page) {
      let g = broken[broken.length - 1];
      if (!g || g.source !== source) { g = { source, links: [] }; broken.push(g); }
      g.links.push(r.line !== null ? `L${r.line}: ${r.link}` : `[${r.key ?? ''}] ${r.link}`);
    }
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const body = broken.length
      ? [`${rows.length} broken link${rows.length === 1 ? '' : 's'} in ${notes} note${notes === 1 ? '' : 's'}`, ...broken.flatMap((g) => [g.source, ...g.links.map((l) => `  ${l}`)])].join('\n')
      : 'No broken links.';
    return { ...answer({ total: rows.length, notes, broken, ...cursorField(next_cursor) }, body, [moreHint(page.length, rows.length, next_cursor), stale.hint]), meta };
  },
});
