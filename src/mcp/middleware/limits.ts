// The limits middleware: before a handler runs, the Limiter admits the call or throws a Refusal
// (a normal tool result); after it, the call is released and its outcome counted per key and day.
import type { ToolMiddleware } from '../tool.js';
import type { ToolContext } from '../tool.js';
import { isWriteTool } from '../tool.js';
import type { Admission, Limiter } from '../../limits/limiter.js';
import type { UsageStore } from '../../limits/usage.js';

export function limitsMiddleware(limiter: Limiter, usage: UsageStore): ToolMiddleware {
  const admitted = new WeakMap<ToolContext, Admission>();
  return {
    before({ tool, args, ctx }) {
      admitted.set(ctx, limiter.admit(ctx.caller, isWriteTool(tool), args));
    },
    after({ ctx }, outcome) {
      admitted.get(ctx)?.release();
      admitted.delete(ctx);
      usage.outcome(ctx.caller.keyId, ctx.caller.keyName, outcome.ok);
    },
  };
}
