// MCP sessions: one transport + server per session, bound to the key that opened it, closed when idle.
// Their number is capped per key and in all (each holds an MCP server, a transport and maybe an open
// event stream): a new session past a cap closes the least recently used session that is not
// running a request (an open event stream does not count as running: it is re-opened by the client).
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
  /** POST requests of this session being handled right now (a session running one is not evicted). */
  busy?: number;
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

  /** Sessions being opened right now (initialize in flight), per key: they count against the caps. */
  private readonly opening = new Map<string, number>();
  private openingTotal = 0;

  /** Sessions a key has open or is opening. */
  countOf(keyId: string): number {
    let n = this.opening.get(keyId) ?? 0;
    for (const s of this.sessions.values()) if (s.keyId === keyId) n++;
    return n;
  }

  /** The least recently used session not running a request (of `keyId` when given), or undefined. */
  private oldestIdle(keyId?: string): Session | undefined {
    let best: Session | undefined;
    for (const s of this.sessions.values()) {
      if ((keyId !== undefined && s.keyId !== keyId) || (s.busy ?? 0) > 0) continue;
      if (!best || s.lastSeen < best.lastSeen) best = s;
    }
    return best;
  }

  /**
   * Admits one more session of `keyId` under the caps (0 = no cap), closing the oldest idle sessions
   * as needed, and holds its place until `done()` (call it once the initialize request is answered).
   * Returns which cap is full of busy or opening sessions instead when there is no room.
   */
  async admit(keyId: string, perKey: number, total: number): Promise<{ done(): void } | 'key' | 'total'> {
    while (perKey > 0 && this.countOf(keyId) >= perKey) {
      const victim = this.oldestIdle(keyId);
      if (!victim) return 'key';
      this.evicted++;
      await this.remove(victim.id);
    }
    while (total > 0 && this.sessions.size + this.openingTotal >= total) {
      const victim = this.oldestIdle();
      if (!victim) return 'total';
      this.evicted++;
      await this.remove(victim.id);
    }
    this.opening.set(keyId, (this.opening.get(keyId) ?? 0) + 1);
    this.openingTotal++;
    let open = true;
    return {
      done: () => {
        if (!open) return;
        open = false;
        this.openingTotal--;
        const n = (this.opening.get(keyId) ?? 1) - 1;
        if (n > 0) this.opening.set(keyId, n); else this.opening.delete(keyId);
      },
    };
  }

  /** Sessions closed to make room since the start (reported by /health). */
  evicted = 0;

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
