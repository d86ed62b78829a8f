// The stdio bridge (`node dist/cli.js bridge`, and the standalone bridge.cjs the plugin ships) between
// the real SDK StdioClientTransport and a running server: tools, resources and the server's own
// notifications pass through; a wrong key reaches the client as our 401 text; the key is never taken
// on the command line; a server that is not running is named as such.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, REPO } from '../helpers/paths.js';
import { copyVault, tempDir } from '../helpers/vault.js';
import { startCli, connect, call, type CliServer } from '../helpers/server.js';

const KEY = 'vmcp_bridge_test_key_0123456789abcdefghijklmn';
const BRIDGE_CJS = join(REPO, 'bridge.cjs');
let server: CliServer;
let vault: string;

before(async () => {
  vault = copyVault();
  server = await startCli(vault, { env: { VAULT_MCP_TOKEN: KEY } });
});
after(async () => { await server?.stop(); });

function keyFile(key: string): string {
  const f = join(tempDir('vmcp-bridge-'), 'key');
  writeFileSync(f, `${key}\n`);
  chmodSync(f, 0o600);
  return f;
}

function stdioClient(args: string[], env: Record<string, string> = {}): { client: Client; transport: StdioClientTransport } {
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  return { client: new Client({ name: 'bridge-test', version: '1.0.0' }), transport };
}

for (const variant of ['dist/cli.js bridge', 'bridge.cjs'] as const) {
  test(`${variant}: tools, resources and server notifications pass through`, async () => {
    const args = variant === 'bridge.cjs' ? [BRIDGE_CJS, '--url', server.url] : [CLI, 'bridge', '--url', server.url, '--key-file', keyFile(KEY)];
    const { client, transport } = stdioClient(args, variant === 'bridge.cjs' ? { VAULT_MCP_KEY: KEY } : {});
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, 'vault-mcp-server');
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('read_note') && tools.includes('edit_note'));
      const r = await client.callTool({ name: 'read_note', arguments: { path: 'Welcome.md' } });
      assert.ok(!r.isError);
      const note = await client.readResource({ uri: 'vault://note/Welcome.md' });
      assert.match(String((note.contents[0] as { text: string }).text), /Welcome/);
      // A change made through another session reaches the bridged client on the server's GET stream.
      await client.subscribeResource({ uri: 'vault://note/Welcome.md' });
      const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
      const direct = await connect(server.url, KEY);
      const before = await call(direct, 'read_note', { path: 'Welcome.md' });
      assert.ok(!(await call(direct, 'edit_note', { path: 'Welcome.md', content: `\nbridged ${variant}\n`, append: true, expected_hash: before.structuredContent!.content_hash })).isError);
      assert.equal(await updated, 'vault://note/Welcome.md');
      await direct.close();
    } finally { await client.close(); }
  });
}

test('bridge: a wrong key fails with the server\'s 401 text, not an OAuth or transport error', async () => {
  for (const args of [[CLI, 'bridge', '--url', server.url, '--key-file', keyFile('vmcp_wrong_key_000000000000000000000000000')], [BRIDGE_CJS, '--url', server.url, '--key-file', keyFile('vmcp_wrong')]]) {
    const { client, transport } = stdioClient(args);
    await assert.rejects(client.connect(transport), /Unauthorized: this key is unknown, revoked or expired\. Create a key in the Vault MCP Server settings tab/);
    await client.close().catch(() => undefined);
  }
});

test('bridge: a server that is not running is named, and the key is never read from the command line', async () => {
  const { client, transport } = stdioClient([CLI, 'bridge', '--url', 'http://127.0.0.1:9/mcp', '--key-file', keyFile(KEY)]);
  await assert.rejects(client.connect(transport), /cannot reach http:\/\/127\.0\.0\.1:9\/mcp .*is the Vault MCP Server running/);
  await client.close().catch(() => undefined);

  for (const argv of [['--url', server.url, '--key', KEY], ['--url', server.url, KEY], ['--url', server.url]]) {
    const r = spawnSync(process.execPath, [CLI, 'bridge', ...argv], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, input: '' });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, argv.length === 2 ? /no key: pass --key-file FILE or set VAULT_MCP_KEY/ : /never taken on the command line/);
    assert.ok(!r.stdout.includes(KEY));
  }
});
