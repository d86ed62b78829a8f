// The seam to long-running jobs (issue 8, src/jobs/): work that outlasts a soft deadline answers
// {status: "working", job_id, retry_after_s} and is finished through get_job_result(job_id).
// When a jobs service is registered as deps.services.jobs with `start(kind, run)` returning
// {job_id, promise}, it is used; otherwise a small local registry keeps the promise, and calling the
// same tool again joins the running job.
import type { ServerDeps } from '../mcp/deps.js';

export interface JobsService {
  start(kind: string, run: (signal: AbortSignal) => Promise<unknown>): { job_id: string; promise: Promise<unknown> };
}

export type DeadlineResult<T> = { done: true; value: T } | { done: false; job_id: string; retry_after_s: number };

const local = new WeakMap<ServerDeps, Map<string, { job_id: string; promise: Promise<unknown> }>>();
let seq = 0;

export async function runWithDeadline<T>(deps: ServerDeps, kind: string, softMs: number, work: (budgetMs: number) => Promise<T>): Promise<DeadlineResult<T>> {
  const jobs = deps.services.jobs as Partial<JobsService> | undefined;
  const LONG = 2 ** 31 - 1; // the job itself runs to completion; only the answer has a deadline
  let job: { job_id: string; promise: Promise<unknown> };
  if (jobs && typeof jobs.start === 'function') {
    job = jobs.start(kind, () => work(LONG));
  } else {
    let reg = local.get(deps);
    if (!reg) { reg = new Map(); local.set(deps, reg); }
    const running = reg.get(kind);
    if (running) job = running;
    else {
      const j = { job_id: `${kind}-${++seq}`, promise: work(LONG) };
      reg.set(kind, j);
      const done = () => { if (reg!.get(kind) === j) reg!.delete(kind); };
      j.promise.then(done, done);
      job = j;
    }
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const winner = await Promise.race([
    job.promise.then((value) => ({ done: true as const, value: value as T })),
    new Promise<null>((r) => { timer = setTimeout(() => r(null), softMs); }),
  ]);
  clearTimeout(timer);
  return winner ?? { done: false, job_id: job.job_id, retry_after_s: 10 };
}
