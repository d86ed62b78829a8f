// MCP sessions: one transport + server per session, bound to the key that opened it, closed when idle.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Caller } from '../mcp/tool.js';
import { clearInterval, setInterval } from 'node:timers';

export interface Session {
  id: string;
  keyId: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** The caller the session's server was built with; refreshed from the key record on every request. */
  caller?: Caller;
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly idleMs: () => number, private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  add(s: Session): void {
    this.sessions.set(s.id, s);
  }

  async remove(id: string): Promise<void> {
    const s = this.sessions.get(id);
    if (!s) return;
    this.sessions.delete(id);
    await s.transport.close().catch(() => undefined);
    await s.server.close().catch(() => undefined);
  }

  /** Closes every session of a key (revocation). */
  async removeKey(keyId: string): Promise<void> {
    for (const s of [...this.sessions.values()]) if (s.keyId === keyId) await this.remove(s.id);
  }

  sweep(): void {
    const limit = this.now() - this.idleMs();
    for (const s of [...this.sessions.values()]) if (s.lastSeen < limit) void this.remove(s.id);
  }

  start(): void {
    this.timer = setInterval(() => this.sweep(), 30_000);
    (this.timer as { unref?: () => void }).unref?.();
  }

  async closeAll(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all([...this.sessions.keys()].map((id) => this.remove(id)));
  }
}
