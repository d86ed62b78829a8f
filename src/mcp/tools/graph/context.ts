// get_context: everything around one note in one call (metadata, outline, tasks, links both ways,
// folder peers, conventions, semantically related notes).
import { z } from 'zod';
import { defineTool, READ_ONLY, type ToolContext } from '../../tool.js';
import { isoUtc } from '../../../core/time.js';
import { dirname } from '../../../core/paths.js';
import { readSnapshot } from '../../../services/noteText.js';
import { conventionsFor } from '../../../services/conventions.js';
import { freshness, taskService, viewOf } from '../../../graph/access.js';
import { answer, compact, hintOut, hostStaleness, pathOut, staleOut, waitInput } from '../results.js';
import { clearTimeout, setTimeout } from 'node:timers';

const RELATED_TIMEOUT_MS = 5000;
const PEERS = 20;
const BACKLINKS = 20;
const OUTLINKS = 50;

async function relatedNotes(ctx: ToolContext, path: string): Promise<{ related: { path: string; similarity: number }[] | null; note: string | null }> {
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
    return { related: r.hits.map((h) => ({ path: h.path, similarity: Math.round(h.score * 1e4) / 1e4 })), note: null };
  } catch (e) {
    return { related: null, note: `semantic search is unavailable: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

const counted = z.object({ path: pathOut, count: z.number().int().describe('Links') });

export const getContext = defineTool({
  name: 'get_context',
  title: 'Context dossier of a note',
  family: 'graph',
  description:
    'Everything around one note in one call: frontmatter, tags, times, content_hash, outline, open tasks, backlinks, outgoing links, folder peers, applicable _conventions.md, related notes (semantic). ' +
    'Use before changing a note you have not seen; the body: read_note.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    path: pathOut,
    frontmatter: z.record(z.string(), z.unknown()).optional().describe('Properties (JSON view)'),
    tags: z.array(z.string()).optional().describe('Tags with "#"'),
    aliases: z.array(z.string()).optional().describe('Other names'),
    modified: z.string().describe('ISO 8601 UTC'),
    created: z.string().describe('ISO 8601 UTC'),
    size: z.number().int().describe('Bytes'),
    content_hash: z.string().describe('Pass as expected_hash to edit'),
    outline: z.array(z.object({ ordinal: z.string().describe('read_note section'), depth: z.number().int().describe('Level'), text: z.string().describe('Heading') })).optional().describe('Headings'),
    open_tasks: z.number().int().describe('Tasks not done or cancelled'),
    backlinks: z.object({ total: z.number().int().describe('Linking notes'), notes: z.array(counted).describe(`Top ${BACKLINKS}`) }).describe('Notes linking here'),
    outlinks: z.object({ total: z.number().int().describe('Distinct targets'), dangling: z.number().int().describe('Targets missing'), links: z.array(z.object({ path: z.string().describe('Target path, or the link as written when dangling'), count: z.number().int().describe('Links'), dangling: z.boolean().optional().describe('Opens no file') })).describe(`First ${OUTLINKS}`) }).describe('Links out'),
    folder_peers: z.object({ total: z.number().int().describe('Other notes in the folder'), notes: z.array(z.string()).describe(`Newest ${PEERS} paths`) }).describe('Same folder'),
    conventions: z.array(z.object({ path: pathOut, content: z.string().describe('Rules text'), truncated: z.boolean().optional().describe('Cut') })).optional().describe('_conventions.md that apply, root first'),
    related: z.array(z.object({ path: pathOut, similarity: z.number().describe('Cosine') })).optional().describe('Semantically close notes'),
    related_note: z.string().optional().describe('Why related is absent'),
    hint: hintOut,
    ...staleOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = ctx.vault.requireNote(args.path);
    const snap = await readSnapshot(ctx.vault, st);
    const view = viewOf(ctx);
    const folder = dirname(st.path);
    const back = view.backlinks(st.path).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const grouped = new Map<string, { path: string; count: number; dangling?: boolean }>();
    for (const r of view.refs(st.path)) {
      if (r.target === st.path) continue;
      const k = r.target ?? `?${r.link.split('#')[0]}`;
      const g = grouped.get(k);
      if (g) g.count++; else grouped.set(k, r.target ? { path: r.target, count: 1 } : { path: r.link.split('#')[0], count: 1, dangling: true });
    }
    const outs = [...grouped.values()];
    const peers = ctx.vault.notes(folder).filter((f) => dirname(f.path) === folder && f.path !== st.path).sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
    const conv = (await conventionsFor(ctx.vault, folder, 4000)).filter((c) => c.path !== st.path).map((c) => ({ path: c.path, content: c.content, ...(c.truncated ? { truncated: true } : {}) }));
    const tasks = taskService(ctx);
    await tasks.settle(0);
    const openTasks = tasks.ofNote(st.path).filter((t) => t.status !== 'done' && t.status !== 'cancelled').length;
    const rel = await relatedNotes(ctx, st.path);
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const out = compact({
      path: st.path,
      frontmatter: snap.frontmatter && Object.keys(snap.frontmatter).length ? snap.frontmatter : undefined,
      tags: snap.tags, aliases: snap.aliases,
      modified: isoUtc(st.mtime), created: isoUtc(st.ctime), size: st.size, content_hash: snap.hash,
      outline: snap.outline.map((e) => ({ ordinal: e.ordinal, depth: e.depth, text: e.text })),
      open_tasks: openTasks,
      backlinks: { total: back.length, notes: back.slice(0, BACKLINKS).map(([p, c]) => ({ path: p, count: c })) },
      outlinks: { total: outs.length, dangling: outs.filter((o) => o.dangling).length, links: outs.slice(0, OUTLINKS) },
      folder_peers: { total: peers.length, notes: peers.slice(0, PEERS).map((f) => f.path) },
      conventions: conv,
      related: rel.related,
      related_note: rel.note,
      ...stale.fields,
    });
    const lines = [
      `# ${st.path}`, `modified: ${out.modified}`, `content_hash: ${out.content_hash}`,
      ...(snap.tags.length ? [`tags: ${snap.tags.join(' ')}`] : []),
      ...(snap.aliases.length ? [`aliases: ${snap.aliases.join(', ')}`] : []),
      ...(snap.outline.length ? [`outline: ${snap.outline.map((o) => `${o.ordinal} ${o.text}`).join('; ')}`] : []),
      `open tasks: ${openTasks}`,
      `backlinks (${back.length}): ${out.backlinks.notes.map((b) => b.path).join(', ') || 'none'}`,
      `links (${outs.length}): ${out.outlinks.links.map((l) => (l.dangling ? `${l.path} (dangling)` : l.path)).join(', ') || 'none'}`,
      `folder peers (${peers.length}): ${out.folder_peers.notes.join(', ') || 'none'}`,
      ...(conv.length ? conv.map((c) => `--- conventions ${c.path}\n${c.content.trimEnd()}`) : ['conventions: none']),
      rel.related ? `related: ${rel.related.map((r) => `${r.path} (${r.similarity})`).join(', ') || 'none'}` : `related: unavailable (${rel.note})`,
    ];
    return { ...answer(out, lines.join('\n'), [stale.hint]), meta };
  },
});
