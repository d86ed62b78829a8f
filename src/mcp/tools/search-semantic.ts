// semantic_search, hybrid_search, find_related, build_embeddings, embeddings_status.
// Hybrid search fuses the keyword ranking (deps.services.keyword, see src/search/types.ts) with the
// semantic ranking by weighted reciprocal rank fusion, the semantic arm weighed by its confidence
// (src/core/fusion.ts); when one arm is missing the page says so in `arms` on every return path, so an
// agent never mistakes a keyword-only page for a fused one.
import { z } from 'zod';
import { folderFilter, frontmatterFilter } from './args.js';
import { defineTool, READ_ONLY, type ToolContext } from '../tool.js';
import type { ServerDeps } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { noteTitle } from '../../core/paths.js';
import { contentHash } from '../../core/hash.js';
import { rrf, semanticWeight } from '../../core/fusion.js';
import { notePredicate } from '../../semantic/filters.js';
import { SemanticUnavailable, type SemanticService } from '../../semantic/service.js';
import type { NoteHit, VectorStore } from '../../semantic/store.js';
import { FIRST_BUILD_WAIT_MS, staleStatus, waitAtMost, type KeywordRanker, type KeywordRanked } from '../../search/types.js';
import { staleOut } from './search-keyword.js';
import { runAsJob, workingFields, JOB_SOFT_DEADLINE_MS } from '../../jobs/jobs.js';

export const ROUTING = 'Routing: exact identifiers, names and titles → keyword_search; paraphrased or conceptual questions → semantic_search; unsure → hybrid_search.';
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
  tags: z.array(z.string()).optional().describe('Only notes carrying every one of these tags ("project" also matches "#project/sub")'),
  frontmatter: frontmatterFilter,
};

const row = {
  path: z.string(),
  title: z.string(),
  section: z.string().nullable().describe('Ordinal "#N" of the best-matching section: pass as read_note(path, section=…); null = text before the first heading'),
  heading: z.string().describe('Heading of that section ("" before the first heading)'),
  preview: z.string().describe('Start of the best-matching chunk'),
  stale: z.boolean().optional().describe('The note changed after it was embedded; it is queued again'),
};

const pendingOut = {
  not_embedded: z.number().int().describe('Notes in scope not yet (re)embedded: they cannot appear in the semantic ranking yet'),
  not_embedded_sample: z.array(z.string()).describe('Up to 10 of them'),
};

function collapse(s: string, max = 240): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** The title the keyword index derived (frontmatter title, first-line H1…), else the file name. */
function titleOf(ctx: ToolContext, path: string): string {
  return keyword(ctx.deps)?.title?.(path) ?? noteTitle(path);
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
  return { path: hit.path, title: titleOf(ctx, hit.path), section: c?.ordinal ?? null, heading: c?.heading ?? '', preview, ...(stale ? { stale: true } : {}) };
}

function pendingInfo(svc: SemanticService, accept: (p: string) => boolean) {
  const list = svc.pendingVisible(accept);
  return { not_embedded: list.length, not_embedded_sample: list.slice(0, 10) };
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

export const semanticSearch = defineTool({
  name: 'semantic_search',
  title: 'Semantic search',
  family: 'search',
  description: () =>
    'Find notes by meaning with a local embedding model: one row per note with its similarity (cosine, -1..1), the best chunk\'s preview and its section ordinal for read_note(section=…). ' +
    'Filters (folder, tags, frontmatter) are applied before ranking, so a page is never starved. ' +
    '`confidence: low` means the best similarity is weak and no note contains every word of the query: say so rather than trusting the page. ' +
    `${ROUTING} When no model is installed the call says so; use keyword_search then.`,
  input: z.strictObject({
    query: z.string().min(1).describe('A question or description in natural language'),
    ...filterInput,
    limit: z.number().int().min(1).max(100).default(15).describe('Rows (max 100)'),
  }),
  output: z.object({
    query: z.string(),
    confidence: z.enum(['ok', 'low']),
    results: z.array(z.object({ ...row, similarity: z.number() })),
    ...pendingOut,
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
    const out = { query: args.query, confidence, results, ...pendingInfo(svc, accept) };
    const lines = results.map((r, i) => `${i + 1}. ${r.path}${r.section ? ` ${r.section} ${r.heading}` : ''}  (similarity ${r.similarity.toFixed(3)})${r.stale ? ' [changed since embedded]' : ''}\n   ${r.preview}`);
    const text = [`confidence: ${confidence}`, ...(lines.length ? lines : ['No embedded note matches.']), ...(out.not_embedded ? [`${out.not_embedded} note(s) in scope not embedded yet.`] : [])].join('\n');
    return { structured: out, text, meta: staleMeta(ctx.deps, svc) };
  },
});

export const hybridSearch = defineTool({
  name: 'hybrid_search',
  title: 'Hybrid search',
  family: 'search',
  description: (deps) =>
    `Keyword and semantic search fused by weighted reciprocal rank fusion (k=${(deps.settings().hybridRrfK as number | undefined) ?? 60}, each arm's top ${HYBRID_DEPTH}): each row has the fused score and each arm's rank, plus the section ordinal to open with read_note(section=…). ` +
    'The semantic arm counts in proportion to its confidence (`semantic_weight`, 0–1: how clearly its best matches stand out from the rest), so a model that cannot tell the notes apart does not drag the keyword ranking down. ' +
    'When the semantic arm is unavailable the page is the keyword ranking and `arms` says "keyword-only (semantic unavailable: <reason>)". ' +
    `\`confidence: low\` means no note matched every keyword and the best similarity is weak. ${ROUTING}`,
  input: z.strictObject({
    query: z.string().min(1).describe('Words, a name, or a question'),
    ...filterInput,
    limit: z.number().int().min(1).max(100).default(10).describe('Rows (max 100)'),
  }),
  output: z.object({
    query: z.string(),
    arms: z.string().describe('"keyword+semantic", or which arm answered alone and why the other could not'),
    semantic_weight: z.number().nullable().describe('Weight of the semantic arm in the fusion (0–1; the keyword arm counts 1); null when one arm is missing'),
    confidence: z.enum(['ok', 'low']),
    results: z.array(z.object({
      ...row,
      score: z.number().describe('Fused RRF score (or the single arm\'s RRF score when one arm is missing)'),
      keyword_rank: z.number().int().nullable().describe('1-based rank in the keyword arm, null when absent from its top 50'),
      semantic_rank: z.number().int().nullable().describe('1-based rank in the semantic arm, null when absent or unavailable'),
      similarity: z.number().nullable(),
    })),
    ...pendingOut,
    ...staleOut,
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
      results.push({ ...base, score: Math.round(f.score * 1e6) / 1e6, keyword_rank: f.ranks[0], semantic_rank: f.ranks[1], similarity: sh ? Math.round(sh.score * 1e4) / 1e4 : null });
    }
    const allKw = !!kwRows?.some((r) => r.matchedAll);
    const best = semHits?.[0]?.score ?? -1;
    const confidence: 'ok' | 'low' = allKw || (semHits !== null && best >= (svc?.settings().semanticLowSimilarity ?? 0.35)) ? 'ok' : 'low';
    const pend = svc && semHits ? pendingInfo(svc, accept) : { not_embedded: 0, not_embedded_sample: [] };
    const stale = staleMeta(deps, svc).index_stale || !!kwBuilding || !!kw?.stale?.();
    const out = { query: args.query, arms, semantic_weight: kwRows && semHits ? Math.round(ws * 1000) / 1000 : null, confidence, results, ...pend, index_stale: stale, ...(stale ? { index_status: staleStatus(kwBuilding) } : {}) };
    const lines = results.map((r, i) => `${i + 1}. ${r.path}${r.section ? ` ${r.section} ${r.heading}` : ''}  (score ${r.score.toFixed(4)}; keyword #${r.keyword_rank ?? '–'}, semantic #${r.semantic_rank ?? '–'})${r.preview ? `\n   ${r.preview}` : ''}`);
    const text = [`arms: ${arms}${out.semantic_weight !== null ? ` (semantic weight ${out.semantic_weight})` : ''}`, `confidence: ${confidence}`, ...(stale ? [out.index_status!] : []), ...(lines.length ? lines : ['No note matches.'])].join('\n');
    return { structured: out, text, meta: staleMeta(deps, svc) };
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
  return { path, title: titleOf(ctx, path), section, heading, preview };
}

export const findRelated = defineTool({
  name: 'find_related',
  title: 'Find related notes',
  family: 'search',
  description: 'Notes closest in meaning to a given note (its averaged chunk vectors), the note itself excluded; each row has the similarity and the best-matching section ordinal. Needs an embedding model, like semantic_search. ' + ROUTING,
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path'),
    limit: z.number().int().min(1).max(50).default(10).describe('Rows (max 50)'),
    folder: filterInput.folder,
  }),
  output: z.object({
    path: z.string(),
    confidence: z.enum(['ok', 'low']),
    results: z.array(z.object({ ...row, similarity: z.number() })),
    ...pendingOut,
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
    if (!found) refuse('unavailable', `"${stat.path}" could not be embedded (it is skipped by a glob or the model failed on it); see embeddings_status.`);
    const results = [];
    for (const h of found.hits) results.push({ ...(await describeHit(ctx, found.store, h)), similarity: Math.round(h.score * 1e4) / 1e4 });
    const confidence: 'ok' | 'low' = (found.hits[0]?.score ?? -1) >= svc.settings().semanticLowSimilarity ? 'ok' : 'low';
    const out = { path: stat.path, confidence, results, ...pendingInfo(svc, accept) };
    const text = [`related to ${stat.path} (confidence: ${confidence})`, ...results.map((r, i) => `${i + 1}. ${r.path}${r.section ? ` ${r.section} ${r.heading}` : ''}  (similarity ${r.similarity.toFixed(3)})`)].join('\n');
    return { structured: out, text, meta: staleMeta(ctx.deps, svc) };
  },
});

const statusOut = {
  state: z.enum(['disabled', 'loading', 'indexing', 'ready', 'paused', 'unavailable']),
  reason: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  dimensions: z.number().int().nullable(),
  embedded: z.number().int().describe('Notes with vectors'),
  chunks: z.number().int(),
  pending: z.number().int().describe('Notes queued for (re)embedding'),
  failed: z.number().int(),
  rate: z.number().nullable().describe('Chunks per second during the last indexing run'),
  paused: z.boolean(),
  rebuilding: z.string().nullable().describe('Why the saved index was dropped and is being rebuilt'),
  index_bytes: z.number().int().nullable(),
};

function statusText(s: z.infer<z.ZodObject<typeof statusOut>>): string {
  return `semantic index: ${s.state}${s.reason ? ` (${s.reason})` : ''}; model ${s.model ?? 'none'}${s.dimensions ? `, ${s.dimensions} dims` : ''}; ${s.embedded} notes / ${s.chunks} chunks embedded, ${s.pending} pending, ${s.failed} failed${s.rate ? `; ${s.rate} chunks/s` : ''}${s.rebuilding ? `; ${s.rebuilding}` : ''}`;
}

export const embeddingsStatus = defineTool({
  name: 'embeddings_status',
  title: 'Embedding index status',
  family: 'search',
  description: 'State of the semantic index: provider, model, dimensions, embedded / pending / failed note counts and indexing rate. Loads the model and index if they are not loaded yet.',
  input: z.strictObject({}),
  output: z.object(statusOut),
  annotations: READ_ONLY,
  available: (deps) => !!semantic(deps),
  async handler(_args, ctx) {
    const svc = semantic(ctx.deps)!;
    const loaded = await svc.ready().catch(() => null);
    let s = svc.status();
    if (ctx.caller.root) {
      // A root-confined key gets counts over its own notes only, never vault-wide ones.
      const vis = (p: string) => ctx.vault.visible(p);
      let embedded = 0, chunks = 0, failed = 0;
      if (loaded) {
        for (const [p, e] of loaded.store.notes) if (vis(p)) { embedded++; chunks += e.chunks.length; }
        for (const p of loaded.store.failed.keys()) if (vis(p)) failed++;
      }
      s = { ...s, embedded, chunks, failed, pending: loaded ? svc.pendingVisible(vis).length : ctx.vault.notes().length, rate: null, index_bytes: null };
    }
    return { structured: s, text: statusText(s) };
  },
});

export const buildEmbeddings = defineTool({
  name: 'build_embeddings',
  title: 'Build the embedding index',
  family: 'admin',
  description: `Embed every new or changed note now (force=true drops the index and re-embeds everything). Work that outlasts the soft deadline (${JOB_SOFT_DEADLINE_MS / 1000} s by default) returns {status: "working", job_id, retry_after_s}; finish it with get_job_result(job_id) (calling build_embeddings again joins the running build). Does not modify notes.`,
  input: z.strictObject({
    force: z.boolean().default(false).describe('Drop all vectors and re-embed every note'),
  }),
  output: z.object({
    status: z.enum(['done', 'working']),
    ...workingFields,
    ...statusOut,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  available: (deps) => !!semantic(deps),
  async handler(args, ctx) {
    const svc = semantic(ctx.deps)!;
    // The shared job mechanism (src/jobs/jobs.ts): past the soft deadline the answer is "working" with
    // a job id for get_job_result; concurrent calls (any key) join one build. The model load happens
    // inside the job too, so a slow first load is covered by the soft deadline.
    type Out = { status: 'done' | 'working' } & ReturnType<SemanticService['status']>;
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
      return { structured: { status: 'done', ...s }, text: `done: ${statusText(s)}` };
    }, {
      share: args.force ? 'build_embeddings:force' : 'build_embeddings',
      working: (w) => { const s = svc.status(); return { structured: { ...w, ...s, status: 'working' }, text: `${w.message}\n${statusText(s)}` }; },
    });
  },
});

export const semanticTools = [semanticSearch, hybridSearch, findRelated, embeddingsStatus, buildEmbeddings];
