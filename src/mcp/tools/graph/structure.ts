// The shape of the link graph: orphans, the most linked notes, a note's neighbourhood and the
// shortest chain of links between two notes.
import { z } from 'zod';
import { folderFilter } from '../args.js';
import { defineTool, READ_ONLY } from '../../tool.js';
import { isNotePath, inFolder } from '../../../core/paths.js';
import { bfs } from '../../../graph/linkGraph.js';
import { freshness, requireTarget, viewOf } from '../../../graph/access.js';
import { answer, cursorField, hintOut, hostStaleness, moreHint, nextCursorOut, pathOut, waitInput } from '../results.js';
import { byPath, pageInput, pageOf } from './shared.js';
import { Slicer } from '../../../services/slicer.js';
import { isNoteIn } from '../../../services/scopedVault.js';
import type { FileStat } from '../../../host/port.js';

export const findOrphans = defineTool({
  name: 'find_orphans',
  title: 'Orphan notes',
  family: 'graph',
  description: 'Notes with no link in or out (links to themselves do not count), by path.',
  input: z.strictObject({
    folder: folderFilter,
    ...pageInput(500, 50, 'Rows per page'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    total: z.number().int().describe('Orphans'),
    orphans: z.array(z.string()).describe('Their paths'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const folder = ctx.vault.folderArg(args.folder);
    const view = viewOf(ctx);
    // Every note is looked at: in slices, so a 100k-note vault does not hold the app's thread.
    const rows: FileStat[] = [];
    const slicer = new Slicer();
    // notes()'s filter applied inside the slices (notes() filters 100k entries in one go: 50-115 ms).
    for (const f of ctx.vault.files()) {
      if (isNoteIn(f.path, folder) && view.isolated(f.path)) rows.push(f);
      if (slicer.due()) await slicer.pause();
    }
    rows.sort(byPath);
    const { page, next_cursor } = pageOf(rows, (f) => f.path, 'find_orphans', args);
    const orphans = page.map((f) => f.path);
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const body = orphans.length ? [`${rows.length} orphan note${rows.length === 1 ? '' : 's'}`, ...orphans.map((o) => `- ${o}`)].join('\n') : 'No orphan notes.';
    return { ...answer({ total: rows.length, orphans, ...cursorField(next_cursor) }, body, [moreHint(page.length, rows.length, next_cursor), stale.hint]), meta };
  },
});

/** Visible targets ranked by distinct linking notes, then links (get_most_linked, the vault guide's digest). */
export function mostLinked(view: ReturnType<typeof viewOf>, folder: string | undefined, attachments: boolean) {
  const rows: { path: string; backlinks: number; links: number }[] = [];
  for (const target of view.graph.linkedTargets()) {
    if (!view.visible(target) || !inFolder(target, folder)) continue;
    if (!attachments && !isNotePath(target)) continue;
    let n = 0, links = 0;
    view.graph.someIncoming(target, (s, c) => { if (view.visible(s)) { n++; links += c; } });
    if (n) rows.push({ path: target, backlinks: n, links });
  }
  return rows.sort((a, b) => b.backlinks - a.backlinks || b.links - a.links || (a.path < b.path ? -1 : 1));
}

export const getMostLinked = defineTool({
  name: 'get_most_linked',
  title: 'Most linked notes',
  family: 'graph',
  description: 'The notes most other notes link to: hubs worth reading first.',
  input: z.strictObject({
    limit: z.number().int().min(1).max(200).default(10).describe('How many'),
    folder: z.string().optional().describe('Targets in this folder'),
    include_attachments: z.boolean().default(false).describe('Rank files too'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    notes: z.array(z.object({ path: pathOut, backlinks: z.number().int().describe('Linking notes'), links: z.number().int().describe('Links'), missing: z.boolean().optional().describe('File gone') })).describe('Hubs'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const folder = ctx.vault.folderArg(args.folder);
    const notes = mostLinked(viewOf(ctx), folder, args.include_attachments).slice(0, args.limit).map((r) => (ctx.vault.stat(r.path) ? r : { ...r, missing: true }));
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const body = notes.length ? notes.map((n, i) => `${i + 1}. ${n.path}  ${n.backlinks} notes, ${n.links} links`).join('\n') : 'No links in this part of the vault.';
    return { ...answer({ notes }, body, [stale.hint]), meta };
  },
});

export const getNeighborhood = defineTool({
  name: 'get_neighborhood',
  title: 'Neighbourhood of a note',
  family: 'graph',
  description: 'Notes within N links of a note (both directions), nearest first, with the note each was reached through.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    depth: z.number().int().min(1).max(5).default(1).describe('Max links away'),
    ...pageInput(200, 50, 'Notes per page'),
    include_attachments: z.boolean().default(false).describe('Files too'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    path: pathOut,
    total: z.number().int().describe('Notes found'),
    notes: z.array(z.object({
      path: pathOut,
      distance: z.number().int().describe('Links away'),
      via: z.string().describe('One step closer'),
      direction: z.enum(['out', 'in', 'both']).describe('out: via links here'),
    })).describe('Nearest first'),
    next_cursor: nextCursorOut,
    hint: hintOut,
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
      return { path: r.path, distance: r.distance, via: r.via!, direction };
    });
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const body = notes.length ? [`${rows.length} note${rows.length === 1 ? '' : 's'} within ${args.depth} link${args.depth === 1 ? '' : 's'} of ${st.path}`, ...notes.map((n) => `${n.distance}  ${n.path}  (${n.direction === 'in' ? '←' : n.direction === 'out' ? '→' : '↔'} ${n.via})`)].join('\n') : `${st.path} has no linked notes.`;
    return { ...answer({ path: st.path, total: rows.length, notes, ...cursorField(next_cursor) }, body, [moreHint(page.length, rows.length, next_cursor), stale.hint]), meta };
  },
});

const MAX_HOPS = 10;

export const getConnectionPath = defineTool({
  name: 'get_connection_path',
  title: 'Link path between notes',
  family: 'graph',
  description: 'The shortest chain of links between two notes, either direction unless direction="forward".',
  input: z.strictObject({
    source: z.string().describe('Start note'),
    target: z.string().describe('End note'),
    direction: z.enum(['any', 'forward']).default('any').describe('forward: as links point'),
    max_hops: z.number().int().min(1).max(MAX_HOPS).default(MAX_HOPS).describe('Max length'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    connected: z.boolean().describe('Chain found'),
    hops: z.number().int().optional().describe('Its links'),
    path: z.array(z.object({ path: pathOut, step: z.enum(['start', 'links_to', 'linked_from']).describe('links_to: previous links here') })).describe('The chain'),
    hint: hintOut,
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
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    if (!hit) {
      return { ...answer({ connected: false, path: [] }, `Not connected: no chain of at most ${args.max_hops} link${args.max_hops === 1 ? '' : 's'} leads from ${a.path} to ${b.path}${args.direction === 'forward' ? ' following links forward' : ''}.`, [stale.hint]), meta };
    }
    const chain: string[] = [];
    for (let p: string | null = b.path; p !== null; p = found.get(p)!.via) chain.unshift(p);
    const stepOf = (p: string, i: number): 'start' | 'links_to' | 'linked_from' => (i === 0 ? 'start' : view.graph.outgoing(chain[i - 1]).has(p) ? 'links_to' : 'linked_from');
    const path = chain.map((p, i) => ({ path: p, step: stepOf(p, i) }));
    const body = `${chain.length - 1} hop${chain.length === 2 ? '' : 's'}: ` + path.map((s, i) => (i === 0 ? s.path : `${s.step === 'links_to' ? '→' : '←'} ${s.path}`)).join(' ');
    return { ...answer({ connected: true, hops: chain.length - 1, path }, body, [stale.hint]), meta };
  },
});
