// Entry of server.js, the part of the plugin that main.js loads only when the server starts (after the
// layout is ready, and only when it is enabled): the MCP server, the HTTP app, search, embeddings and
// every tool. Keeping it out of main.js makes the plugin's own load cheap (bench/launch.bench.ts).
// Nothing here imports 'obsidian': the app's runtime pieces (TFile, requestUrl…) are passed in.
import { createServer } from 'node:net';
import type { KeyRecord } from '../core/keys.js';
import type { ServerDeps } from '../mcp/tool.js';
import { callerFor } from '../http/app.js';
import { permittedTools, toolListing } from '../mcp/server.js';

export { VERSION } from '../version.js';

// Set by esbuild: the build the chunk files beside this one come from (src/plugin/loadServer.ts checks it).
declare const __SERVER_BUILD__: string | undefined;
export const SERVER_BUILD: string | null = typeof __SERVER_BUILD__ === 'string' ? __SERVER_BUILD__ : null;
export { startRuntime } from '../runtime.js';
export { ObsidianHost } from '../host/obsidian/obsidianHost.js';
export { acquireServeLock, ServeLockError } from '../host/serveLock.js';
export { PortInUseError } from '../http/listen.js';
export { indexStatuses } from '../services/indexReport.js';
export { saveProblems } from '../services/saveReport.js';

/** Size of the tools/list answer this key gets (what an agent pays in context): tools, characters,
 *  UTF-8 bytes and a token estimate (bytes / 4, the usual rule of thumb for JSON). */
export function toolsListSize(deps: ServerDeps, rec: KeyRecord): { tools: number; chars: number; bytes: number; tokens: number } {
  const tools = permittedTools(deps, callerFor(rec));
  const json = JSON.stringify({ tools: tools.map((t) => toolListing(t, deps)) });
  const bytes = new TextEncoder().encode(json).length;
  return { tools: tools.length, chars: json.length, bytes, tokens: Math.ceil(bytes / 4) };
}

/** Can a server bind host:port right now? (A probe; the real bind may still lose a race.) */
export function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, host, () => s.close(() => resolve(true)));
  });
}

/** The first port from `from` (up to `tries` ports) that is free on host, or null. */
export async function firstFreePort(host: string, from: number, tries = 50): Promise<number | null> {
  for (let p = from; p < from + tries && p <= 65535; p++) if (await portFree(host, p)) return p;
  return null;
}
