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

/**
 * Claude Desktop's config file only starts local (stdio) servers, so a remote HTTP server with a
 * header goes through the mcp-remote bridge. The header is written as "Authorization:${AUTH_HEADER}"
 * with the value in env because Claude Desktop on Windows does not quote spaces inside args (as the
 * mcp-remote README documents). mcp-remote allows plain http only for localhost/127.0.0.1 unless
 * --allow-http is given.
 */
export function claudeDesktopConfig(url: string, key: string = KEY_PLACEHOLDER): string {
  const host = new URL(url).hostname;
  const args = ['-y', 'mcp-remote', url, '--header', 'Authorization:${AUTH_HEADER}'];
  if (host !== '127.0.0.1' && host !== 'localhost') args.push('--allow-http');
  const config = { mcpServers: { vault: { command: 'npx', args, env: { AUTH_HEADER: `Bearer ${key}` } } } };
  return JSON.stringify(config, null, 2);
}
