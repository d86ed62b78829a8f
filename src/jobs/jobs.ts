// Background jobs: a tool call still running at the soft deadline answers "working" with a job id and
// keeps going; get_job_result(job_id) (src/mcp/tools/jobs.ts) answers later. The whole API for tools:
//
//   import { runAsJob } from '../../jobs/jobs.js';
//   handler: (args, ctx) => runAsJob(ctx, 'reindex', async (job) => {
//     job.progress('3 of 7 batches');          // optional; shown while polling
//     ... honour job.signal (aborted when the call is cancelled before promotion, or on shutdown) ...
//     return { structured, text };             // the tool's normal ToolResult
//   }, { share: 'reindex', working: (w) => ({ structured: { ...w, ...extraFieldsYourSchemaNeeds } }) })
//
// - Finishes within the soft deadline (setting `jobSoftDeadlineMs`, default 25 000): the work's own
//   ToolResult is returned unchanged; a Refusal it throws is thrown as usual.
// - Otherwise: the ToolResult `{status:"working", job_id, retry_after_s, hint}` (hint: "call
//   get_job_result(job_id=…) in about N s"; or what `opts.working` makes of it, so the tool's
//   outputSchema can stay strict), and the work continues detached from the request.
// - `share`: calls with the same share key join one running piece of work (vault-wide jobs such as
//   reindex); each caller still gets a job id of its own.
// - Jobs belong to the key that started them (another key's id answers exactly like an unknown one)
//   and are forgotten an hour after they finish. At most MAX_RUNNING_PER_KEY run per key.
// - `workingFields`: spread into the tool's output z.object (beside its `hint`) so the working answer
//   passes its schema (z.object drops keys it does not know, so without them job_id would vanish).
import { z } from 'zod';
import type { ServerDeps, ToolContext, ToolResult } from '../mcp/tool.js';
import { JobStore, asRefusal, retryAfter, type JobHandle, type ProgressListener, type Working } from './store.js';
import { clearTimeout, setTimeout } from 'node:timers';

export { JobStore, JOB_RETENTION_MS, MAX_RUNNING_PER_KEY, retryAfter, type JobHandle, type JobView, type Working } from './store.js';

export const JOB_SOFT_DEADLINE_MS = 25_000;

/**
 * Output-schema fields of the working answer, all optional (the tool's `status` enum must include
 * "working", and its schema a `hint`, which says to poll get_job_result).
 */
export const workingFields = {
  job_id: z.string().optional().describe('For get_job_result'),
  retry_after_s: z.number().optional().describe('Poll after (s)'),
};

export interface JobOptions<O> {
  share?: string;
  working?: (w: Working) => ToolResult<O>;
}

const fallback = new WeakMap<ServerDeps, JobStore>();

/** deps.services.jobs (registered by src/jobs/feature.ts), or one made on first use. */
export function jobStore(deps: ServerDeps): JobStore {
  const s = deps.services.jobs;
  if (s) return s;
  let f = fallback.get(deps);
  if (!f) { f = new JobStore(deps.now); fallback.set(deps, f); }
  return f;
}

export function softDeadlineMs(deps: ServerDeps): number {
  const v = Number(deps.settings().jobSoftDeadlineMs);
  return Number.isFinite(v) && v >= 0 ? v : JOB_SOFT_DEADLINE_MS;
}

export function workingResult(tool: string, id: string, runningMs: number, progress: string | null): ToolResult<Working> {
  const retry_after_s = retryAfter(runningMs);
  const structured: Working = {
    status: 'working', job_id: id, retry_after_s,
    hint: `${tool} is still running after ${Math.round(runningMs / 1000)} s${progress ? ` (${progress})` : ''} and continues in the background; call get_job_result(job_id="${id}") in about ${retry_after_s} s.`,
  };
  return { structured, text: structured.hint };
}

export async function runAsJob<O>(ctx: ToolContext, name: string, work: (job: JobHandle) => Promise<ToolResult<O>>, opts: JobOptions<O> = {}): Promise<ToolResult<O>> {
  const store = jobStore(ctx.deps);
  const job = store.begin(ctx.caller.keyId, name, work, opts.share);
  // A caller that passed a progress token hears the job's progress while its call waits (not after
  // the working answer: progress must end with the request).
  const sink = ctx.progress;
  const listener: ProgressListener | null = sink ? (message, done, total) => sink({ progress: done, total, message }) : null;
  if (sink && listener) { sink({ progress: 0, message: `${name} started` }); job.run.listeners.add(listener); }
  // A call cancelled before it is promoted takes its (unshared) work with it.
  const cancel = () => { if (job.finished === null && !opts.share) job.run.controller.abort(new Error('the call was cancelled')); };
  ctx.signal.addEventListener('abort', cancel, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const settled = await Promise.race([
    job.run.promise.then((r) => ({ r }), (e: unknown) => ({ e })),
    new Promise<null>((r) => { timer = setTimeout(() => r(null), softDeadlineMs(ctx.deps)); }),
  ]);
  clearTimeout(timer);
  ctx.signal.removeEventListener('abort', cancel);
  if (listener) job.run.listeners.delete(listener);
  if (sink && settled && 'r' in settled) sink({ message: `${name} done` });
  if (settled) store.forget(job.id);
  if (settled && 'e' in settled) throw asRefusal(settled.e, name);
  if (settled) return settled.r as ToolResult<O>;
  const w = workingResult(name, job.id, ctx.deps.now() - job.started, job.run.progress);
  return opts.working ? opts.working(w.structured) : (w as unknown as ToolResult<O>);
}
