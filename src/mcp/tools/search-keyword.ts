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
import { snippetInSlices } from '../../search/snippet.js';
import { slicePause } from '../../search/persist.js';
import { SLICE_MS } from '../../services/slicer.js';
import { buildOutline, sectionAt, sectionLabel } from '../../core/markdown/sections.js';
import { answer, cursorField, hintOut, nextCursorOut, pathOut, waitInput } from './results.js';
import type { HitKey } from '../../search/rank.js';
import { noteTitle } from '../../core/paths.js';
import { runAsJob, workingFields } from '../../jobs/jobs.js';
import { clearInterval, setInterval } from 'node:timers';
import { FIRST_BUILD_WAIT_MS, waitAtMost } from '../../search/types.js';

function keyword(deps: ServerDeps): KeywordService | undefined {
  const k = deps.services.keyword;
  return k && typeof (k as { search?: unknown }).search === 'function' ? k : undefined;
}

const CURSOR_KIND = 'kw';


function fingerprint(args: Record<string, unknown>): string {
  const { cursor: _c, limit: _l, wait_for_pending_writes: _w, ...rest } = args;
  return contentHash(JSON.stringify(rest)).slice(7, 23);
}

export const keywordSearch = defineTool({
  name: 'keyword_search',
  title: 'Keyword search',
  family: 'search',
  description:
    'Find notes by words, names, identifiers: per note its size, matched fields, a snippet with hits in **bold**, and the section where they match (for read_note). ' +
    'Notes with every word first. Syntax: "phrase", prefix*, -exclude, a OR b.',
  input: z.strictObject({
    query: z.string().min(1).max(10_000).describe('Words'),
    folder: folderFilter,
    tags: z.array(z.string()).optional().describe('Notes with all these tags'),
    frontmatter: frontmatterFilter,
    limit: z.number().int().min(1).max(100).default(20).describe('Rows per page'),
    cursor: z.string().optional().describe('next_cursor'),
    wait_for_pending_writes: waitInput,
  }),
  output: z.object({
    results: z.array(z.object({
      path: pathOut,
      title: z.string().optional().describe('Title'),
      score: z.number().describe('Relevance'),
      match: z.enum(['all', 'any']).describe('all words, or some'),
      fields: z.array(z.string()).describe('Where: title, body…'),
      size: z.number().int().describe('Bytes'),
      section: z.string().optional().describe('Where the words are'),
      snippet: z.string().describe('Hits in context'),
    })).describe('Best first'),
    total: z.number().int().describe('Notes matching'),
    total_all: z.number().int().describe('With every word'),
    next_cursor: nextCursorOut,
    hint: hintOut,
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
    const pause = slicePause(SLICE_MS); // a long note's snippet in pieces (search/snippet.ts)
    for (const h of page) {
      let text = '';
      try { text = await ctx.vault.host.readText(h.path); } catch { /* vanished since indexed */ }
      const opening = h.fields.includes('title') || h.fields.includes('aliases');
      const snip = await snippetInSlices(text, { exact, prefixes }, svc.analyzerInUse, opening, pause);
      // The section where the words match (not for a title/alias hit, whose snippet is the opening).
      const where = !opening && text ? sectionAt(buildOutline(text, ctx.vault.metadata(h.path)?.headings), snip.offset) : null;
      results.push({
        path: h.path,
        // The title people wrote (frontmatter title, H1, name without a date/id prefix) when it is
        // not just the file name: the path already says that.
        ...(h.title && h.title !== noteTitle(h.path) ? { title: h.title } : {}),
        score: Math.round(h.score * 1000) / 1000,
        match: h.matchedAll ? 'all' as const : 'any' as const,
        fields: h.fields,
        size: ctx.vault.stat(h.path)?.size ?? text.length,
        ...(where ? { section: sectionLabel(where) } : {}),
        snippet: snip.text,
      });
    }
    const last = page[page.length - 1];
    const next_cursor = last && more ? encodeCursor({ k: CURSOR_KIND, q: fp, g: last.matchedAll ? 0 : 1, s: last.score, p: last.path }) : null;
    const stale = svc.stale();
    const pending = stale ? svc.status().pending : 0;
    const lines = results.map((r, i) => `${offset + i + 1}. ${r.path}${r.section ? ` ${r.section}` : ''}  (score ${r.score}, ${r.match === 'all' ? 'all terms' : 'some terms'}; ${r.fields.join(', ')}; ${r.size} B)\n   ${r.snippet}`);
    const body = [
      ...(lines.length ? lines : [`No note matches "${args.query}".${parsed.clauses.length ? '' : ' (The query has no searchable words.)'}`]),
      `${total} matching note(s), ${totalAll} with every term.`,
    ].join('\n');
    const res = answer({ results, total, total_all: totalAll, ...cursorField(next_cursor) }, body, [
      next_cursor && `More: pass next_cursor as cursor (${offset + results.length} of ${total} shown).`,
      stale && `Index still building: ${svc.unavailableReason() ?? `${pending || 'some'} notes are not indexed yet`}; results may be incomplete. Pass wait_for_pending_writes=true for a complete answer.`,
    ]);
    return { ...res, meta: { index_stale: stale, ...(waited === false ? { wait_timed_out: true } : {}) } };
  },
});

const statusOut = {
  state: z.string().describe('ready, building…'),
  indexed: z.number().int().describe('Notes in it'),
  pending: z.number().int().describe('Notes waiting'),
  detail: z.string().optional().describe('Why'),
};

const reindexOutput = z.object({
  status: z.enum(['done', 'working']).describe('working: poll get_job_result'),
  ...workingFields,
  ...statusOut,
  hint: hintOut,
});
type ReindexOut = z.infer<typeof reindexOutput>;

export const reindex = defineTool({
  name: 'reindex',
  title: 'Rebuild the keyword index',
  family: 'admin',
  description: 'Bring the keyword index up to date; force=true drops and rebuilds it (search incomplete meanwhile). Notes are not changed. Long runs answer "working": poll get_job_result.',
  input: z.strictObject({
    force: z.boolean().default(false).describe('Drop the index and rebuild it'),
  }),
  output: reindexOutput,
  // It changes server state, not notes; force=true throws the index away: not read-only, destructive.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  available: (deps) => !!keyword(deps),
  async handler(args, ctx) {
    const svc = keyword(ctx.deps)!;
    const snapshot = () => {
      const s = svc.status();
      return { state: s.state, indexed: s.indexed, pending: s.pending, ...(s.skipped ? { skipped: s.skipped } : {}), ...(s.detail ? { detail: s.detail } : {}) };
    };
    return runAsJob<ReindexOut>(ctx, 'reindex', async (job) => {
      const report = () => { const p = svc.details().progress; job.progress(`${p.done} of ${p.total} notes`, p.done, p.total); };
      const timer = setInterval(report, 500);
      (timer as { unref?: () => void }).unref?.();
      try { await svc.reindex(args.force); } finally { clearInterval(timer); }
      const base = snapshot();
      const out: ReindexOut = { status: 'done', ...base };
      return { structured: out, text: `done: keyword index ${base.state}, ${base.indexed} notes indexed, ${base.pending} pending${base.skipped ? `, ${base.skipped} skipped` : ''}${base.detail ? ` (${base.detail})` : ''}` };
    }, { share: 'reindex', working: (w) => ({ structured: { ...w, ...snapshot() }, text: w.hint }) });
  },
});

export const keywordTools = [keywordSearch, reindex];
