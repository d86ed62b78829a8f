// summarize: notes and folders summarised by the language model the vault owner configured
// (src/llm/), with honest coverage figures (notes_included / notes_omitted / skipped / truncated and
// one hint per cause). Large selections are map-reduced: notes packed into batches up to
// summarizeBatchChars, each batch summarised, then combined. Slow calls become background jobs.
import { nodeTransport } from '../../llm/nodeTransport.js';
import { z } from 'zod';
import { defineTool, type ToolContext, type ToolResult } from '../tool.js';
import type { ServerDeps } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { runAsJob, workingFields, type JobHandle } from '../../jobs/jobs.js';
import { chat, LlmError, type ChatMessage, type ChatReply } from '../../llm/client.js';
import { destination, llmConfig, llmConfigured, llmSettings, llmTransport } from '../../llm/settings.js';
import { fitNote, mapLimit, noteBlock, packBatches, type NoteDoc } from '../../llm/batch.js';
import { combinePrompt, perNotePrompt, promptOverhead, synthesisPrompt } from '../../llm/prompts.js';
import { omittedFolders, readSelection, selectNotes, type Skipped } from '../../llm/selection.js';

const output = z.object({
  status: z.enum(['completed', 'working']).describe('working: poll get_job_result'),
  ...workingFields,
  summary: z.string().optional().describe('The summary'),
  per_note: z.record(z.string(), z.string()).optional().describe('per_note: path → summary'),
  sources: z.array(z.string()).optional().describe('Notes covered'),
  truncated: z.boolean().optional().describe('Some left out (hint)'),
  notes_included: z.number().int().optional().describe('Notes summarised'),
  notes_omitted: z.number().int().optional().describe('Notes over the limit'),
  hint: z.string().optional().describe('Next step'),
  skipped: z.record(z.string(), z.string()).optional().describe('Path → why skipped'),
  backend_calls: z.number().int().optional().describe('Model requests'),
});
type Out = z.infer<typeof output>;

function description(deps: ServerDeps): string {
  const s = llmSettings(deps.settings());
  return `Summarise notes and folders with the owner's language model (${destination(deps)}: their text is sent there), citing [path]. ` +
    `At most ${s.summarizeMaxNotes} notes per call (hint: the rest). Long runs answer "working": poll get_job_result.`;
}

function llmRefusal(e: unknown): never {
  if (e instanceof LlmError) {
    if (e.kind === 'timeout') refuse('summarize_timeout', `${e.message} Narrow the request: fewer notes or a smaller folder per call (or ask the vault owner to raise the time limit).`);
    if (e.kind === 'aborted') refuse('unavailable', `${e.message} Call again if you still need the summary.`);
    refuse('backend_error', `${e.message}`, { status: e.status });
  }
  throw e;
}

interface Ctx { deps: ServerDeps; job: JobHandle; calls: number; /** Answers the model cut at its output limit (finish_reason "length"). */ cutAnswers: string[] }

/** One backend call; `what` names it ("batch 2 of 5", "note \"a.md\"", "combine pass") if its answer is cut. */
async function ask(c: Ctx, messages: ChatMessage[], what: string): Promise<ChatReply> {
  c.calls++;
  let r: ChatReply;
  try {
    r = await chat(llmConfig(c.deps), messages, { signal: c.job.signal, transport: llmTransport(c.deps) ?? nodeTransport });
  } catch (e) {
    return llmRefusal(e);
  }
  // The model stopped at max_tokens: the rest of this answer is lost, and the result must say so.
  if (r.finishReason === 'length') c.cutAnswers.push(what);
  return r;
}

async function synthesis(c: Ctx, docs: NoteDoc[], focus: string | undefined, budget: number, concurrency: number): Promise<string> {
  const batches = packBatches(docs, (d) => noteBlock(d).length, budget);
  if (batches.length === 1) return (await ask(c, synthesisPrompt(docs, focus, null), 'the summary')).text;
  let done = 0;
  c.job.progress(`summarising batch 0 of ${batches.length}`);
  let partials = await mapLimit(batches, concurrency, async (b, i) => {
    const r = await ask(c, synthesisPrompt(b, focus, { batch: i + 1, batches: batches.length }), `batch ${i + 1} of ${batches.length}`);
    c.job.progress(`summarised batch ${++done} of ${batches.length}`, done, batches.length);
    return r.text;
  });
  // Combine; when the partial summaries themselves exceed one request, combine them in groups first.
  for (let round = 1; ; round++) {
    const groups = packBatches(partials, (p) => p.length + 40, budget);
    c.job.progress(`combining ${partials.length} partial summaries (round ${round})`);
    if (groups.length === 1 || groups.length >= partials.length) return (await ask(c, combinePrompt(partials, focus, docs.length), 'the combine pass')).text;
    partials = await mapLimit(groups, concurrency, async (g, i) => (await ask(c, combinePrompt(g, focus, docs.length), `combine round ${round}, group ${i + 1} of ${groups.length}`)).text);
  }
}

async function perNote(c: Ctx, docs: NoteDoc[], focus: string | undefined, concurrency: number): Promise<{ path: string; summary: string }[]> {
  let done = 0;
  return mapLimit(docs, concurrency, async (d) => {
    const r = await ask(c, perNotePrompt(d, focus), `note "${d.path}"`);
    c.job.progress(`summarised ${++done} of ${docs.length} notes`, done, docs.length);
    return { path: d.path, summary: r.text };
  });
}

function hintFor(omitted: string[], skipped: Skipped[], cut: NoteDoc[], limit: number, cutAnswers: string[], maxTokens: number, mode: string): string | null {
  const parts: string[] = [];
  if (omitted.length) parts.push(`${omitted.length} note(s) beyond the limit of ${limit} were not summarised; call summarize again for them, e.g. per folder: ${omittedFolders(omitted)}.`);
  const bad = skipped.filter((s) => s.reason === 'not_found' || s.reason === 'invalid_path');
  if (bad.length) parts.push(`${bad.length} path(s) named no note (see skipped); check them with list_notes or keyword_search.`);
  const big = skipped.filter((s) => s.reason === 'over_read_limit');
  if (big.length) parts.push(`${big.length} note(s) are larger than the read limit and were skipped; read them in pages with read_note(path, offset=…).`);
  const unreadable = skipped.filter((s) => s.reason === 'unreadable');
  if (unreadable.length) parts.push(`${unreadable.length} note(s) could not be read; retry later or ask the vault owner.`);
  if (cut.length) parts.push(`${cut.length} note(s) were cut to fit one request (only their start was summarised): ${cut.slice(0, 5).map((d) => `"${d.path}" (${d.text.length} of ${d.originalChars} chars)`).join(', ')}; read the rest with read_note(path, offset=…).`);
  if (cutAnswers.length) {
    const narrower = mode === 'per_note' ? 'a narrower focus (or mode "synthesis")' : 'fewer notes per call (max_notes, or one subfolder at a time), mode "per_note", or a narrower focus';
    parts.push(`${cutAnswers.length} answer(s) of the model were cut at its output limit of ${maxTokens} tokens, so the summary ends early there (${cutAnswers.slice(0, 5).join(', ')}${cutAnswers.length > 5 ? ', …' : ''}); call again with ${narrower}, or ask the vault owner to raise the answer length (setting llmMaxOutputTokens, --llm-max-output-tokens).`);
  }
  return parts.length ? parts.join(' ') : null;
}

async function run(args: { paths: string[]; focus?: string; mode: 'synthesis' | 'per_note'; max_notes?: number }, ctx: ToolContext, job: JobHandle, pre: ReturnType<typeof selectNotes>): Promise<ToolResult<Out>> {
  const deps = ctx.deps;
  const s = llmSettings(deps.settings());
  const limit = Math.min(s.summarizeMaxNotes, args.max_notes ?? Infinity);
  const focus = args.focus?.trim() || undefined;
  const { read, omitted, skipped: readSkipped } = await readSelection(ctx.vault, pre.notes, limit, deps.settings().maxFileReadBytes, job.signal);
  const skipped = [...pre.skipped, ...readSkipped];
  if (!read.length) {
    refuse('notes_unreadable', `None of the ${pre.notes.length} note(s) found could be read: ${readSkipped.slice(0, 5).map((x) => `"${x.path}" (${x.reason}: ${x.detail})`).join(', ')}. Read large notes in pages with read_note, or retry later.`, { skipped: readSkipped.slice(0, 20) });
  }
  const budget = Math.max(500, s.summarizeBatchChars - promptOverhead(focus));
  const docs = read.map((r) => fitNote(r.path, r.title, r.text, budget));
  const c: Ctx = { deps, job, calls: 0, cutAnswers: [] };
  let summary: string;
  let per_note: { path: string; summary: string }[] | undefined;
  if (args.mode === 'per_note') {
    per_note = await perNote(c, docs, focus, s.llmConcurrency);
    summary = per_note.map((p, i) => `## ${docs[i].title} (${p.path})\n\n${p.summary}`).join('\n\n');
  } else {
    summary = await synthesis(c, docs, focus, budget, s.llmConcurrency);
  }
  const cut = docs.filter((d) => d.cut);
  const truncated = omitted.length > 0 || skipped.length > 0 || cut.length > 0 || c.cutAnswers.length > 0;
  const hint = hintFor(omitted, skipped, cut, limit, c.cutAnswers, s.llmMaxOutputTokens, args.mode);
  const structured: Out = {
    status: 'completed',
    // per_note mode: the summaries by note (the joined text would say them twice).
    ...(per_note ? { per_note: Object.fromEntries(per_note.map((p) => [p.path, p.summary])) } : { summary }),
    sources: docs.map((d) => d.path),
    truncated, notes_included: docs.length, notes_omitted: omitted.length,
    ...(hint ? { hint } : {}), ...(skipped.length ? { skipped: Object.fromEntries(skipped.map((x) => [x.path, `${x.reason}: ${x.detail}`])) } : {}), backend_calls: c.calls,
  };
  const coverage = `Covers ${docs.length} note(s)${omitted.length ? `, ${omitted.length} omitted over the limit of ${limit}` : ''}${skipped.length ? `, ${skipped.length} skipped` : ''}${cut.length ? `, ${cut.length} cut` : ''}${c.cutAnswers.length ? `, ${c.cutAnswers.length} answer(s) cut at the model's output limit` : ''}.`;
  const text = `${summary}\n\n---\n${coverage}${structured.hint ? `\n${structured.hint}` : ''}\nSources: ${docs.map((d) => d.path).join(', ')}`;
  return { structured, text };
}

export const summarize = defineTool({
  name: 'summarize',
  title: 'Summarise notes',
  family: 'llm',
  description,
  input: z.strictObject({
    paths: z.array(z.string().max(1024)).min(1, 'give at least one note path or folder').max(500).describe('Notes and folders ("" = all)'),
    focus: z.string().max(2000).optional().describe('What to concentrate on'),
    mode: z.enum(['synthesis', 'per_note']).default('synthesis').describe('One summary, or one per note'),
    max_notes: z.number().int().min(1).optional().describe('Fewer notes than the limit'),
  }),
  output,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  available: llmConfigured,
  unavailableHint: 'no language model endpoint is configured. The vault owner sets one in the settings tab (Summaries (language model): endpoint URL and model) or starts the headless server with --llm-url URL --llm-model NAME',
  async handler(args, ctx) {
    const pre = selectNotes(ctx.vault, args.paths);
    if (!pre.notes.length) {
      refuse('invalid_argument', `None of the paths names an existing note or a folder with notes: ${pre.skipped.slice(0, 5).map((x) => `"${x.path}" (${x.reason}: ${x.detail})`).join('; ')}. Find notes with list_notes or keyword_search.`, { skipped: pre.skipped.slice(0, 20) });
    }
    return runAsJob<Out>(ctx, 'summarize', (job) => run(args, ctx, job, pre), { working: (w) => ({ structured: w, text: w.hint }) });
  },
});

export const summarizeTools = [summarize];
