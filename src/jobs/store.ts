// The background-job store (deps.services.jobs): who started which job, its progress and outcome.
// How tools use it (runAsJob, the soft deadline, the working answer): src/jobs/jobs.ts.
import type { ToolResult } from '../mcp/contract.js';
import { Refusal, refuse } from '../core/errors.js';
import { clearTimeout, setTimeout } from 'node:timers';

export const JOB_RETENTION_MS = 60 * 60 * 1000;
export const MAX_RUNNING_PER_KEY = 8;

export interface JobHandle {
  readonly id: string;
  readonly signal: AbortSignal;
  /** A short line of progress ("batch 2 of 5") shown to a poller; `done` of `total` when countable
   *  (sent as notifications/progress to a caller that passed a progress token). */
  progress(message: string, done?: number, total?: number): void;
}

export interface Working {
  status: 'working';
  job_id: string;
  retry_after_s: number;
  /** What to do next (poll get_job_result with this job_id), said once: the text copy is the same. */
  hint: string;
}


export type JobView =
  | { state: 'working'; tool: string; running_for_s: number; retry_after_s: number; progress: string | null }
  | { state: 'completed'; tool: string; result: ToolResult<unknown> }
  | { state: 'failed'; tool: string; error: Refusal };

/** Who hears a job's progress as it happens (runAsJob, while its call waits). */
export type ProgressListener = (message: string, done?: number, total?: number) => void;

interface Running {
  promise: Promise<ToolResult<unknown>>;
  controller: AbortController;
  progress: string | null;
  listeners: Set<ProgressListener>;
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

export function asRefusal(e: unknown, tool: string): Refusal {
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
      const r: Running = { controller, progress: null, listeners: new Set(), promise: Promise.resolve() as unknown as Promise<ToolResult<unknown>> };
      const handle: JobHandle = {
        id, signal: controller.signal,
        progress: (m, done, total) => { r.progress = m; for (const l of r.listeners) l(m, done, total); },
      };
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
