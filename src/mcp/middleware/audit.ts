// The audit middleware: one entry per tool call, successes and refusals alike (see audit/log.ts).
import type { ToolMiddleware } from '../tool.js';
import type { AuditLog } from '../../audit/log.js';
import { maskSecrets, summarizeArgs } from '../../audit/summarize.js';

/** `secrets`: every configured raw secret this process knows (in-memory keys, the LLM API key), masked in every field. */
export function auditMiddleware(log: AuditLog, now: () => number, secrets: () => readonly string[] = () => []): ToolMiddleware {
  return {
    after({ tool, args, ctx }, outcome) {
      const known = secrets();
      log.record({
        t: now(), key: maskSecrets(ctx.caller.keyName, known), key_id: ctx.caller.keyId, tool: maskSecrets((tool as { asked?: string }).asked ?? tool.name, known).slice(0, 64),
        args: summarizeArgs(args, known), ms: Math.max(0, Math.round(outcome.ms)), bytes: outcome.bytes,
        outcome: outcome.ok ? 'ok' : (outcome.code ?? 'error'),
      });
    },
  };
}
