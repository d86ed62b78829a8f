// The long-task bench's MCP client, on a thread of its own: in use the client is another process (Claude
// Code, the Inspector), so its own work (the SDK client's Ajv instance, zod parsing of every response)
// must not be counted in the plugin's blocks, as it was while the client ran on the bench's main thread.
// Gets { url, key, calls: [tool, args][] }; answers { ok, results: { tool, isError, found, text }[] } or { ok: false, error }.
import { parentPort } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

parentPort.on('message', async ({ url, key, calls }) => {
  try {
    const client = new Client({ name: 'vault-mcp-longtasks', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    const results = [];
    try {
      for (const [tool, args] of calls) {
        const r = await client.callTool({ name: tool, arguments: args });
        // Only what the bench checks goes back: a structured clone is read on the main thread.
        results.push({ tool, isError: Boolean(r.isError), found: Array.isArray(r.structuredContent?.results) ? r.structuredContent.results.length : null, text: r.isError ? JSON.stringify(r.content).slice(0, 300) : '' });
      }
    } finally { await client.close(); }
    parentPort.postMessage({ ok: true, results });
  } catch (e) {
    parentPort.postMessage({ ok: false, error: String(e?.stack ?? e).slice(0, 600) });
  }
});
