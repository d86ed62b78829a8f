// buildServer(deps, caller): one MCP server per session (the SDK's McpServer, its protocol handlers ours), with only the tools this caller may
// use. All calls pass through `dispatch`, the single place for argument validation, permission checks,
// middleware (limits, audit) and result shaping.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ServerDeps } from './tool.js';
import { isWriteTool, type Caller, type ProgressSink, type ToolContext, type ToolDef } from './tool.js';
import { Refusal, refusalText } from '../core/errors.js';
import { ScopedVault } from '../services/scopedVault.js';
import { allTools } from './tools/index.js';
import { serverInstructions } from './instructions.js';
import { listingFor } from './listing.js';
import { attachProtocol } from './protocol.js';
import { progressSink } from './progress.js';
import { beforeRun, checkDepth, internalRefusal, whyNotAvailable } from './callGuard.js';

export { toolListing } from './listing.js';

export function permittedTools(deps: ServerDeps, caller: Caller, tools: ToolDef[] = allTools()): ToolDef[] {
  const s = deps.settings();
  return tools.filter((t) => {
    if (t.available && !t.available(deps)) return false;
    if (caller.disabledFamilies.includes(t.family)) return false;
    // Admin tools run and report on vault-wide indexes: a root-confined key cannot use them without learning about the rest.
    if (caller.root && t.family === 'admin') return false;
    if (isWriteTool(t) && (s.readOnly || caller.scope !== 'readwrite')) return false;
    return true;
  });
}

function zodMessage(err: z.ZodError): string {
  return err.issues
    .slice(0, 5)
    .map((i) => {
      const at = i.path.length ? i.path.join('.') : 'arguments';
      if (i.code === 'unrecognized_keys') return `unknown argument${i.keys.length > 1 ? 's' : ''} ${i.keys.map((k) => `"${k}"`).join(', ')}`;
      return `${at}: ${i.message}`;
    })
    .join('; ');
}

export function refusalResult(r: Refusal): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: refusalText(r) }] };
}

export async function dispatch(deps: ServerDeps, caller: Caller, tools: ToolDef[], name: string, rawArgs: unknown, signal: AbortSignal, progress?: ProgressSink): Promise<CallToolResult> {
  const started = deps.now();
  const tool = tools.find((t) => t.name === name);
  const args = (rawArgs ?? {}) as Record<string, unknown>;
  const ctx: ToolContext = { deps, caller, vault: new ScopedVault(deps.host, caller.root), signal, tools: () => tools, progress };
  let result: CallToolResult;
  let code: string | undefined;
  try {
    if (!tool) {
      const known = allTools().find((t) => t.name === name);
      throw known
        ? new Refusal('permission_denied', whyNotAvailable(deps, caller, known))
        : new Refusal('not_found', `There is no tool "${recordedTool(name).name}"; call tools/list to see the available tools.`);
    }
    checkDepth(args);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) throw new Refusal('invalid_argument', `Invalid arguments for ${name}: ${zodMessage(parsed.error)}. Fix them and call again.`);
    await beforeRun(deps, { tool, args, ctx });
    const out = await tool.handler(parsed.data, ctx);
    const checked = tool.output.safeParse(out.structured);
    if (!checked.success) throw new Error(`output of ${name} does not match its schema: ${zodMessage(checked.error)}`);
    result = {
      structuredContent: checked.data,
      content: [{ type: 'text', text: out.text ?? JSON.stringify(checked.data) }, ...(out.extra ?? [])],
    };
    if (out.meta) result._meta = out.meta;
  } catch (e) {
    const r = e instanceof Refusal ? e : internalRefusal(e, name);
    code = r.code;
    result = refusalResult(r);
  }
  record(deps, tool ?? recordedTool(name), args, ctx, result, code, deps.now() - started);
  return result;
}

/**
 * The definition a call is recorded under: the tool's own when it exists (also when hidden from this
 * caller), else a stand-in named as asked, control characters replaced and cut to 64 characters.
 */
function recordedTool(name: unknown): ToolDef {
  const known = allTools().find((t) => t.name === name);
  if (known) return known;
  const clean = Array.from(String(name).slice(0, 4096), (c) => (c < ' ' || c === '\u007f' ? '?' : c)).join('');
  // The audit masks secrets in the whole name (`asked`) before cutting it, so no prefix of a key is kept.
  return { name: clean.slice(0, 64), asked: clean, family: 'unknown' } as unknown as ToolDef;
}

/** Every call is recorded by the middleware (audit, daily counters), refused ones included. */
function record(deps: ServerDeps, tool: ToolDef, args: Record<string, unknown>, ctx: ToolContext, result: CallToolResult, code: string | undefined, ms: number): void {
  const bytes = JSON.stringify(result).length;
  for (const m of deps.middleware) {
    try { m.after?.({ tool, args, ctx }, { ok: !code, code, ms, bytes }); } catch { /* recording must not fail the call */ }
  }
}

/**
 * The cheap early path (http/app.ts calls it before the MCP SDK sees a tools/call request): when the
 * key's daily quota is used up or its general bucket is empty, whatever the tool, the call is refused
 * here with the same tool result dispatch() would give (code rate_limited / over_quota with
 * retry_after_seconds) and recorded by the same middleware (audit, daily counters). Null = go on.
 */
export function earlyRefusal(deps: ServerDeps, caller: Caller, name: unknown, rawArgs: unknown): CallToolResult | null {
  const limiter = deps.services.limits?.limiter;
  const r = limiter?.precheck(caller);
  if (!r) return null;
  const result = refusalResult(r);
  const args = (rawArgs && typeof rawArgs === 'object' ? rawArgs : {}) as Record<string, unknown>;
  const ctx: ToolContext = { deps, caller, vault: new ScopedVault(deps.host, caller.root), signal: new AbortController().signal, tools: () => permittedTools(deps, caller) };
  record(deps, recordedTool(name), args, ctx, result, r.code, 0);
  return result;
}

/**
 * One JSON Schema validator for every session, made on first use. Left to itself the SDK makes an Ajv
 * instance for each session's server (12 ms of the 53 ms first request in a CPU profile at 100k notes,
 * and a compiled-schema cache per session), used only to check the answers to form elicitation, which
 * this server never asks for.
 */
let ajv: AjvJsonSchemaValidator | null = null;
export const sharedSchemaValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema);
  },
};

export function buildServer(deps: ServerDeps, caller: Caller): McpServer {
  const mcp = new McpServer(
    { name: 'vault-mcp-server', title: 'Vault MCP Server', version: deps.version },
    { capabilities: { tools: { listChanged: true } }, instructions: serverInstructions(deps), jsonSchemaValidator: sharedSchemaValidator },
  );
  // The SDK's high-level server, with our own tools/list and tools/call on its protocol server: no
  // tool is registered through registerTool, because dispatch() (above) validates, filters per
  // caller, runs the middleware and shapes every result itself.
  const tools = () => permittedTools(deps, caller);
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listingFor(tools(), deps) }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (req, extra) => dispatch(deps, caller, tools(), req.params.name, req.params.arguments, extra.signal, progressSink(req.params._meta?.progressToken, extra.sendNotification)));
  // Resources, prompts, completion, logging and the session's notifications (src/mcp/protocol.ts).
  attachProtocol(mcp, deps, caller, tools);
  return mcp;
}
