// Starting the real server for tests: either the built CLI as a child process (what users run), or
// the runtime in-process (faster, for suites that need many servers). Both speak real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './paths.js';
import { tempDir } from './vault.js';

export interface CliServer {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<number | null>;
}

export async function startCli(vault: string, opts: { env?: Record<string, string>; args?: string[]; dataDir?: string } = {}): Promise<CliServer> {
  const dataDir = opts.dataDir ?? join(tempDir('vmcp-data-'), 'data');
  const child = spawn(process.execPath, [CLI, 'serve', '--vault', vault, '--port', '0', '--data-dir', dataDir, '--no-watch', ...(opts.args ?? [])], {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const check = () => {
      const m = /listening on (http:\/\/\S+\/mcp)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${out}`)); });
  });
  return {
    url, port: Number(new URL(url).port), child, output: () => out,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode);
      child.once('exit', (code) => resolve(code));
      child.kill('SIGTERM');
    }),
  };
}

/**
 * fetch with a signal of its own per request. The SDK's client transport hands the same AbortSignal
 * (one per transport) to every fetch, and undici removes the abort listener it adds for a Request
 * only when that Request is garbage-collected: a sweep of thousands of calls between two collections
 * piled up thousands of listeners on that one signal (9,303 MaxListenersExceededWarning lines in
 * `npm test`). Here the transport's signal gets ONE listener, which aborts the requests still in
 * flight; each request has its own controller, dropped once its response body is read or cancelled.
 */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

export const fetchWithOwnSignal: typeof fetch = async (input, init) => {
  const outer = init?.signal;
  if (!outer) return fetch(input, init);
  let live = inFlight.get(outer);
  if (!live) {
    const set = new Set<AbortController>();
    live = set;
    inFlight.set(outer, set);
    outer.addEventListener('abort', () => { for (const c of set) c.abort(outer.reason); set.clear(); }, { once: true });
  }
  const inner = new AbortController();
  if (outer.aborted) inner.abort(outer.reason);
  else live.add(inner);
  const done = () => { live.delete(inner); };
  let res: Response;
  try { res = await fetch(input, { ...init, signal: inner.signal }); } catch (e) { done(); throw e; }
  if (!res.body) { done(); return res; }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      try {
        const r = await reader.read();
        if (r.done) { done(); c.close(); } else c.enqueue(r.value);
      } catch (e) { done(); c.error(e); }
    },
    cancel(reason) { done(); return reader.cancel(reason); },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
};

export async function connect(url: string, key: string, name = 'vault-mcp-test'): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } }, fetch: fetchWithOwnSignal });
  await client.connect(transport);
  return client;
}

export type ToolResult = CallToolResult & { structuredContent?: Record<string, any> };

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

/** The refusal code from a result's last `MCP-REFUSAL {...}` line, or null when the call succeeded. */
export function refusalCode(r: ToolResult): string | null {
  if (!r.isError) return null;
  const text = (r.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  const line = text.split('\n').filter((l) => l.startsWith('MCP-REFUSAL ')).pop();
  if (!line) throw new Error(`error result without an MCP-REFUSAL line: ${text}`);
  return JSON.parse(line.slice('MCP-REFUSAL '.length)).code;
}

export function textOf(r: ToolResult): string {
  return (r.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}
