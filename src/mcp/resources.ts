// MCP resources: the vault guide, every note (vault://note/{+path}) and its outline
// (vault://toc/{+path}), listed in pages, read and subscribed to as the session's key allows: the
// `read` family must be on for this key; a root-confined key sees only its root (a note outside
// answers exactly like a missing one, and a subscription to it never fires); reads are metered and
// audited like tool calls (src/mcp/metered.ts). Notifications: src/mcp/sessionHub.ts.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { refuse } from '../core/errors.js';
import { isNotePath, noteTitle } from '../core/paths.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import type { VaultHost } from '../host/port.js';
import type { ServerDeps, ToolContext } from './tool.js';
import { RequestError, contextFor, invokeTool, metered, toMcpError } from './metered.js';
import { GUIDE_URI, NOTE_TEMPLATE, TOC_TEMPLATE, canonicalUri, noteUri, parseUri } from './resourceUris.js';
import { MAX_SUBSCRIPTIONS, type HubSession } from './sessionHub.js';

/** Notes per resources/list page. */
export const RESOURCE_PAGE = 200;

const has = (ctx: ToolContext, tool: string) => ctx.tools().some((t) => t.name === tool);

function guideEntry(): Resource {
  return { uri: GUIDE_URI, name: 'vault-guide', title: 'Vault guide', mimeType: 'text/markdown', description: 'Obsidian markdown primer plus this vault\'s own instructions for agents (CLAUDE.md / AGENTS.md); read it first.' };
}

/**
 * Every note path of the vault in code-point order, kept per host and re-sorted only after a note was
 * created, deleted or renamed: paging through a 100k-note vault must not sort it once per page (in
 * Obsidian that would be the app's UI thread).
 */
const sorted = new WeakMap<VaultHost, { paths: string[] | null }>();

function sortedNotePaths(host: VaultHost): string[] {
  let entry = sorted.get(host);
  if (!entry) {
    const e: { paths: string[] | null } = { paths: null };
    host.subscribe((ev) => { if (ev.type === 'create' || ev.type === 'delete' || ev.type === 'rename') e.paths = null; });
    sorted.set(host, e);
    entry = e;
  }
  entry.paths ??= host.files().map((f) => f.path).filter(isNotePath).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return entry.paths;
}

/** Index of the first path after `after` (binary search). */
function firstAfter(paths: string[], after: string): number {
  let lo = 0;
  let hi = paths.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (paths[mid] <= after) lo = mid + 1; else hi = mid; }
  return lo;
}

/** One page of the notes this caller may read (the guide first on the first page). */
export function listResources(ctx: ToolContext, cursor?: string): { resources: Resource[]; nextCursor?: string } {
  const resources: Resource[] = [];
  if (!cursor && has(ctx, 'get_vault_guide')) resources.push(guideEntry());
  if (!has(ctx, 'read_note')) return { resources };
  const paths = sortedNotePaths(ctx.deps.host);
  let i = cursor ? firstAfter(paths, decodeCursor<{ k: string; after: string }>(cursor, 'resources').after) : 0;
  let last: string | null = null;
  let n = 0;
  for (; i < paths.length && n < RESOURCE_PAGE; i++) {
    const st = ctx.vault.stat(paths[i]);
    if (!st) continue;
    resources.push({ uri: noteUri(st.path), name: st.path, title: noteTitle(st.path), mimeType: 'text/markdown', size: st.size, annotations: { lastModified: new Date(st.mtime).toISOString() } });
    last = st.path;
    n++;
  }
  // More when a visible note follows (a root-confined key's last page may end early).
  let more = false;
  for (let j = i; last !== null && j < paths.length && !more; j++) more = ctx.vault.stat(paths[j]) !== null;
  return more ? { resources, nextCursor: encodeCursor({ k: 'resources', after: last! }) } : { resources };
}

export async function readResource(ctx: ToolContext, uri: string): Promise<{ contents: { uri: string; mimeType: string; text: string }[] }> {
  const p = parseUri(uri);
  if (p.kind === 'guide') {
    const { text } = await invokeTool(ctx, 'get_vault_guide', {});
    return { contents: [{ uri: GUIDE_URI, mimeType: 'text/markdown', text }] };
  }
  if (p.kind === 'toc') {
    const st = ctx.vault.requireNote(p.path);
    const { text } = await invokeTool(ctx, 'get_toc', { path: st.path });
    return { contents: [{ uri, mimeType: 'text/markdown', text }] };
  }
  if (!has(ctx, 'read_note')) refuse('permission_denied', 'Notes are not readable with this key (its read tool family is switched off). Ask the vault owner for a key that allows reading.');
  const st = ctx.vault.requireNote(p.path);
  const max = ctx.deps.settings().maxFileReadBytes;
  if (st.size > max) {
    refuse('payload_too_large', `"${st.path}" is ${st.size} bytes, over the ${max}-byte limit for one read (setting maxFileReadBytes); read it in parts with read_note(path, offset=…) or by section.`, { size: st.size, limit: max, setting: 'maxFileReadBytes' });
  }
  return { contents: [{ uri: noteUri(st.path), mimeType: 'text/markdown', text: await ctx.deps.host.readText(st.path) }] };
}

function templates(ctx: ToolContext) {
  const out = [];
  if (has(ctx, 'read_note')) out.push({ uriTemplate: NOTE_TEMPLATE, name: 'note', title: 'Note', mimeType: 'text/markdown', description: 'A note of the vault as markdown, by its vault-relative path (e.g. vault://note/Projects/Plan.md); paths complete.' });
  if (has(ctx, 'get_toc')) out.push({ uriTemplate: TOC_TEMPLATE, name: 'toc', title: 'Note outline', mimeType: 'text/markdown', description: 'The heading outline of a note with the #N ordinals read_note(section=…) accepts; paths complete.' });
  return out;
}

export function registerResources(server: McpServer['server'], deps: ServerDeps, session: HubSession): void {
  const ctx = (signal: AbortSignal) => contextFor(deps, session.caller, session.tools, signal);
  server.setRequestHandler(ListResourcesRequestSchema, async (req, extra) => {
    try { return listResources(ctx(extra.signal), req.params?.cursor); } catch (e) { throw toMcpError(e, 'resources/list'); }
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_req, extra) => ({ resourceTemplates: templates(ctx(extra.signal)) }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    const uri = req.params.uri;
    let path: string | undefined;
    try { const p = parseUri(uri); if (p.kind !== 'guide') path = p.path; } catch { /* refused inside, metered */ }
    const c = ctx(extra.signal);
    return metered(c, 'resources/read', path ? { uri, path } : { uri }, () => readResource(c, uri));
  });
  // Subscriptions need no existing note (one can wait for a note to be created); one outside the
  // key's root is accepted like any other and never fires, exactly as for a note that never appears.
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    let key: string;
    try { key = canonicalUri(parseUri(req.params.uri)); } catch (e) { throw toMcpError(e, 'resources/subscribe'); }
    if (!session.subscriptions.has(key) && session.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      throw new RequestError(ErrorCode.InvalidParams, `This session already holds ${MAX_SUBSCRIPTIONS} subscriptions; unsubscribe from some first.`);
    }
    // Notifications name the URI as the client spelled it.
    session.subscriptions.set(key, req.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    try { session.subscriptions.delete(canonicalUri(parseUri(req.params.uri))); } catch { /* never subscribed */ }
    return {};
  });
}
