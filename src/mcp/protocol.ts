// The MCP features beyond tools, attached to each session's server by buildServer (server.ts):
// resources (resources.ts), prompts (prompts.ts), completion (completion.ts), logging/setLevel and the
// session's place in the notification hub (sessionHub.ts). Capabilities are declared here too.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CompleteRequestSchema, ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema,
  SetLevelRequestSchema, type CompleteResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller, ServerDeps, ToolContext, ToolDef } from './tool.js';
import { RequestError, contextFor, metered } from './metered.js';
import { registerResources } from './resources.js';
import { availablePrompts, getPrompt, promptListing } from './prompts.js';
import { EMPTY_COMPLETION, complete, notePaths } from './completion.js';
import { NOTE_TEMPLATE, TOC_TEMPLATE } from './resourceUris.js';
import { DEFAULT_LOG_LEVEL, sessionHub, toolSignature, type HubSession } from './sessionHub.js';

export const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

function completion(ctx: ToolContext, ref: { type: string; name?: string; uri?: string }, arg: { name: string; value: string }): CompleteResult['completion'] {
  if (ref.type === 'ref/prompt') {
    const p = availablePrompts(ctx).find((x) => x.name === ref.name);
    if (!p) throw new RequestError(ErrorCode.InvalidParams, `There is no prompt "${ref.name}" for this key; prompts/list shows the available ones.`);
    const a = p.args.find((x) => x.name === arg.name);
    return a ? a.complete(ctx, arg.value) : EMPTY_COMPLETION;
  }
  if (ref.type === 'ref/resource' && (ref.uri === NOTE_TEMPLATE || ref.uri === TOC_TEMPLATE) && arg.name === 'path') {
    return ctx.tools().some((t) => t.name === (ref.uri === NOTE_TEMPLATE ? 'read_note' : 'get_toc')) ? complete(notePaths(ctx), arg.value) : EMPTY_COMPLETION;
  }
  return EMPTY_COMPLETION;
}

/** Wires resources, prompts, completion and logging into one session's server (before connect). */
export function attachProtocol(mcp: McpServer, deps: ServerDeps, caller: Caller, tools: () => ToolDef[]): void {
  const server = mcp.server;
  server.registerCapabilities(CAPABILITIES);
  const session: HubSession = { caller, tools, server, subscriptions: new Map(), logLevel: DEFAULT_LOG_LEVEL, toolsSig: '', lastTools: [], told: new Map(), listTimer: null };
  const hub = sessionHub(deps);
  const ctx = (signal: AbortSignal) => contextFor(deps, caller, tools, signal);

  registerResources(server, deps, session);
  server.setRequestHandler(ListPromptsRequestSchema, async (_req, extra) => ({ prompts: availablePrompts(ctx(extra.signal)).map(promptListing) }));
  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const c = ctx(extra.signal);
    const args = req.params.arguments ?? {};
    return metered(c, 'prompts/get', { name: req.params.name, ...args }, () => getPrompt(c, req.params.name, args));
  });
  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => ({ completion: completion(ctx(extra.signal), req.params.ref, req.params.argument) }));
  server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    session.logLevel = req.params.level;
    return {};
  });

  // In the hub from the client's notifications/initialized until the session closes.
  const initialized = server.oninitialized;
  server.oninitialized = () => { initialized?.(); session.lastTools = tools(); session.toolsSig = toolSignature(session.lastTools); hub.add(session); };
  const closed = server.onclose;
  server.onclose = () => { closed?.(); hub.remove(session); };
}
