// The pure UI helpers: connection strings and the status-bar text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bridgePath, claudeCodeCommand, claudeDesktopConfig, connectUrl, isLoopback, KEY_PLACEHOLDER } from '../../src/plugin/connectInfo.js';
import { pendingWork, statusText, statusTooltip } from '../../src/plugin/statusBar.js';
import type { IndexStatus } from '../../src/services/status.js';

test('connectUrl: loopback and wildcard binds connect through 127.0.0.1; other addresses as given', () => {
  assert.equal(connectUrl({ bindAddress: '127.0.0.1' }, 27200), 'http://127.0.0.1:27200/mcp');
  assert.equal(connectUrl({ bindAddress: 'localhost' }, 1), 'http://127.0.0.1:1/mcp');
  assert.equal(connectUrl({ bindAddress: '0.0.0.0' }, 27201), 'http://127.0.0.1:27201/mcp');
  assert.equal(connectUrl({ bindAddress: '::' }, 27201), 'http://127.0.0.1:27201/mcp');
  assert.equal(connectUrl({ bindAddress: '192.168.1.5' }, 80), 'http://192.168.1.5:80/mcp');
  assert.equal(connectUrl({ bindAddress: 'fd00::1' }, 80), 'http://[fd00::1]:80/mcp');
  assert.equal(isLoopback('::1'), true);
  assert.equal(isLoopback('0.0.0.0'), false);
});

test('claudeCodeCommand: the exact line to paste, placeholder when the key is unknown', () => {
  const url = 'http://127.0.0.1:27200/mcp';
  assert.equal(claudeCodeCommand(url, 'vmcp_abc'), 'claude mcp add --transport http vault http://127.0.0.1:27200/mcp --header "Authorization: Bearer vmcp_abc"');
  assert.equal(claudeCodeCommand(url), `claude mcp add --transport http vault ${url} --header "Authorization: Bearer ${KEY_PLACEHOLDER}"`);
});

test('claudeDesktopConfig: our stdio bridge beside main.js, the key in env (never in args)', () => {
  const bridge = bridgePath('/home/me/Vault/.obsidian/plugins/vault-mcp-server/');
  assert.equal(bridge, '/home/me/Vault/.obsidian/plugins/vault-mcp-server/bridge.cjs');
  assert.equal(bridgePath('C:\\Users\\me\\Vault\\.obsidian\\plugins\\vault-mcp-server'), 'C:\\Users\\me\\Vault\\.obsidian\\plugins\\vault-mcp-server\\bridge.cjs');
  const cfg = JSON.parse(claudeDesktopConfig('http://127.0.0.1:27200/mcp', 'vmcp_abc', bridge));
  assert.deepEqual(cfg, {
    mcpServers: { vault: { command: 'node', args: [bridge, '--url', 'http://127.0.0.1:27200/mcp'], env: { VAULT_MCP_KEY: 'vmcp_abc' } } },
  });
  assert.ok(!JSON.stringify(cfg.mcpServers.vault.args).includes('vmcp_'));
  assert.equal(JSON.parse(claudeDesktopConfig('http://127.0.0.1:1/mcp')).mcpServers.vault.env.VAULT_MCP_KEY, KEY_PLACEHOLDER);
});

test('statusText: on/off/busy/locked and pending index work', () => {
  const st = (state: IndexStatus['state'], pending: number): IndexStatus => ({ name: 'x', state, indexed: 0, pending });
  assert.equal(statusText({ kind: 'off' }), 'MCP: off');
  assert.equal(statusText({ kind: 'on', port: 27200 }, [st('ready', 0)]), 'MCP: on :27200');
  assert.equal(statusText({ kind: 'on', port: 27200 }, [st('building', 12), st('unavailable', 40)]), 'MCP: on :27200 · indexing 12 notes');
  assert.equal(statusText({ kind: 'port-busy', port: 27200 }), 'MCP: port 27200 busy');
  assert.equal(statusText({ kind: 'locked', message: 'm' }), 'MCP: served by CLI');
  assert.equal(pendingWork([st('building', 2), st('loading', 3), st('ready', 9)]), 5);
  // Progress (indexed of indexed + pending) once something is indexed; per-index lines in the tooltip.
  const kw: IndexStatus = { name: 'keyword', state: 'building', indexed: 300, pending: 12 };
  assert.equal(statusText({ kind: 'on', port: 27200 }, [kw, st('ready', 0)]), 'MCP: on :27200 · indexing 300/312');
  assert.match(statusTooltip({ kind: 'on', port: 27200 }, [kw]), /keyword: building, 300 indexed, 12 pending/);
});
