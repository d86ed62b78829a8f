// get_context: everything around one note in one call (metadata, outline, tasks, links both ways,
// folder peers, conventions, semantically related notes).
import { z } from 'zod';
import { defineTool, READ_ONLY, type ToolContext } from '../../tool.js';
import { isoUtc } from '../../../core/time.js';
import { dirname } from '../../../core/paths.js';
import { readSnapshot } from '../../../services/noteText.js';
import { sectionLabel } from '../../../core/markdown/sections.js';
import { conventionsFor } from '../../../services/conventions.js';
import { freshness, taskService, viewOf } from '../../../graph/access.js';
import { answer, compact, hintOut, hostStaleness, pathOut, waitInput } from '../results.js';
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

export const getContext = defineTool({
  name: 'get_context',
  title: 'Note context',
  family: 'graph',
  description: 'Everything around a note in one call: properties, times, hash, outline, open tasks, backlinks, links, folder peers, its _conventions.md, related notes. The body: read_note.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    path: pathOut,
    frontmatter: z.record(z.string(), z.unknown()).optional().describe('Properties'),
    tags: z.array(z.string()).optional().describe('Tags'),
    modified: z.string().describe('UTC'),
    created: z.string().describe('UTC'),
    content_hash: z.string().describe('For expected_hash'),
    outline: z.array(z.string()).optional().describe('Sections'),
    open_tasks: z.number().int().describe('Open tasks'),
    backlinks: z.array(z.string()).optional().describe(`Linking notes (top ${BACKLINKS})`),
    backlinks_total: z.number().int().describe('Linking notes'),
    links: z.array(z.string()).optional().describe(`Notes it links (${OUTLINKS})`),
    folder_peers: z.array(z.string()).optional().describe(`Newest ${PEERS} in its folder`),
    conventions: z.record(z.string(), z.string()).optional().describe('_conventions.md path → rules'),
    related: z.array(z.string()).optional().describe('Close in meaning'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const meta = await freshness(ctx, args.wait_for_pending_writes);
    const st = ctx.vault.requireNote(args.path);
    const snap = await readSnapshot(ctx.vault, st);
    const view = viewOf(ctx);
    const folder = dirname(st.path);
    const back = view.backlinks(st.path).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const targets = new Set<string>();
    const dangling = new Set<string>();
    for (const r of view.refs(st.path)) {
      if (r.target === st.path) continue;
      if (r.target) targets.add(r.target); else dangling.add(r.link.split('#')[0]);
    }
    const peers = ctx.vault.notes(folder).filter((f) => dirname(f.path) === folder && f.path !== st.path).sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
    const conv = (await conventionsFor(ctx.vault, folder, 4000)).filter((c) => c.path !== st.path).map((c) => ({ path: c.path, content: c.content }));
    const tasks = taskService(ctx);
    await tasks.settle(0);
    const openTasks = tasks.ofNote(st.path).filter((t) => t.status !== 'done' && t.status !== 'cancelled').length;
    const rel = await relatedNotes(ctx, st.path);
    const stale = hostStaleness(ctx, args.wait_for_pending_writes ? !meta.wait_timed_out : undefined);
    const out = compact({
      path: st.path,
      frontmatter: snap.frontmatter && Object.keys(snap.frontmatter).length ? snap.frontmatter : undefined,
      tags: snap.tags,
      modified: isoUtc(st.mtime), created: isoUtc(st.ctime), content_hash: snap.hash,
      outline: snap.outline.map(sectionLabel),
      open_tasks: openTasks,
      backlinks: back.slice(0, BACKLINKS).map(([p]) => p), backlinks_total: back.length,
      links: [...targets].slice(0, OUTLINKS),
      folder_peers: peers.slice(0, PEERS).map((f) => f.path),
      conventions: conv.length ? Object.fromEntries(conv.map((c) => [c.path, c.content])) : undefined,
      related: rel.related?.map((r) => r.path),
    });
    const lines = [
      `# ${st.path}`, `modified: ${out.modified}`, `created: ${out.created}`, `content_hash: ${out.content_hash}`,
      ...(snap.tags.length ? [`tags: ${snap.tags.join(' ')}`] : []),
      ...(snap.aliases.length ? [`aliases: ${snap.aliases.join(', ')}`] : []),
      ...(snap.outline.length ? [`outline: ${snap.outline.map(sectionLabel).join('; ')}`] : []),
      `open tasks: ${openTasks}`,
      `backlinks (${back.length}): ${back.slice(0, BACKLINKS).map(([p]) => p).join(', ') || 'none'}`,
      `links (${targets.size}): ${[...targets].slice(0, OUTLINKS).join(', ') || 'none'}${dangling.size ? `; dangling: ${[...dangling].join(', ')}` : ''}`,
      `folder peers (${peers.length}): ${peers.slice(0, PEERS).map((f) => f.path).join(', ') || 'none'}`,
      ...(conv.length ? conv.map((c) => `--- conventions ${c.path}\n${c.content.trimEnd()}`) : ['conventions: none']),
      ...(rel.related ? [`related: ${rel.related.map((r) => `${r.path} (${r.similarity})`).join(', ') || 'none'}`] : []),
    ];
    return { ...answer(out, lines.join('\n'), [
      dangling.size > 0 && `${dangling.size} link(s) open no note (${[...dangling].slice(0, 5).join(', ')}); see get_links.`,
      rel.note && `No related notes: ${rel.note}.`,
      stale.hint,
    ]), meta };
  },
});
