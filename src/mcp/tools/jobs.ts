// get_job_result: the answer of a tool call that outlasted the soft deadline (src/jobs/jobs.ts).
// Only the key that started a job sees it; another key's id, an unknown id and an expired one all
// answer the same not_found.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { jobStore, softDeadlineMs, JOB_RETENTION_MS } from '../../jobs/jobs.js';

export const getJobResult = defineTool({
  name: 'get_job_result',
  title: 'Background job result',
  family: 'read',
  description: `The result of a tool that answered "working": still working (retry_after_s), completed (result) or failed (error). Kept ${JOB_RETENTION_MS / 3_600_000} hour.`,
  input: z.strictObject({
    job_id: z.string().max(100).describe('From the working answer'),
    wait_s: z.number().min(0).max(60).default(0).describe('Wait up to this long'),
  }),
  output: z.object({
    status: z.enum(['working', 'completed', 'failed']).describe('State'),
    tool: z.string().describe('Tool'),
    retry_after_s: z.number().optional().describe('Poll again after'),
    progress: z.string().optional().describe('How far'),
    result: z.record(z.string(), z.unknown()).optional().describe('The tool\'s result'),
    error: z.string().optional().describe('failed: "code: why"'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const store = jobStore(ctx.deps);
    const owner = ctx.caller.keyId;
    await store.wait(owner, args.job_id, Math.min(args.wait_s * 1000, softDeadlineMs(ctx.deps)));
    const v = store.view(owner, args.job_id);
    if (!v) refuse('not_found', `No job "${args.job_id}" for this key: it never existed, belongs to another key, or finished more than an hour ago. Run the tool again.`);
    if (v.state === 'working') {
      const out = { status: 'working' as const, tool: v.tool, retry_after_s: v.retry_after_s, ...(v.progress ? { progress: v.progress } : {}) };
      return { structured: out, text: `${v.tool} is still running (${v.running_for_s} s${v.progress ? `, ${v.progress}` : ''}); poll again in about ${v.retry_after_s} s.` };
    }
    if (v.state === 'failed') {
      const out = { status: 'failed' as const, tool: v.tool, error: `${v.error.code}: ${v.error.message}` };
      return { structured: out, text: `${v.tool} failed: ${v.error.message}\nMCP-JOB-ERROR ${JSON.stringify({ code: v.error.code, ...v.error.details })}` };
    }
    const out = { status: 'completed' as const, tool: v.tool, result: v.result.structured as Record<string, unknown> };
    return { structured: out, text: v.result.text ?? JSON.stringify(v.result.structured), ...(v.result.extra ? { extra: v.result.extra } : {}), ...(v.result.meta ? { meta: v.result.meta } : {}) };
  },
});

export const jobTools = [getJobResult];
