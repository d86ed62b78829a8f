// The audit middleware: one entry per tool call, successes and refusals alike (see audit/log.ts).
import type { ToolMiddleware } from '../tool.js';
import type { AuditLog } from '../../audit/log.js';
import { summarizeArgs } from '../../audit/summarize.js';

export function auditMiddleware(log: AuditLog, now: () => number): ToolMiddleware {
  return {
    after({ tool, args, ctx }, outcome) {
      log.record({
        t: now(), key: ctx.caller.keyName, key_id: ctx.caller.keyId, tool: tool.name,
        args: summarizeArgs(args), ms: Math.max(0, Math.round(outcome.ms)), bytes: outcome.bytes,
        outcome: outcome.ok ? 'ok' : (outcome.code ?? 'error'),
      });
    },
  };
}
