// `npm run bench call-overhead`: what one trivial tool call costs end to end over HTTP (MCP SDK client
// → Streamable HTTP → tool → result), on our server beside a bare MCP SDK server (express +
// McpServer + StreamableHTTPServerTransport with sessions, one tool that answers at once) in the same
// run. Ours adds the Host/Origin guard, the bearer key (keys.json on disk, checked for revocation per
// request), limits, the audit log line, argument and output validation. Target (issue 16): ≤ 1.5× the
// bare server's median. Calls alternate in blocks between the two servers so load drift hits both.
import express from 'express';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NodeHost } from '../src/host/node/nodeHost.js';
import { KeyStore } from '../src/services/keyStore.js';
import { withDefaults } from '../src/settings.js';
import { startRuntime } from '../src/runtime.js';
import { copyVault, tempDir } from '../test/helpers/vault.js';

const CALLS = Number(process.env.OVERHEAD_CALLS ?? 1000);
const BLOCK = 50;
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

/** The reference: the SDK's own server, sessions on, one tool returning structured content at once. */
async function bareServer(): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(express.json());
  const transports = new Map<string, StreamableHTTPServerTransport>();
  app.post('/mcp', async (req, res) => {
    const sid = req.headers['mcp-session-id'] as string | undefined;
    let t = sid ? transports.get(sid) : undefined;
    if (!t) {
      if (!isInitializeRequest(req.body)) { res.status(400).end(); return; }
      const mcp = new McpServer({ name: 'bare', version: '1.0.0' });
      mcp.registerTool('list_folders', { description: 'trivial', inputSchema: {}, outputSchema: { folders: z.array(z.string()) } }, async () => ({ structuredContent: { folders: ['a', 'b'] }, content: [{ type: 'text', text: 'a\nb' }] }));
      const tr: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => { transports.set(id, tr); } });
      await mcp.connect(tr);
      t = tr;
    }
    await t.handleRequest(req, res, req.body);
  });
  const server: Server = await new Promise((r) => { const s = app.listen(0, '127.0.0.1', () => r(s)); });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

async function ourServer(): Promise<{ url: string; key: string; close(): Promise<void> }> {
  const host = new NodeHost(copyVault(), { dataDir: join(tempDir('vmcp-overhead-'), 'data'), watch: false });
  await host.ready();
  const keys = new KeyStore(host.data);
  const { raw } = await keys.add({ name: 'bench', scope: 'readwrite' }); // persisted in keys.json, like a real key
  const s = withDefaults({ port: 0, rateLimitPerMinute: 1e9, rateLimitBurst: 1e9, defaultDailyQuota: 0 });
  const rt = await startRuntime({ host, settings: () => s, keys });
  return { url: rt.server.url, key: raw, close: async () => { await rt.stop(); await host.close(); } };
}

async function client(url: string, key?: string): Promise<Client> {
  const c = new Client({ name: 'overhead-bench', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), key ? { requestInit: { headers: { Authorization: `Bearer ${key}` } } } : undefined));
  await c.listTools(); // the client validates structured results against the listed output schemas, as real clients do
  return c;
}

const bare = await bareServer();
const ours = await ourServer();
const cb = await client(bare.url);
const co = await client(ours.url, ours.key);
const once = async (c: Client) => { const t = performance.now(); await c.callTool({ name: 'list_folders', arguments: {} }); return performance.now() - t; };
for (let i = 0; i < 100; i++) { await once(cb); await once(co); } // warm up both
const tb: number[] = [];
const to: number[] = [];
for (let done = 0; done < CALLS; done += BLOCK) {
  for (let i = 0; i < BLOCK; i++) tb.push(await once(cb));
  for (let i = 0; i < BLOCK; i++) to.push(await once(co));
}
const mb = median(tb);
const mo = median(to);
console.log(`trivial tool call round trip over HTTP, ${CALLS} calls each, alternating blocks of ${BLOCK}`);
console.log('| server | median ms | p90 ms |');
console.log('| --- | --- | --- |');
console.log(`| bare MCP SDK server | ${mb.toFixed(2)} | ${pct(tb, 0.9).toFixed(2)} |`);
console.log(`| vault-mcp-server (list_folders, sample vault) | ${mo.toFixed(2)} | ${pct(to, 0.9).toFixed(2)} |`);
console.log(`ratio ${(mo / mb).toFixed(2)}× (target ≤ 1.5×)`);
// tools/list (the listing is built once per settings change, then served as is): the raw HTTP round
// trip, and through the SDK client, which also compiles a validator for every output schema it lists.
const sid = (co.transport as StreamableHTTPClientTransport | undefined)?.sessionId;
const rawList = async () => {
  const t = performance.now();
  const r = await fetch(ours.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${ours.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid ?? '', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  const body = await r.text();
  if (!body.includes('"list_folders"')) throw new Error(`tools/list failed: ${r.status} ${body.slice(0, 200)}`);
  return performance.now() - t;
};
const tr: number[] = [];
for (let i = 0; i < 200; i++) tr.push(await rawList());
const tl: number[] = [];
for (let i = 0; i < 100; i++) { const t = performance.now(); await co.listTools(); tl.push(performance.now() - t); }
console.log(`tools/list (${(await co.listTools()).tools.length} tools): raw HTTP round trip p50 ${median(tr).toFixed(2)} ms, p90 ${pct(tr, 0.9).toFixed(2)} ms (target ≤ 5 ms p50); through the SDK client (which compiles every output schema) p50 ${median(tl).toFixed(2)} ms`);
await cb.close();
await co.close();
await bare.close();
await ours.close();
