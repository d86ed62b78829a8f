// Protocol requests other than tools/call that hand out vault content (resources/read, prompts/get)
// pass the same middleware as tool calls: the key's rate limits and daily quota, the audit log. They
// are recorded under their method name. Refusals become JSON-RPC errors whose message says how to
// recover and whose data carries the refusal code (and retry_after_seconds where waiting helps).
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Refusal, refuse } from '../core/errors.js';
import { ScopedVault } from '../services/scopedVault.js';
import { READ_ONLY } from './contract.js';
import { beforeRun } from './callGuard.js';
import type { Caller, ServerDeps, ToolContext, ToolDef } from './tool.js';

/** JSON-RPC code for "no such resource" (MCP specification, resources). */
export const RESOURCE_NOT_FOUND = -32002;

/** The stand-in definition a protocol request is metered and audited under. */
function methodDef(method: string): ToolDef {
  return { name: method, title: method, family: 'read', annotations: READ_ONLY } as unknown as ToolDef;
}

/**
 * A JSON-RPC error as the SDK sends it (code, message, data). Not McpError, whose message carries an
 * "MCP error <code>:" prefix that the client's own McpError would repeat.
 */
export class RequestError extends Error {
  constructor(readonly code: number, message: string, readonly data?: Record<string, unknown>) {
    super(message);
    this.name = 'RequestError';
  }
}

export function toMcpError(e: unknown, what: string): Error {
  if (e instanceof McpError || e instanceof RequestError) return e;
  if (e instanceof Refusal) {
    const code = e.code === 'not_found' ? RESOURCE_NOT_FOUND
      : e.code === 'invalid_argument' || e.code === 'invalid_path' ? ErrorCode.InvalidParams
      : e.code === 'internal_error' ? ErrorCode.InternalError
      : -32000;
    return new RequestError(code, e.message, { code: e.code, ...e.details });
  }
  return new RequestError(ErrorCode.InternalError, `The server failed while answering ${what}: ${(e as Error)?.message ?? e}. Retry once, then report it.`);
}

export function contextFor(deps: ServerDeps, caller: Caller, tools: () => ToolDef[], signal: AbortSignal): ToolContext {
  return { deps, caller, vault: new ScopedVault(deps.host, caller.root), signal, tools };
}

/**
 * Runs `fn` as one metered call named `method`: limits are checked before, the outcome recorded after
 * (audit, daily counters), exactly as dispatch() does for tools. Errors come out as McpError.
 */
export async function metered<T>(ctx: ToolContext, method: string, args: Record<string, unknown>, fn: () => Promise<T>): Promise<T> {
  const { deps } = ctx;
  const call = { tool: methodDef(method), args, ctx };
  const started = deps.now();
  let ok = true;
  let code: string | undefined;
  let bytes = 0;
  try {
    await beforeRun(deps, call);
    const out = await fn();
    bytes = JSON.stringify(out)?.length ?? 0;
    return out;
  } catch (e) {
    ok = false;
    code = e instanceof Refusal ? e.code : 'internal_error';
    throw toMcpError(e, method);
  } finally {
    for (const m of deps.middleware) {
      try { m.after?.(call, { ok, code, ms: deps.now() - started, bytes }); } catch { /* recording must not fail the call */ }
    }
  }
}

/**
 * A tool's handler run inside an already metered request (a resource that is a view of a tool, a
 * prompt that embeds a tool's answer): only when the tool is permitted to this caller, with its own
 * argument validation, and without charging the key a second time.
 */
export async function invokeTool(ctx: ToolContext, name: string, args: Record<string, unknown>): Promise<{ structured: Record<string, unknown>; text: string }> {
  const tool = ctx.tools().find((t) => t.name === name);
  if (!tool) refuse('permission_denied', `This needs the tool ${name}, which is not available to this key (a switched-off tool family, read-only scope or mode, or a feature that is off). Ask the vault owner for a key that allows it.`);
  const parsed = tool.input.safeParse(args);
  if (!parsed.success) refuse('invalid_argument', `Invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ')}.`);
  const out = await tool.handler(parsed.data, ctx);
  const structured = out.structured;
  return { structured, text: out.text ?? JSON.stringify(structured) };
}
