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
// - Otherwise: the ToolResult `{status:"working", job_id, poll_with:"get_job_result", retry_after_s,
//   message}` (or what `opts.working` makes of it, so the tool's outputSchema can stay strict), and the
//   work continues detached from the request.
// - `share`: calls with the same share key join one running piece of work (vault-wide jobs such as
//   reindex); each caller still gets a job id of its own.
// - Jobs belong to the key that started them (another key's id answers exactly like an unknown one)
//   and are forgotten an hour after they finish. At most MAX_RUNNING_PER_KEY run per key.
// - `workingFields`: spread into the tool's output z.object so the working answer passes its schema
//   (z.object drops keys it does not know, so without them poll_with/message would vanish).
import { z } from 'zod';
import type { ToolContext, ToolResult } from '../mcp/tool.js';
import type { ServerDeps } from '../mcp/deps.js';
import { Refusal, refuse } from '../core/errors.js';

export const JOB_SOFT_DEADLINE_MS = 25_000;
export const JOB_RETENTION_MS = 60 * 60 * 1000;
export const MAX_RUNNING_PER_KEY = 8;

/** Output-schema fields of the working answer, all optional (the tool's `status` enum must include "working"). */
export const workingFields = {
  job_id: z.string().optional().describe('status "working": poll get_job_result(job_id)'),
  poll_with: z.literal('get_job_result').optional(),
  retry_after_s: z.number().optional().describe('Seconds to wait before polling'),
  message: z.string().optional(),
};

export interface JobHandle {
  readonly id: string;
  readonly signal: AbortSignal;
  /** A short line of progress ("batch 2 of 5") shown to a poller. */
  progress(message: string): void;
}

export interface Working {
  status: 'working';
  job_id: string;
  poll_with: 'get_job_result';
  retry_after_s: number;
  message: string;
}

export interface JobOptions<O> {
  share?: string;
  working?: (w: Working) => ToolResult<O>;
}

export type JobView =
  | { state: 'working'; tool: string; running_for_s: number; retry_after_s: number; progress: string | null }
  | { state: 'completed'; tool: string; result: ToolResult<unknown> }
  | { state: 'failed'; tool: string; error: Refusal };

interface Running {
  promise: Promise<ToolResult<unknown>>;
  controller: AbortController;
  progress: string | null;
}

interface Job {
  id: string;
  owner: string;
  tool: string;
  started: number;
  finished: number | null;
  run: Running;
  result?: ToolResult<unknown>;
  error?: Refusal;
}

function newJobId(): string {
  const b = new Uint8Array(12);
  crypto.getRandomValues(b);
  return `job_${Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')}`;
}

function asRefusal(e: unknown, tool: string): Refusal {
  if (e instanceof Refusal) return e;
  return new Refusal('internal_error', `The server failed while running ${tool} in the background: ${(e as Error)?.message ?? e}. Retry once, then report it.`);
}

/** Suggested wait before the next poll: grows with the time the job has run, 2–30 s. */
export function retryAfter(runningMs: number): number {
  return Math.min(30, Math.max(2, Math.round(runningMs / 3000)));
}

export class JobStore {
  private readonly jobs = new Map<string, Job>();
  private readonly shared = new Map<string, Running>();
  private stopped = false;

  constructor(private readonly now: () => number) {}

  /** Starts work for `owner`; the returned promise settles with the work (never rejects for the store). */
  begin(owner: string, tool: string, work: (job: JobHandle) => Promise<ToolResult<unknown>>, share?: string): Job {
    this.sweep();
    if (this.stopped) refuse('unavailable', 'The server is shutting down; retry once it is back.');
    const running = [...this.jobs.values()].filter((j) => j.owner === owner && j.finished === null).length;
    if (running >= MAX_RUNNING_PER_KEY) {
      refuse('rate_limited', `${running} background jobs are still running for this key; wait for them with get_job_result before starting more.`, { running });
    }
    const id = newJobId();
    let run = share ? this.shared.get(share) : undefined;
    if (!run) {
      const controller = new AbortController();
      const r: Running = { controller, progress: null, promise: Promise.resolve() as unknown as Promise<ToolResult<unknown>> };
      const handle: JobHandle = { id, signal: controller.signal, progress: (m) => { r.progress = m; } };
      r.promise = Promise.resolve().then(() => work(handle));
      if (share) {
        this.shared.set(share, r);
        const drop = () => { if (this.shared.get(share) === r) this.shared.delete(share); };
        r.promise.then(drop, drop);
      }
      run = r;
    }
    const job: Job = { id, owner, tool, started: this.now(), finished: null, run };
    this.jobs.set(id, job);
    run.promise.then(
      (res) => { job.result = res; job.finished = this.now(); },
      (e) => { job.error = asRefusal(e, tool); job.finished = this.now(); },
    );
    return job;
  }

  /** The job as its owner sees it; null for unknown, expired or another key's job. */
  view(owner: string, id: string): JobView | null {
    this.sweep();
    const j = this.jobs.get(id);
    if (!j || j.owner !== owner) return null;
    if (j.finished === null) {
      const ms = this.now() - j.started;
      return { state: 'working', tool: j.tool, running_for_s: Math.round(ms / 1000), retry_after_s: retryAfter(ms), progress: j.run.progress };
    }
    if (j.error) return { state: 'failed', tool: j.tool, error: j.error };
    return { state: 'completed', tool: j.tool, result: j.result! };
  }

  /** Waits up to `ms` for the owner's job to settle (for long-polling). */
  async wait(owner: string, id: string, ms: number): Promise<void> {
    const j = this.jobs.get(id);
    if (!j || j.owner !== owner || j.finished !== null || ms <= 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([j.run.promise.then(() => undefined, () => undefined), new Promise<void>((r) => { timer = setTimeout(r, ms); })]);
    clearTimeout(timer);
    await Promise.resolve(); // let the settle handlers above record the outcome
  }

  /** Drops a job whose answer went out directly (it finished within the soft deadline). */
  forget(id: string): void {
    this.jobs.delete(id);
  }

  /** Aborts every running job (server stop). */
  stop(): void {
    this.stopped = true;
    for (const j of this.jobs.values()) if (j.finished === null) j.run.controller.abort(new Error('the server stopped'));
  }

  private sweep(): void {
    const t = this.now();
    for (const [id, j] of this.jobs) if (j.finished !== null && t - j.finished > JOB_RETENTION_MS) this.jobs.delete(id);
  }
}

const fallback = new WeakMap<ServerDeps, JobStore>();

/** deps.services.jobs (registered by src/jobs/feature.ts), or one made on first use. */
export function jobStore(deps: ServerDeps): JobStore {
  const s = deps.services.jobs;
  if (s instanceof JobStore) return s;
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
    status: 'working', job_id: id, poll_with: 'get_job_result', retry_after_s,
    message: `${tool} is still running after ${Math.round(runningMs / 1000)} s${progress ? ` (${progress})` : ''} and continues in the background; call get_job_result(job_id="${id}") in about ${retry_after_s} s.`,
  };
  return { structured, text: structured.message };
}

export async function runAsJob<O>(ctx: ToolContext, name: string, work: (job: JobHandle) => Promise<ToolResult<O>>, opts: JobOptions<O> = {}): Promise<ToolResult<O>> {
  const store = jobStore(ctx.deps);
  const job = store.begin(ctx.caller.keyId, name, work as (job: JobHandle) => Promise<ToolResult<unknown>>, opts.share);
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
  if (settled) store.forget(job.id);
  if (settled && 'e' in settled) throw asRefusal(settled.e, name);
  if (settled) return settled.r as ToolResult<O>;
  const w = workingResult(name, job.id, ctx.deps.now() - job.started, job.run.progress);
  return opts.working ? opts.working(w.structured) : (w as unknown as ToolResult<O>);
}
