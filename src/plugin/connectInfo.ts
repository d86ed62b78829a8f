// Ready-to-paste connection strings for MCP clients. Pure, so they are unit-tested.
import type { Settings } from '../core/settings.js';

/** Shown instead of a key we no longer know: raw keys are only kept in memory right after creation. */
export const KEY_PLACEHOLDER = '<your key>';

const WILDCARD = new Set(['0.0.0.0', '::', '']);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** Is this address only reachable from this machine? */
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.trim().toLowerCase());
}

/**
 * The URL a client on this machine should use. A wildcard bind is reachable at 127.0.0.1, which is
 * also what the Host guard always accepts; a specific address is used as is.
 */
export function connectUrl(s: Pick<Settings, 'bindAddress'>, port: number): string {
  const bind = s.bindAddress.trim();
  const host = WILDCARD.has(bind) || isLoopback(bind) ? '127.0.0.1' : bind;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
}

export function claudeCodeCommand(url: string, key: string = KEY_PLACEHOLDER): string {
  return `claude mcp add --transport http vault ${url} --header "Authorization: Bearer ${key}"`;
}

/** The stdio bridge shipped beside main.js (built from src/cli/bridge.ts). */
export const BRIDGE_FILE = 'bridge.cjs';

/** bridge.cjs in the plugin folder, in that folder's own path style. */
export function bridgePath(pluginDir: string): string {
  const sep = pluginDir.includes('\\') && !pluginDir.includes('/') ? '\\' : '/';
  return `${pluginDir.replace(/[\\/]+$/, '')}${sep}${BRIDGE_FILE}`;
}

/**
 * Claude Desktop's config file only starts local (stdio) servers, so it runs our bridge with Node.js:
 * bridge.cjs forwards to this server and passes our own refusals through (a mistyped key reads as
 * one). The key goes in env, never in args, where every process on the machine could read it.
 */
export function claudeDesktopConfig(url: string, key: string = KEY_PLACEHOLDER, bridge = BRIDGE_FILE): string {
  const config = { mcpServers: { vault: { command: 'node', args: [bridge, '--url', url], env: { VAULT_MCP_KEY: key } } } };
  return JSON.stringify(config, null, 2);
}
