// semantic_search, hybrid_search, find_related, build_embeddings; the semantic index's status for stats.
// Hybrid search fuses the keyword ranking (deps.services.keyword, see src/search/types.ts) with the
// semantic ranking by weighted reciprocal rank fusion, the semantic arm weighed by its confidence
// (src/core/fusion.ts); when one arm is missing the page says so in `arms` on every return path, so an
// agent never mistakes a keyword-only page for a fused one.
import { z } from 'zod';
import { folderFilter, frontmatterFilter } from './args.js';
import { defineTool, READ_ONLY, type ToolContext } from '../tool.js';
import { answer, compact, hintOut, pathOut } from './results.js';
import type { ServerDeps } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { noteTitle } from '../../core/paths.js';
import { contentHash } from '../../core/hash.js';
import { rrf, semanticWeight } from '../../core/fusion.js';
import { notePredicate } from '../../semantic/filters.js';
import { SemanticUnavailable, type SemanticService } from '../../semantic/service.js';
import type { NoteHit, VectorStore } from '../../semantic/store.js';
import { FIRST_BUILD_WAIT_MS, staleStatus, waitAtMost, type KeywordRanker, type KeywordRanked } from '../../search/types.js';
import { runAsJob, workingFields, JOB_SOFT_DEADLINE_MS } from '../../jobs/jobs.js';

export const ROUTING = 'Exact identifiers, names: keyword_search; paraphrased: semantic_search; unsure: hybrid_search.';
const HYBRID_DEPTH = 50;

function semantic(deps: ServerDeps): SemanticService | undefined {
  return deps.services.semantic;
}
function keyword(deps: ServerDeps): KeywordRanker | undefined {
  const k = deps.services.keyword;
  return k && typeof k.rank === 'function' ? k : undefined;
}

const filterInput = {
  folder: folderFilter,
  tags: z.array(z.string()).optional().describe('Notes with all these tags'),
  frontmatter: frontmatterFilter,
};

const row = {
  path: pathOut,
  section: z.string().optional().describe('Best-matching section'),
  size: z.number().int().describe('Bytes'),
  preview: z.string().describe('Best-matching text'),
  stale: z.boolean().optional().describe('Changed since embedded'),
};

const pendingOut = {
  not_embedded: z.number().int().optional().describe('Notes not embedded yet'),
};

function collapse(s: string, max = 240): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The title the keyword index derived (frontmatter title, first-line H1…), when it is not the file name. */
function titleOf(ctx: ToolContext, path: string): { title?: string } {
  const t = keyword(ctx.deps)?.title?.(path);
  return t && t !== noteTitle(path) ? { title: t } : {};
}

async function describeHit(ctx: ToolContext, store: VectorStore, hit: { path: string; chunk: number }) {
  const e = store.notes.get(hit.path);
  const c = e?.chunks[hit.chunk];
  let preview = '';
  let stale = false;
  try {
    const bytes = await ctx.vault.host.readBytes(hit.path);
    stale = !!e && contentHash(bytes) !== e.hash;
    const text = new TextDecoder().decode(bytes);
    if (c) preview = collapse(text.slice(c.start, c.end));
  } catch { /* vanished between ranking and reading */ }
  return { path: hit.path, ...(c?.ordinal ? { section: `${c.ordinal} ${c.heading}` } : {}), size: ctx.vault.stat(hit.path)?.size ?? 0, preview, ...(stale ? { stale: true } : {}) };
}

function pendingInfo(svc: SemanticService, accept: (p: string) => boolean): { not_embedded?: number; not_embedded_sample?: string[] } {
  // not_embedded_sample is said in the hint only: the row count is in structuredContent.
  const list = svc.pendingVisible(accept);
  return list.length ? { not_embedded: list.length, not_embedded_sample: list.slice(0, 10) } : {};
}

/** The hint for notes the semantic ranking cannot see yet. */
function pendingHint(p: { not_embedded?: number; not_embedded_sample?: string[] }): string | null {
  return p.not_embedded ? `${p.not_embedded} notes in scope are not embedded yet and cannot rank (e.g. ${p.not_embedded_sample!.slice(0, 3).join(', ')}); see stats, or use keyword_search for them.` : null;
}

function unavailableMessage(e: unknown): string {
  return e instanceof SemanticUnavailable ? e.message : `the semantic index failed: ${(e as Error)?.message ?? e}`;
}

async function keywordAllMatched(k: KeywordRanker | undefined, query: string, accept: (p: string) => boolean, signal: AbortSignal): Promise<KeywordRanked[] | null> {
  if (!k || k.unavailableReason?.()) return null;
  return k.rank(query, { limit: HYBRID_DEPTH, accept, signal });
}

function staleMeta(deps: ServerDeps, svc: SemanticService | undefined) {
  return { index_stale: deps.host.pendingCount() > 0 || (svc?.pending.size ?? 0) > 0 };
}

/** The staleness sentence: notes still waiting to be parsed or (re)embedded. */
function staleHint(deps: ServerDeps, svc: SemanticService | undefined): string | null {
  const n = deps.host.pendingCount() + (svc?.pending.size ?? 0);
  return n > 0 ? `Index still building: ${n} notes are not (re)embedded yet, so results may be incomplete.` : null;
}

export const semanticSearch = defineTool({
  name: 'semantic_search',
  title: 'Semantic search',
  family: 'search',
  description: () =>
    `Find notes by meaning (local embeddings): similarity, size, preview and section of the best part. confidence "low": say so, do not trust the page. ${ROUTING}`,
  input: z.strictObject({
    query: z.string().min(1).describe('Question or description'),
    ...filterInput,
    limit: z.number().int().min(1).max(100).default(15).describe('Rows'),
  }),
  output: z.object({
    confidence: z.enum(['ok', 'low']).describe('low: weak match'),
    results: z.array(z.object({ ...row, similarity: z.number().describe('Cosine') })).describe('Best first'),
    ...pendingOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  available: (deps) => !!semantic(deps),
  async handler(args, ctx) {
    const svc = semantic(ctx.deps)!;
    const accept = notePredicate(ctx.vault, { folder: ctx.vault.folderArg(args.folder), tags: args.tags, frontmatter: args.frontmatter });
    let found: Awaited<ReturnType<SemanticService['search']>>;
    try {
      found = await svc.search(args.query, args.limit, accept);
    } catch (e) {
      refuse('unavailable', `Semantic search is unavailable: ${unavailableMessage(e)}. Use keyword_search (or hybrid_search, which falls back to keywords) meanwhile.`, { reason: unavailableMessage(e) });
    }
    const results = [];
    for (const h of found.hits) results.push({ ...(await describeHit(ctx, found.store, h)), similarity: Math.round(h.score * 1e4) / 1e4 });
    const best = found.hits[0]?.score ?? -1;
    let confidence: 'ok' | 'low' = 'ok';
    if (best < svc.settings().semanticLowSimilarity) {
      const kw = await keywordAllMatched(keyword(ctx.deps), args.query, accept, ctx.signal).catch(() => null);
      if (!kw?.some((r) => r.matchedAll)) confidence = 'low';
    }
    const pend = pendingInfo(svc, accept);
    const lines = results.map((r, i) => `${i + 1}. ${r.path}${r.section ? ` ${r.section}` : ''}  (similarity ${r.similarity.toFixed(3)})${r.stale ? ' [changed since embedded]' : ''}\n   ${r.preview}`);
    const text = [`confidence: ${confidence}`, ...(lines.length ? lines : ['No embedded note matches.'])].join('\n');
    return { ...answer({ confidence, results, ...pend }, text, [pendingHint(pend), staleHint(ctx.deps, svc)]), meta: staleMeta(ctx.deps, svc) };
  },
});

export const hybridSearch = defineTool({
  name: 'hybrid_search',
  title: 'Hybrid search',
  family: 'search',
  description: (deps) =>
    `Keyword and semantic rankings fused (weighted RRF, k=${(deps.settings().hybridRrfK as number | undefined) ?? 60}; the semantic arm weighed by how clearly its best matches stand out, semantic_weight 0–1): fused score, each arm's rank, size, section. arms says if one arm answered alone. ${ROUTING}`,
  input: z.strictObject({
    query: z.string().min(1).describe('Words, a name, or a question'),
    ...filterInput,
    limit: z.number().int().min(1).max(100).default(10).describe('Rows'),
  }),
  output: z.object({
    arms: z.string().describe('Arms used'),
    semantic_weight: z.number().optional().describe('Weight 0–1'),
    confidence: z.enum(['ok', 'low']).describe('low: weak match'),
    results: z.array(z.object({
      ...row,
      title: z.string().optional().describe('Title'),
      score: z.number().describe('Fused score'),
      keyword_rank: z.number().int().optional().describe('Keyword rank'),
      semantic_rank: z.number().int().optional().describe('Semantic rank'),
      similarity: z.number().optional().describe('Cosine'),
    })).describe('Best first'),
    ...pendingOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  available: (deps) => !!semantic(deps) || !!keyword(deps),
  async handler(args, ctx) {
    const deps = ctx.deps;
    const svc = semantic(deps);
    const kw = keyword(deps);
    const k = Number(deps.settings().hybridRrfK ?? 60) || 60;
    const accept = notePredicate(ctx.vault, { folder: ctx.vault.folderArg(args.folder), tags: args.tags, frontmatter: args.frontmatter });

    let kwRows: KeywordRanked[] | null = null;
    // The first search after start waits (bounded) for the first keyword build, then ranks what is
    // indexed so far and says so in structuredContent, instead of refusing.
    if (kw?.unavailableReason?.()) await waitAtMost(kw.ready?.(), FIRST_BUILD_WAIT_MS);
    const kwBuilding = kw?.unavailableReason?.() ?? null;
    let kwReason: string | null = kw ? null : 'keyword search is not installed on this server';
    if (kw) {
      try { kwRows = await kw.rank(args.query, { limit: HYBRID_DEPTH, accept, signal: ctx.signal }); } catch (e) { kwReason = `keyword search failed: ${(e as Error).message}`; }
    }
    let semHits: NoteHit[] | null = null;
    let store: VectorStore | null = null;
    let semReason: string | null = svc ? null : 'semantic search is not installed on this server';
    if (svc) {
      try { const r = await svc.search(args.query, HYBRID_DEPTH, accept); semHits = r.hits; store = r.store; } catch (e) { semReason = unavailableMessage(e); }
    }
    const arms = kwRows && semHits ? 'keyword+semantic'
      : kwRows ? `keyword-only (semantic unavailable: ${semReason})`
      : semHits ? `semantic-only (keyword unavailable: ${kwReason})`
      : null;
    if (!arms) refuse('unavailable', `Hybrid search cannot answer: arms: none (keyword unavailable: ${kwReason}; semantic unavailable: ${semReason}). Try again shortly, or use list_notes.`, { arms: 'none', keyword: kwReason, semantic: semReason });

    // With one arm missing the other ranks alone; with both, the semantic arm counts by its confidence.
    const ws = kwRows && semHits ? semanticWeight(semHits.map((h) => h.score)) : 1;
    const fused = rrf([kwRows?.map((r) => r.path) ?? [], semHits?.map((h) => h.path) ?? []], k, HYBRID_DEPTH, [1, ws]).slice(0, args.limit);
    const semByPath = new Map((semHits ?? []).map((h) => [h.path, h]));
    const results = [];
    for (const f of fused) {
      const sh = semByPath.get(f.id);
      const base = store && sh ? await describeHit(ctx, store, sh) : await keywordRow(ctx, f.id, args.query);
      results.push({ ...base, ...titleOf(ctx, f.id), score: Math.round(f.score * 1e6) / 1e6, ...(f.ranks[0] !== null ? { keyword_rank: f.ranks[0] } : {}), ...(f.ranks[1] !== null ? { semantic_rank: f.ranks[1] } : {}), ...(sh ? { similarity: Math.round(sh.score * 1e4) / 1e4 } : {}) });
    }
    const allKw = !!kwRows?.some((r) => r.matchedAll);
    const best = semHits?.[0]?.score ?? -1;
    const confidence: 'ok' | 'low' = allKw || (semHits !== null && best >= (svc?.settings().semanticLowSimilarity ?? 0.35)) ? 'ok' : 'low';
    const pend = svc && semHits ? pendingInfo(svc, accept) : {};
    const kwStale = !!kwBuilding || !!kw?.stale?.();
    // The semantic arm's weight in the fusion (0–1), only when both arms answered.
    const weight = kwRows && semHits ? { semantic_weight: Math.round(ws * 1000) / 1000 } : {};
    const lines = results.map((r, i) => `${i + 1}. ${r.path}${r.section ? ` ${r.section}` : ''}  (score ${r.score.toFixed(4)}; keyword #${r.keyword_rank ?? '–'}, semantic #${r.semantic_rank ?? '–'})${r.preview ? `\n   ${r.preview}` : ''}`);
    const text = [`arms: ${arms}${weight.semantic_weight !== undefined ? ` (semantic weight ${weight.semantic_weight})` : ''}`, `confidence: ${confidence}`, ...(lines.length ? lines : ['No note matches.'])].join('\n');
    return {
      ...answer({ arms, ...weight, confidence, results, ...pend }, text, [pendingHint(pend), kwStale && `Keyword index still building: ${staleStatus(kwBuilding)}`, staleHint(deps, svc)]),
      meta: { index_stale: staleMeta(deps, svc).index_stale || kwStale },
    };
  },
});

/** A row for a note only the keyword arm found: the first section containing a query word. */
async function keywordRow(ctx: ToolContext, path: string, query: string) {
  let preview = '';
  let section: string | null = null;
  let heading = '';
  try {
    const { readSnapshot } = await import('../../services/noteText.js');
    const stat = ctx.vault.stat(path);
    if (stat) {
      const snap = await readSnapshot(ctx.vault, stat);
      const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2);
      const lower = snap.text.toLowerCase();
      let at = -1;
      for (const w of words) { const i = lower.indexOf(w, snap.split.bodyStart); if (i >= 0 && (at < 0 || i < at)) at = i; }
      const pos = at < 0 ? snap.split.bodyStart : at;
      const entry = [...snap.outline].reverse().find((o) => o.start <= pos);
      if (entry && at >= 0) { section = entry.ordinal; heading = entry.text; }
      preview = collapse(snap.text.slice(Math.max(snap.split.bodyStart, pos - 60), pos + 180));
    }
  } catch { /* vanished */ }
  return { path, ...(section ? { section: `${section} ${heading}` } : {}), size: ctx.vault.stat(path)?.size ?? 0, preview };
}

export const findRelated = defineTool({
  name: 'find_related',
  title: 'Find related notes',
  family: 'search',
  description: 'Notes closest in meaning to a note, with similarity, size and best section.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    limit: z.number().int().min(1).max(50).default(10).describe('Rows'),
    folder: filterInput.folder,
  }),
  output: z.object({
    path: pathOut,
    confidence: z.enum(['ok', 'low']).describe('low: weak match'),
    results: z.array(z.object({ ...row, similarity: z.number().describe('Cosine') })).describe('Closest first'),
    ...pendingOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  available: (deps) => !!semantic(deps),
  async handler(args, ctx) {
    const svc = semantic(ctx.deps)!;
    const stat = ctx.vault.requireNote(args.path);
    const accept = notePredicate(ctx.vault, { folder: ctx.vault.folderArg(args.folder) });
    let found: Awaited<ReturnType<SemanticService['related']>>;
    try {
      found = await svc.related(stat.path, args.limit, accept);
    } catch (e) {
      refuse('unavailable', `find_related is unavailable: ${unavailableMessage(e)}. Use graph or keyword tools meanwhile.`, { reason: unavailableMessage(e) });
    }
    if (!found) refuse('unavailable', `"${stat.path}" could not be embedded (it is skipped by a glob or the model failed on it); see stats.`);
    const results = [];
    for (const h of found.hits) results.push({ ...(await describeHit(ctx, found.store, h)), similarity: Math.round(h.score * 1e4) / 1e4 });
    const confidence: 'ok' | 'low' = (found.hits[0]?.score ?? -1) >= svc.settings().semanticLowSimilarity ? 'ok' : 'low';
    const pend = pendingInfo(svc, accept);
    const text = [`related to ${stat.path} (confidence: ${confidence})`, ...results.map((r, i) => `${i + 1}. ${r.path}${r.section ? ` ${r.section}` : ''}  (similarity ${r.similarity.toFixed(3)})`)].join('\n');
    return { ...answer({ path: stat.path, confidence, results, ...pend }, text, [pendingHint(pend), staleHint(ctx.deps, svc)]), meta: staleMeta(ctx.deps, svc) };
  },
});

export const statusOut = {
  state: z.enum(['disabled', 'loading', 'indexing', 'ready', 'paused', 'unavailable']).describe('State'),
  reason: z.string().optional().describe('Why unavailable'),
  model: z.string().optional().describe('Model, backend, dims'),
  embedded: z.number().int().describe('Notes embedded'),
  chunks: z.number().int().describe('Vectors'),
  pending: z.number().int().describe('Notes queued'),
  failed: z.number().int().describe('Notes failed'),
  rebuilding: z.string().optional().describe('Why rebuilding'),
};
const buildOut = { state: statusOut.state, reason: statusOut.reason, embedded: statusOut.embedded, pending: statusOut.pending, failed: statusOut.failed };

/** The service's status without its null fields; the model named with its backend and vector size. */
function statusOf(s: ReturnType<SemanticService['status']>) {
  const how = [s.provider, s.dimensions ? `${s.dimensions} dims` : null].filter(Boolean).join(', ');
  return compact({ ...s, model: s.model || how ? `${s.model ?? 'no model'}${how ? ` (${how})` : ''}` : null });
}

function statusText(s: ReturnType<SemanticService['status']>): string {
  return `semantic index: ${s.state}${s.reason ? ` (${s.reason})` : ''}; model ${s.model ?? 'none'}${s.dimensions ? `, ${s.dimensions} dims` : ''}; ${s.embedded} notes / ${s.chunks} chunks embedded, ${s.pending} pending, ${s.failed} failed${s.rate ? `; ${s.rate} chunks/s` : ''}${s.rebuilding ? `; ${s.rebuilding}` : ''}`;
}

/**
 * The semantic index in detail, for stats(): a root-confined key gets counts over its own notes only,
 * never vault-wide ones. Null when semantic search is not configured.
 */
export async function semanticStatus(ctx: ToolContext): Promise<{ structured: ReturnType<typeof statusOf>; text: string } | null> {
  const svc = semantic(ctx.deps);
  if (!svc) return null;
  const loaded = await svc.ready().catch(() => null);
  let s = svc.status();
  if (ctx.caller.root) {
    const vis = (p: string) => ctx.vault.visible(p);
    let embedded = 0, chunks = 0, failed = 0;
    if (loaded) {
      for (const [p, e] of loaded.store.notes) if (vis(p)) { embedded++; chunks += e.chunks.length; }
      for (const p of loaded.store.failed.keys()) if (vis(p)) failed++;
    }
    s = { ...s, embedded, chunks, failed, pending: loaded ? svc.pendingVisible(vis).length : ctx.vault.notes().length, rate: null, index_bytes: null };
  }
  return { structured: statusOf(s), text: statusText(s) };
}

export const buildEmbeddings = defineTool({
  name: 'build_embeddings',
  title: 'Build the embedding index',
  family: 'admin',
  description: `Embed new and changed notes now; force=true drops all vectors and re-embeds (semantic search incomplete meanwhile). Notes are not changed. Past ${JOB_SOFT_DEADLINE_MS / 1000} s: "working", poll get_job_result.`,
  input: z.strictObject({
    force: z.boolean().default(false).describe('Drop and rebuild'),
  }),
  output: z.object({
    status: z.enum(['done', 'working']).describe('working: poll get_job_result'),
    ...workingFields,
    ...buildOut,
    hint: hintOut,
  }),
  // It changes server state, not notes; force=true throws the vectors away: not read-only, destructive.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  available: (deps) => !!semantic(deps),
  async handler(args, ctx) {
    const svc = semantic(ctx.deps)!;
    // The shared job mechanism (src/jobs/jobs.ts): past the soft deadline the answer is "working" with
    // a job id for get_job_result; concurrent calls (any key) join one build. The model load happens
    // inside the job too, so a slow first load is covered by the soft deadline.
    type Out = { status: 'done' | 'working' } & ReturnType<typeof statusOf>;
    return runAsJob<Out>(ctx, 'build_embeddings', async (job) => {
      job.progress('loading the embedding model');
      try { await svc.ready(); } catch (e) {
        refuse('unavailable', `Cannot build embeddings: ${unavailableMessage(e)}.`, { reason: unavailableMessage(e) });
      }
      const off = svc.onProgress((st) => job.progress(`${st.embedded} notes embedded, ${st.pending} pending`, st.embedded, st.embedded + st.pending));
      try {
        await svc.build(args.force, 2 ** 31 - 1);
      } finally { off(); }
      const s = svc.status();
      return { structured: { status: 'done', ...statusOf(s) }, text: `done: ${statusText(s)}` };
    }, {
      share: args.force ? 'build_embeddings:force' : 'build_embeddings',
      working: (w) => { const s = svc.status(); return { structured: { ...w, ...statusOf(s), status: 'working' }, text: `${w.hint}\n${statusText(s)}` }; },
    });
  },
});

export const semanticTools = [semanticSearch, hybridSearch, findRelated, buildEmbeddings];
