// keyword_search and reindex: the MiniSearch keyword index (src/search/service.ts) as tools.
import { z } from 'zod';
import { folderFilter, frontmatterFilter } from './args.js';
import { defineTool, READ_ONLY } from '../tool.js';
import type { ServerDeps } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { decodeCursor, encodeCursor } from '../../core/cursor.js';
import { contentHash } from '../../core/hash.js';
import { notePredicate } from '../../semantic/filters.js';
import type { KeywordService } from '../../search/service.js';
import { snippet } from '../../search/snippet.js';
import type { HitKey } from '../../search/rank.js';
import { runAsJob, workingFields } from '../../jobs/jobs.js';
import { clearInterval, setInterval } from 'node:timers';
import { FIRST_BUILD_WAIT_MS, staleStatus, waitAtMost } from '../../search/types.js';

function keyword(deps: ServerDeps): KeywordService | undefined {
  const k = deps.services.keyword;
  return k && typeof (k as { search?: unknown }).search === 'function' ? k : undefined;
}

const CURSOR_KIND = 'kw';

/** Staleness in structuredContent (clients such as Claude Code show the model nothing else). */
export const staleOut = {
  index_stale: z.boolean().describe('True while some notes are not indexed yet (first build after start, or changes moments ago): results may miss them'),
  index_status: z.string().optional().describe('When index_stale: how far indexing is and what to do for a complete answer'),
};

function fingerprint(args: Record<string, unknown>): string {
  const { cursor: _c, limit: _l, wait_for_pending_writes: _w, ...rest } = args;
  return contentHash(JSON.stringify(rest)).slice(7, 23);
}

export const keywordSearch = defineTool({
  name: 'keyword_search',
  title: 'Keyword search',
  family: 'search',
  description:
    'Find notes by words, names, titles and identifiers. One row per note: path, title, score, the fields that matched (title, aliases, headings, tags, body) and a snippet with the matched words in **bold** (a title or alias match shows the note\'s opening words). ' +
    'Ranking puts title and alias matches above headings, tags and body text. Words are ANDed: rows with `match: "all"` contain every term; `match: "any"` rows (some terms only) follow them. ' +
    'Syntax: "exact phrase", prefix*, -excluded, a OR b; anything else (bge-m3, C++, foo:bar) is searched literally. Case, accents and diacritics are ignored; CJK and Thai text is segmented into words. ' +
    'Filters (folder, tags, frontmatter) apply before the limit. Page with next_cursor. _meta.index_stale is true while notes are still being (re)indexed; pass wait_for_pending_writes=true to wait for them. ' +
    'For paraphrased questions use semantic_search or hybrid_search when listed.',
  input: z.strictObject({
    query: z.string().min(1).max(10_000).describe('Words to find; supports "phrase", prefix*, -exclude, OR'),
    folder: folderFilter,
    tags: z.array(z.string()).optional().describe('Only notes carrying every one of these tags (frontmatter or inline; "a" also matches "#a/b")'),
    frontmatter: frontmatterFilter,
    limit: z.number().int().min(1).max(100).default(20).describe('Rows per page (max 100)'),
    cursor: z.string().optional().describe('next_cursor from the previous page of the same query'),
    wait_for_pending_writes: z.boolean().default(false).describe('Wait (up to 10 s) until every pending note change is indexed before searching'),
  }),
  output: z.object({
    query: z.string(),
    results: z.array(z.object({
      path: z.string(),
      title: z.string(),
      score: z.number(),
      match: z.enum(['all', 'any']).describe('"all": the note has every query term; "any": only some'),
      fields: z.array(z.string()).describe('Fields that matched: title, aliases, headings, tags, body'),
      snippet: z.string(),
    })),
    total: z.number().int().describe('Matching notes (all pages)'),
    total_all: z.number().int().describe('Of those, notes matching every term'),
    next_cursor: z.string().nullable(),
    ...staleOut,
  }),
  annotations: READ_ONLY,
  available: (deps) => !!keyword(deps),
  async handler(args, ctx) {
    const svc = keyword(ctx.deps)!;
    let waited: boolean | null = null;
    if (args.wait_for_pending_writes) waited = await svc.waitForPending(10_000);
    // The first search after start waits (bounded) for the first build, then answers from what is indexed.
    if (svc.unavailableReason() && !args.wait_for_pending_writes) await waitAtMost(svc.ready(), FIRST_BUILD_WAIT_MS);
    const accept = notePredicate(ctx.vault, { folder: ctx.vault.folderArg(args.folder), tags: args.tags, frontmatter: args.frontmatter });
    const fp = fingerprint(args);
    let after: HitKey | undefined;
    if (args.cursor) {
      const c = decodeCursor<{ k: string; q: string; g: number; s: number; p: string }>(args.cursor, CURSOR_KIND);
      if (c.q !== fp) refuse('invalid_argument', 'This cursor belongs to a different query or filters; repeat the same query and filters, or drop the cursor to start over.');
      after = { matchedAll: c.g === 0, score: c.s, path: c.p };
    }
    // Only the page is selected and gets snippets; totals count every match.
    const { hits: page, parsed, total, totalAll, offset } = await svc.search(args.query, { accept, signal: ctx.signal, limit: args.limit + 1, after });
    const more = page.length > args.limit;
    if (more) page.pop();
    const exact = new Set<string>();
    const prefixes: string[] = [];
    for (const a of parsed.clauses.flatMap((c) => c.alts)) for (const t of a.terms) (a.kind === 'prefix' ? prefixes.push(t) : exact.add(t));
    const results = [];
    for (const h of page) {
      let text = '';
      try { text = await ctx.vault.host.readText(h.path); } catch { /* vanished since indexed */ }
      const opening = h.fields.includes('title') || h.fields.includes('aliases');
      results.push({
        path: h.path,
        title: h.title,
        score: Math.round(h.score * 1000) / 1000,
        match: h.matchedAll ? 'all' as const : 'any' as const,
        fields: h.fields,
        snippet: snippet(text, { exact, prefixes }, svc.analyzerInUse, opening),
      });
    }
    const last = page[page.length - 1];
    const next_cursor = last && more ? encodeCursor({ k: CURSOR_KIND, q: fp, g: last.matchedAll ? 0 : 1, s: last.score, p: last.path }) : null;
    const stale = svc.stale();
    const out = { query: args.query, results, total, total_all: totalAll, next_cursor, index_stale: stale, ...(stale ? { index_status: staleStatus(svc.unavailableReason()) } : {}) };
    const lines = results.map((r, i) => `${offset + i + 1}. ${r.path}  (score ${r.score}, ${r.match === 'all' ? 'all terms' : 'some terms'}; ${r.fields.join(', ')})\n   ${r.snippet}`);
    const text = [
      ...(lines.length ? lines : [`No note matches "${args.query}".${parsed.clauses.length ? '' : ' (The query has no searchable words.)'}`]),
      `${total} matching note(s), ${totalAll} with every term${next_cursor ? '; more with next_cursor' : ''}.`,
      ...(stale ? ['Some notes are still being indexed (index_stale); pass wait_for_pending_writes=true for a complete answer.'] : []),
    ].join('\n');
    return { structured: out, text, meta: { index_stale: stale, ...(waited === false ? { wait_timed_out: true } : {}) } };
  },
});

const statusOut = {
  state: z.string(),
  indexed: z.number().int(),
  pending: z.number().int(),
  skipped: z.number().int(),
  detail: z.string().nullable(),
};

const reindexOutput = z.object({
  status: z.enum(['done', 'working']),
  ...workingFields,
  ...statusOut,
});
type ReindexOut = z.infer<typeof reindexOutput>;

export const reindex = defineTool({
  name: 'reindex',
  title: 'Rebuild the keyword index',
  family: 'admin',
  description: 'Re-check every note against the keyword index and index what changed (force=true drops the index and rebuilds it from every note). Work that outlasts the soft deadline (25 s by default) returns {status: "working", job_id, retry_after_s}: poll get_job_result(job_id) for the final answer; calling reindex again meanwhile joins the running run. Does not modify notes.',
  input: z.strictObject({
    force: z.boolean().default(false).describe('Drop the keyword index and rebuild it from scratch'),
  }),
  output: reindexOutput,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  available: (deps) => !!keyword(deps),
  async handler(args, ctx) {
    const svc = keyword(ctx.deps)!;
    const snapshot = () => {
      const s = svc.status();
      return { state: s.state, indexed: s.indexed, pending: s.pending, skipped: s.skipped ?? 0, detail: s.detail ?? null };
    };
    return runAsJob<ReindexOut>(ctx, 'reindex', async (job) => {
      const report = () => { const p = svc.details().progress; job.progress(`${p.done} of ${p.total} notes`, p.done, p.total); };
      const timer = setInterval(report, 500);
      (timer as { unref?: () => void }).unref?.();
      try { await svc.reindex(args.force); } finally { clearInterval(timer); }
      const base = snapshot();
      const out: ReindexOut = { status: 'done', ...base };
      return { structured: out, text: `done: keyword index ${base.state}, ${base.indexed} notes indexed, ${base.pending} pending, ${base.skipped} skipped${base.detail ? ` (${base.detail})` : ''}` };
    }, { share: 'reindex', working: (w) => ({ structured: { ...w, ...snapshot() }, text: w.message }) });
  },
});

export const keywordTools = [keywordSearch, reindex];
