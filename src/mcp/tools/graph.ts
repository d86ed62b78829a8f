// Link tools: backlinks, outgoing links, broken links, orphans, most linked, neighbourhood, shortest
// connection, table of contents and the one-call context dossier. All answers come from the link
// graph (the host's resolvedLinks/unresolvedLinks) and metadata; a root-confined key sees only its
// part of the graph (links to paths outside answer like links to nothing).
import { z } from 'zod';
import { folderFilter, pageCursor } from './args.js';
import { defineTool, READ_ONLY, type ToolContext } from '../tool.js';
import { pageAfter } from '../../core/cursor.js';
import { isoUtc } from '../../core/time.js';
import { dirname, isNotePath, inFolder, noteTitle, normalizeFolderPath } from '../../core/paths.js';
import { textLines } from '../../core/tasks.js';
import { noteTags, noteAliases } from '../../core/markdown/frontmatter.js';
import { buildOutline } from '../../core/markdown/sections.js';
import { readSnapshot } from '../../services/noteText.js';
import { conventionsFor } from '../../services/conventions.js';
import { bfs } from '../../graph/linkGraph.js';
import { freshness, requireTarget, taskService, viewOf } from '../../graph/access.js';
import type { LinkRef } from '../../graph/service.js';
import { clearTimeout, setTimeout } from 'node:timers';

const wait = z.boolean().default(false).describe('Wait (up to 10 s) until every pending note change is parsed before answering');
const KINDS = ['wikilink', 'embed', 'markdown', 'frontmatter'] as const;
const linkKind = z.enum(KINDS).describe('wikilink [[…]], embed ![[…]] / ![](…), markdown [text](…), or a frontmatter property link');
const CONTEXT_CHARS = 300;

function lineText(lines: string[], line: number | null): string | null {
  if (line === null) return null;
  const t = (lines[line - 1] ?? '').trim();
  return t.length > CONTEXT_CHARS ? t.slice(0, CONTEXT_CHARS) + '…' : t;
}

async function linesOf(ctx: ToolContext, path: string): Promise<string[]> {
  try { return textLines(await ctx.deps.host.readText(path)); } catch { return []; }
}

const pad = (n: number) => String(n).padStart(9, '0');

// Shared by the paged tools: the limit (bounds, default and wording differ per tool) and cursor
// arguments, the next_cursor output field, one keyset page, and the "more" line of the text answer.
function pageInput(max: number, dflt: number, describe: string) {
  return {
    limit: z.number().int().min(1).max(max).default(dflt).describe(describe),
    cursor: pageCursor,
  };
}
const nextCursor = z.string().nullable();
function pageOf<T>(rows: T[], key: (t: T) => string, scope: string, args: { limit: number; cursor?: string }) {
  return pageAfter(rows, key, args.limit, scope, args.cursor);
}
const more = (next: string | null) => (next ? `\n… more with cursor="${next}"` : '');
const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);

// ---- get_backlinks ----

export const getBacklinks = defineTool({
  name: 'get_backlinks',
  title: 'Backlinks of a note',
  family: 'graph',
  description:
    'Notes that link to a note (or attachment): each linking note with every link\'s display text, kind, anchor, line number and the text of that line. ' +
    'Use it to see how a note is used before editing or moving it; for outgoing links use get_links, for a wider view get_neighborhood or get_context. Paged: pass next_cursor as cursor.',
  input: z.strictObject({
    path: z.string().describe('The linked note or file, vault-relative; ".md" may be omitted'),
    ...pageInput(200, 50, 'Linking notes per page (max 200)'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    path: z.string(),
    total_notes: z.number().int().describe('Notes linking here, across all pages'),
    total_links: z.number().int(),
    backlinks: z.array(z.object({
      path: z.string(), title: z.string(), count: z.number().int(),
      links: z.array(z.object({ line: z.number().int().nullable().describe('1-based; null for a frontmatter link'), display: z.string().nullable(), kind: linkKind, anchor: z.string().nullable(), context: z.string().nullable().describe('The line the link sits on (trimmed)') })),
    })),
    next_cursor: nextCursor,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = requireTarget(ctx, args.path);
    const view = viewOf(ctx);
    const sources = view.backlinks(st.path).sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const { page, next_cursor } = pageOf(sources, (s) => s[0], `get_backlinks:${st.path}`, args);
    const backlinks = [];
    for (const [src, count] of page) {
      const refs = view.refs(src).filter((r) => r.target === st.path);
      const lines = await linesOf(ctx, src);
      backlinks.push({ path: src, title: noteTitle(src), count, links: refs.map((r) => ({ line: r.line, display: r.display, kind: r.kind, anchor: r.anchor, context: lineText(lines, r.line) })) });
    }
    const out = { path: st.path, total_notes: sources.length, total_links: sources.reduce((a, s) => a + s[1], 0), backlinks, next_cursor };
    const text = backlinks.length
      ? [`${out.total_notes} note${out.total_notes === 1 ? '' : 's'} link to ${st.path} (${out.total_links} links)`, ...backlinks.flatMap((b) => [`- ${b.path} (${b.count})`, ...b.links.map((l) => `    ${l.line === null ? 'frontmatter' : `L${l.line}`}: ${l.context ?? l.display ?? ''}`)])].join('\n') + more(next_cursor)
      : `No note links to ${st.path}.`;
    return { structured: out, text, meta };
  },
});

// ---- get_links ----

const linkRow = z.object({
  link: z.string().describe('Target as written, without alias'),
  target: z.string().nullable().describe('The vault path it opens; null when it resolves to nothing'),
  exists: z.boolean(),
  kind: linkKind,
  anchor: z.string().nullable().describe('Heading or ^block after "#", without the "#"'),
  display: z.string().nullable(),
  line: z.number().int().nullable().describe('1-based; null for a frontmatter link'),
  property: z.string().optional().describe('Frontmatter key of a frontmatter link'),
});

function linkOut(r: LinkRef) {
  return { link: r.link, target: r.target, exists: r.target !== null, kind: r.kind, anchor: r.anchor, display: r.display, line: r.line, ...(r.key ? { property: r.key } : {}) };
}

export const getLinks = defineTool({
  name: 'get_links',
  title: 'Outgoing links of a note',
  family: 'graph',
  description:
    'Every link in a note, in document order (frontmatter links first): resolved and dangling, each with exists, the path it opens, its kind (wikilink, embed, markdown link, frontmatter), anchor (#heading / #^block), display text and line. ' +
    'For notes linking here use get_backlinks; for dangling links across the vault use get_broken_links.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path; ".md" may be omitted'),
    ...pageInput(1000, 200, 'Links per page (max 1000)'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    path: z.string(),
    total: z.number().int(),
    resolved: z.number().int(),
    dangling: z.number().int(),
    links: z.array(linkRow),
    next_cursor: nextCursor,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = ctx.vault.requireNote(args.path);
    const refs = viewOf(ctx).refs(st.path).map((r, i) => ({ r, i }));
    const { page, next_cursor } = pageOf(refs, (x) => pad(x.i), `get_links:${st.path}`, args);
    const links = page.map((x) => linkOut(x.r));
    const resolved = refs.filter((x) => x.r.target !== null).length;
    const out = { path: st.path, total: refs.length, resolved, dangling: refs.length - resolved, links, next_cursor };
    const text = links.length
      ? [`${st.path}: ${out.total} links (${resolved} resolved, ${out.dangling} dangling)`, ...links.map((l) => `- ${l.line === null ? `[${l.property}]` : `L${l.line}`} ${l.kind} ${l.link}${l.exists ? ` → ${l.target}` : '  (dangling)'}`)].join('\n') + more(next_cursor)
      : `${st.path} has no links.`;
    return { structured: out, text, meta };
  },
});

// ---- get_broken_links ----

export const getBrokenLinks = defineTool({
  name: 'get_broken_links',
  title: 'Broken links',
  family: 'graph',
  description:
    'Links that resolve to no file (dangling), in notes of the vault or a folder, ordered by note path and line; each with the link as written, kind and line. ' +
    'Use it to tidy a vault or before creating the missing notes. Links to a missing heading are not counted. Paged: pass next_cursor as cursor.',
  input: z.strictObject({
    folder: folderFilter,
    ...pageInput(500, 50, 'Rows per page (max 500)'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    folder: z.string().nullable(),
    total: z.number().int().describe('Broken links across all pages'),
    notes: z.number().int().describe('Notes with at least one broken link'),
    links: z.array(z.object({ source: z.string(), link: z.string(), kind: linkKind, line: z.number().int().nullable(), display: z.string().nullable(), property: z.string().optional() })),
    next_cursor: nextCursor,
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
      if (!confined && !view.graph.unresolved.has(f.path)) continue;
      const broken = view.refs(f.path).filter((r) => r.target === null);
      if (broken.length) notes++;
      broken.forEach((r, i) => rows.push({ source: f.path, i, r }));
    }
    const { page, next_cursor } = pageOf(rows, (x) => `${x.source}\u0000${pad(x.i)}`, 'get_broken_links', args);
    const links = page.map(({ source, r }) => ({ source, link: r.link, kind: r.kind, line: r.line, display: r.display, ...(r.key ? { property: r.key } : {}) }));
    const out = { folder: folder ?? null, total: rows.length, notes, links, next_cursor };
    const text = links.length
      ? [`${rows.length} broken link${rows.length === 1 ? '' : 's'} in ${notes} note${notes === 1 ? '' : 's'}`, ...links.map((l) => `- ${l.source}${l.line === null ? ` [${l.property}]` : `:${l.line}`}  ${l.link}`)].join('\n') + more(next_cursor)
      : 'No broken links.';
    return { structured: out, text, meta };
  },
});

// ---- find_orphans ----

export const findOrphans = defineTool({
  name: 'find_orphans',
  title: 'Orphan notes',
  family: 'graph',
  description:
    'Notes with no resolved link in or out (links to themselves do not count), ordered by path. Use it to find notes that need linking into the vault or that may be obsolete. Paged: pass next_cursor as cursor.',
  input: z.strictObject({
    folder: folderFilter,
    ...pageInput(500, 50, 'Rows per page (max 500)'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    folder: z.string().nullable(),
    total: z.number().int(),
    orphans: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string(), size: z.number().int() })),
    next_cursor: nextCursor,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const folder = ctx.vault.folderArg(args.folder);
    const view = viewOf(ctx);
    const rows = ctx.vault.notes(folder).filter((f) => view.backlinks(f.path).length === 0 && view.outlinks(f.path).length === 0).sort(byPath);
    const { page, next_cursor } = pageOf(rows, (f) => f.path, 'find_orphans', args);
    const orphans = page.map((f) => ({ path: f.path, title: noteTitle(f.path), modified: isoUtc(f.mtime), size: f.size }));
    const out = { folder: folder ?? null, total: rows.length, orphans, next_cursor };
    const text = orphans.length ? [`${rows.length} orphan note${rows.length === 1 ? '' : 's'}`, ...orphans.map((o) => `- ${o.path}`)].join('\n') + more(next_cursor) : 'No orphan notes.';
    return { structured: out, text, meta };
  },
});

// ---- get_most_linked ----

export const getMostLinked = defineTool({
  name: 'get_most_linked',
  title: 'Most linked notes',
  family: 'graph',
  description:
    'The notes (optionally attachments too) that most other notes link to: hubs worth reading first to understand a vault. Ranked by the number of distinct linking notes, then total links.',
  input: z.strictObject({
    limit: z.number().int().min(1).max(200).default(10).describe('How many (max 200)'),
    folder: z.string().optional().describe('Only targets in this folder and its sub-folders; omit for the whole vault'),
    include_attachments: z.boolean().default(false).describe('Also rank non-note files (images, PDFs…)'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    notes: z.array(z.object({ path: z.string(), title: z.string(), backlinks: z.number().int().describe('Distinct notes linking here'), links: z.number().int().describe('Links in total'), exists: z.boolean() })),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const folder = ctx.vault.folderArg(args.folder);
    const view = viewOf(ctx);
    const rows: { path: string; backlinks: number; links: number }[] = [];
    for (const [target, sources] of view.graph.in) {
      if (!view.visible(target) || !inFolder(target, folder)) continue;
      if (!args.include_attachments && !isNotePath(target)) continue;
      let n = 0, links = 0;
      for (const [s, c] of sources) if (view.visible(s)) { n++; links += c; }
      if (n) rows.push({ path: target, backlinks: n, links });
    }
    rows.sort((a, b) => b.backlinks - a.backlinks || b.links - a.links || (a.path < b.path ? -1 : 1));
    const notes = rows.slice(0, args.limit).map((r) => ({ ...r, title: noteTitle(r.path), exists: ctx.vault.stat(r.path) !== null }));
    const text = notes.length ? notes.map((n, i) => `${i + 1}. ${n.path}  ${n.backlinks} notes, ${n.links} links`).join('\n') : 'No links in this part of the vault.';
    return { structured: { notes }, text, meta };
  },
});

// ---- get_neighborhood ----

export const getNeighborhood = defineTool({
  name: 'get_neighborhood',
  title: 'Neighbourhood of a note',
  family: 'graph',
  description:
    'Notes within N links of a note, following links in both directions (breadth-first over resolved links), each with its distance and the note it was reached through. ' +
    'Use it to gather the context around a topic; for one path between two notes use get_connection_path.',
  input: z.strictObject({
    path: z.string().describe('Start note, vault-relative; ".md" may be omitted'),
    depth: z.number().int().min(1).max(5).default(1).describe('Maximum distance in links (1–5)'),
    ...pageInput(200, 50, 'Notes per page (max 200), nearest first'),
    include_attachments: z.boolean().default(false).describe('Also include non-note files (they end a path: attachments link nowhere)'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    path: z.string(),
    depth: z.number().int(),
    total: z.number().int().describe('Notes within the depth, the start excluded'),
    notes: z.array(z.object({ path: z.string(), title: z.string(), distance: z.number().int(), via: z.string().describe('The note one step closer to the start'), direction: z.enum(['out', 'in', 'both']).describe('How `via` and this note are linked: out = via links to it, in = it links to via') })),
    next_cursor: nextCursor,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = requireTarget(ctx, args.path);
    const view = viewOf(ctx);
    const accept = (p: string) => view.visible(p) && (args.include_attachments || isNotePath(p));
    const found = bfs(st.path, args.depth, (p) => view.neighbours(p), accept);
    found.delete(st.path);
    const rows = [...found.values()].sort((a, b) => a.distance - b.distance || (a.path < b.path ? -1 : 1));
    const { page, next_cursor } = pageOf(rows, (r) => `${r.distance}\u0000${r.path}`, `get_neighborhood:${st.path}:${args.depth}`, args);
    const notes = page.map((r) => {
      const o = view.graph.outgoing(r.via!).has(r.path);
      const i = view.graph.outgoing(r.path).has(r.via!);
      const direction: 'out' | 'in' | 'both' = o && i ? 'both' : o ? 'out' : 'in';
      return { path: r.path, title: noteTitle(r.path), distance: r.distance, via: r.via!, direction };
    });
    const out = { path: st.path, depth: args.depth, total: rows.length, notes, next_cursor };
    const text = notes.length ? [`${rows.length} note${rows.length === 1 ? '' : 's'} within ${args.depth} link${args.depth === 1 ? '' : 's'} of ${st.path}`, ...notes.map((n) => `${n.distance}  ${n.path}  (${n.direction === 'in' ? '←' : n.direction === 'out' ? '→' : '↔'} ${n.via})`)].join('\n') + more(next_cursor) : `${st.path} has no linked notes.`;
    return { structured: out, text, meta };
  },
});

// ---- get_connection_path ----

const MAX_HOPS = 10;

export const getConnectionPath = defineTool({
  name: 'get_connection_path',
  title: 'Shortest link path between two notes',
  family: 'graph',
  description:
    `The shortest chain of links between two notes (at most ${MAX_HOPS} hops), following links in either direction unless direction="forward"; each step says whether it follows a link or goes back along one. ` +
    'Answers connected=false with a plain "not connected" when there is no such chain. For everything near one note use get_neighborhood.',
  input: z.strictObject({
    source: z.string().describe('Start note'),
    target: z.string().describe('End note'),
    direction: z.enum(['any', 'forward']).default('any').describe('"any" (default): links count both ways; "forward": only follow links from the note that contains them'),
    max_hops: z.number().int().min(1).max(MAX_HOPS).default(MAX_HOPS).describe(`Longest chain to look for (≤ ${MAX_HOPS})`),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    source: z.string(),
    target: z.string(),
    connected: z.boolean(),
    hops: z.number().int().nullable(),
    path: z.array(z.object({ path: z.string(), title: z.string(), step: z.enum(['start', 'links_to', 'linked_from']).describe('links_to: the previous note links to this one; linked_from: this one links to the previous') })),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const a = requireTarget(ctx, args.source, 'source');
    const b = requireTarget(ctx, args.target, 'target');
    const view = viewOf(ctx);
    const next = args.direction === 'forward' ? (p: string) => view.outlinks(p).map((x) => x[0]) : (p: string) => view.neighbours(p);
    const found = bfs(a.path, args.max_hops, next, view.visible, b.path);
    const hit = found.get(b.path);
    const base = { source: a.path, target: b.path };
    if (!hit) {
      return { structured: { ...base, connected: false, hops: null, path: [] }, text: `Not connected: no chain of at most ${args.max_hops} link${args.max_hops === 1 ? '' : 's'} leads from ${a.path} to ${b.path}${args.direction === 'forward' ? ' following links forward' : ''}.`, meta };
    }
    const chain: string[] = [];
    for (let p: string | null = b.path; p !== null; p = found.get(p)!.via) chain.unshift(p);
    const stepOf = (p: string, i: number): 'start' | 'links_to' | 'linked_from' => (i === 0 ? 'start' : view.graph.outgoing(chain[i - 1]).has(p) ? 'links_to' : 'linked_from');
    const path = chain.map((p, i) => ({ path: p, title: noteTitle(p), step: stepOf(p, i) }));
    const text = `${chain.length - 1} hop${chain.length === 2 ? '' : 's'}: ` + path.map((s, i) => (i === 0 ? s.path : `${s.step === 'links_to' ? '→' : '←'} ${s.path}`)).join(' ');
    return { structured: { ...base, connected: true, hops: chain.length - 1, path }, text, meta };
  },
});

// ---- get_toc ----

const tocHeading = z.object({ ordinal: z.string().describe('Pass as read_note(section=…)'), depth: z.number().int(), text: z.string(), line: z.number().int().describe('1-based'), size: z.number().int().optional().describe('Characters of the section (single-note answers)') });

export const getToc = defineTool({
  name: 'get_toc',
  title: 'Table of contents',
  family: 'read',
  description:
    'The heading outline of a note (with the "#N" ordinals read_note(section=…) accepts and each section\'s size), or of every note in a folder (paged). Use it to pick the one section of a long note to read.',
  input: z.strictObject({
    path: z.string().describe('A note path, or a folder ("" = the whole vault) for the outlines of its notes'),
    max_level: z.number().int().min(1).max(6).optional().describe('Only headings of this level or higher (1 = only "#" headings); ordinals stay those of the whole note'),
    ...pageInput(200, 50, 'Notes per page for a folder (max 200)'),
  }),
  output: z.object({
    path: z.string(),
    kind: z.enum(['note', 'folder']),
    total_notes: z.number().int(),
    notes: z.array(z.object({ path: z.string(), title: z.string(), headings: z.array(tocHeading) })),
    next_cursor: nextCursor,
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
      const text = headings.length ? [`${st.path}`, ...headings.map((h) => `${'  '.repeat(h.depth - 1)}${h.ordinal} ${h.text}  (${h.size} chars)`)].join('\n') : `${st.path} has no headings.`;
      return { structured: { path: st.path, kind: 'note' as const, total_notes: 1, notes: [{ path: st.path, title: noteTitle(st.path), headings }], next_cursor: null }, text };
    }
    // A folder: '' is the whole vault here (not "root level only"), since a TOC of top-level notes alone is rarely wanted.
    const folder = folderLike === '' ? (ctx.vault.root || undefined) : ctx.vault.folderArg(folderLike, 'path');
    const rows = ctx.vault.notes(folder).sort(byPath);
    const { page, next_cursor } = pageOf(rows, (f) => f.path, `get_toc:${folder ?? ''}`, args);
    const notes = page.map((f) => {
      const hs = (ctx.vault.metadata(f.path)?.headings ?? []).slice().sort((x, y) => x.position.start.offset - y.position.start.offset);
      return { path: f.path, title: noteTitle(f.path), headings: hs.map((h, i) => ({ ordinal: `#${i + 1}`, depth: h.level, text: h.heading, line: h.position.start.line + 1 })).filter((h) => h.depth <= maxLevel) };
    });
    const text = notes.length ? notes.map((n) => [n.path, ...n.headings.map((h) => `${'  '.repeat(h.depth)}${h.ordinal} ${h.text}`)].join('\n')).join('\n') + more(next_cursor) : 'No notes in this folder.';
    return { structured: { path: folder ?? '', kind: 'folder' as const, total_notes: rows.length, notes, next_cursor }, text };
  },
});

// ---- get_context ----

const RELATED_TIMEOUT_MS = 5000;
const PEERS = 20;
const BACKLINKS = 20;
const OUTLINKS = 50;

async function relatedNotes(ctx: ToolContext, path: string): Promise<{ related: { path: string; title: string; similarity: number }[] | null; note: string | null }> {
  const svc = ctx.deps.services.semantic;
  if (!svc || typeof svc.related !== 'function') return { related: null, note: 'semantic search is not set up on this server' };
  const why = svc.quickReason?.();
  if (why) return { related: null, note: `semantic search is unavailable: ${why}` };
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const r = await Promise.race([
      svc.related(path, 10, (p) => ctx.vault.visible(p)),
      new Promise<'timeout'>((res) => { timer = setTimeout(() => res('timeout'), RELATED_TIMEOUT_MS); }),
    ]);
    if (r === 'timeout') return { related: null, note: 'semantic search did not answer in time (model loading or index building); call find_related later' };
    if (!r) return { related: null, note: 'the note is not embedded (skipped by a glob or the model failed on it)' };
    return { related: r.hits.map((h) => ({ path: h.path, title: noteTitle(h.path), similarity: Math.round(h.score * 1e4) / 1e4 })), note: null };
  } catch (e) {
    return { related: null, note: `semantic search is unavailable: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

export const getContext = defineTool({
  name: 'get_context',
  title: 'Context dossier of a note',
  family: 'graph',
  description:
    'Everything around one note in one call: title, folder, frontmatter, tags, aliases, times, content_hash, heading outline, open tasks, backlinks, outgoing links, folder peers, the _conventions.md rules that apply, and semantically related notes when semantic search is available. ' +
    'Call it before editing or extending a note you have not seen; read the body itself with read_note.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path; ".md" may be omitted'),
    wait_for_pending_writes: wait,
  }),
  output: z.object({
    path: z.string(),
    title: z.string(),
    folder: z.string(),
    frontmatter: z.record(z.string(), z.unknown()).nullable(),
    tags: z.array(z.string()),
    aliases: z.array(z.string()),
    modified: z.string(),
    created: z.string(),
    size: z.number().int(),
    content_hash: z.string(),
    outline: z.array(z.object({ ordinal: z.string(), depth: z.number().int(), text: z.string() })),
    open_tasks: z.number().int().describe('Tasks not done or cancelled in this note'),
    backlinks: z.object({ total: z.number().int(), notes: z.array(z.object({ path: z.string(), title: z.string(), count: z.number().int() })) }),
    outlinks: z.object({ total: z.number().int(), dangling: z.number().int(), links: z.array(z.object({ target: z.string().nullable(), link: z.string(), exists: z.boolean(), kind: linkKind, count: z.number().int() })) }),
    folder_peers: z.object({ total: z.number().int(), notes: z.array(z.object({ path: z.string(), title: z.string(), modified: z.string() })) }),
    conventions: z.array(z.object({ path: z.string(), content: z.string(), truncated: z.boolean() })),
    related: z.array(z.object({ path: z.string(), title: z.string(), similarity: z.number() })).nullable().describe('Semantically close notes; null when semantic search is unavailable'),
    related_note: z.string().optional().describe('Why related is null'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = ctx.vault.requireNote(args.path);
    const snap = await readSnapshot(ctx.vault, st);
    const view = viewOf(ctx);
    const folder = dirname(st.path);
    const back = view.backlinks(st.path).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const refs = view.refs(st.path);
    const grouped = new Map<string, { target: string | null; link: string; exists: boolean; kind: LinkRef['kind']; count: number }>();
    for (const r of refs) {
      const k = r.target ?? `?${r.link.split('#')[0]}`;
      const g = grouped.get(k);
      if (g) g.count++; else grouped.set(k, { target: r.target, link: r.link, exists: r.target !== null, kind: r.kind, count: 1 });
    }
    const outs = [...grouped.values()].filter((g) => g.target !== st.path);
    const peers = ctx.vault.notes(folder).filter((f) => dirname(f.path) === folder && f.path !== st.path).sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
    const conv = (await conventionsFor(ctx.vault, folder, 4000)).filter((c) => c.path !== st.path).map((c) => ({ path: c.path, content: c.content, truncated: c.truncated }));
    const tasks = taskService(ctx);
    await tasks.settle(0);
    const openTasks = tasks.ofNote(st.path).filter((t) => t.status !== 'done' && t.status !== 'cancelled').length;
    const rel = await relatedNotes(ctx, st.path);
    const fm = snap.frontmatter ?? undefined;
    const out = {
      path: st.path, title: noteTitle(st.path), folder,
      frontmatter: snap.frontmatter, tags: noteTags(fm, snap.meta.tags), aliases: noteAliases(fm),
      modified: isoUtc(st.mtime), created: isoUtc(st.ctime), size: st.size, content_hash: snap.hash,
      outline: buildOutline(snap.text, snap.meta.headings).map((e) => ({ ordinal: e.ordinal, depth: e.depth, text: e.text })),
      open_tasks: openTasks,
      backlinks: { total: back.length, notes: back.slice(0, BACKLINKS).map(([p, c]) => ({ path: p, title: noteTitle(p), count: c })) },
      outlinks: { total: outs.length, dangling: outs.filter((o) => !o.exists).length, links: outs.slice(0, OUTLINKS) },
      folder_peers: { total: peers.length, notes: peers.slice(0, PEERS).map((f) => ({ path: f.path, title: noteTitle(f.path), modified: isoUtc(f.mtime) })) },
      conventions: conv,
      related: rel.related,
      ...(rel.note ? { related_note: rel.note } : {}),
    };
    const lines = [
      `# ${out.title}`, `path: ${out.path}`, `folder: ${folder || '(root)'}`, `modified: ${out.modified}`, `content_hash: ${out.content_hash}`,
      ...(out.tags.length ? [`tags: ${out.tags.join(' ')}`] : []),
      ...(out.aliases.length ? [`aliases: ${out.aliases.join(', ')}`] : []),
      ...(out.outline.length ? [`outline: ${out.outline.map((o) => `${o.ordinal} ${o.text}`).join('; ')}`] : []),
      `open tasks: ${openTasks}`,
      `backlinks (${back.length}): ${out.backlinks.notes.map((b) => b.path).join(', ') || 'none'}`,
      `links (${outs.length}): ${out.outlinks.links.map((l) => (l.exists ? l.target : `${l.link} (dangling)`)).join(', ') || 'none'}`,
      `folder peers (${peers.length}): ${out.folder_peers.notes.map((p) => p.title).join(', ') || 'none'}`,
      ...(conv.length ? conv.map((c) => `--- conventions ${c.path}\n${c.content.trimEnd()}`) : ['conventions: none']),
      out.related ? `related: ${out.related.map((r) => `${r.path} (${r.similarity})`).join(', ') || 'none'}` : `related: unavailable (${rel.note})`,
    ];
    return { structured: out, text: lines.join('\n'), meta };
  },
});

export const graphTools = [getBacklinks, getLinks, getBrokenLinks, findOrphans, getMostLinked, getNeighborhood, getConnectionPath, getToc, getContext];

