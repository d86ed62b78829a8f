// scripts/auth-proxy.mjs (how the conformance suite reaches a keyed server): the key comes from a file
// or VAULT_MCP_KEY and never from the command line; requests pass through with the bearer header added.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { REPO, SAMPLE_VAULT } from '../helpers/paths.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { tempDir } from '../helpers/vault.js';

const PROXY = join(REPO, 'scripts/auth-proxy.mjs');

function startProxy(args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [PROXY, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; const m = /auth proxy on (127\.0\.0\.1:\d+)/.exec(out); if (m) resolve({ child, url: `http://${m[1]}/mcp` }); });
    child.on('exit', (code) => reject(new Error(`proxy exited with ${code}: ${out}`)));
  });
}

test('auth-proxy: key from a file or the environment, never from argv; forwards with the bearer header', async () => {
  const rt = await startTestRuntime(SAMPLE_VAULT);
  try {
    const origin = rt.url.replace(/\/mcp$/, '');
    const refused = spawnSync(process.execPath, [PROXY, '0', origin, rt.rwKey], { encoding: 'utf8' });
    assert.equal(refused.status, 2);
    assert.match(refused.stderr, /not taken on the command line/);
    assert.match(spawnSync(process.execPath, [PROXY, '0', origin], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } }).stderr, /no key: set VAULT_MCP_KEY or pass --key-file FILE/);

    const file = join(tempDir('vmcp-proxy-'), 'key');
    writeFileSync(file, `${rt.readKey}\n`);
    chmodSync(file, 0o600);
    for (const [args, env] of [[['0', origin, '--key-file', file], {}], [['0', origin], { VAULT_MCP_KEY: rt.rwKey }]] as const) {
      const p = await startProxy([...args], env);
      try {
        // A client that sends no key at all gets in through the proxy, as the key the proxy holds.
        const c = new Client({ name: 'proxy-test', version: '1' });
        await c.connect(new StreamableHTTPClientTransport(new URL(p.url)));
        const tools = (await c.listTools()).tools.map((t) => t.name);
        assert.equal(tools.includes('edit_note'), !args.includes('--key-file'), 'read key from the file, readwrite key from the environment');
        await c.close();
      } finally { p.child.kill(); }
    }
  } finally { await rt.stop(); }
});
