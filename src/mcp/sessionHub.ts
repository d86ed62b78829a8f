// What open MCP sessions hear without asking (one hub per server, made on first use):
// - notifications/resources/updated for the URIs a session subscribed to, when a note changes, by
//   a person (the app, a sync client, an editor) or by an agent (every write goes through the host);
// - notifications/resources/list_changed when notes it can see are created, deleted or renamed;
// - notifications/tools/list_changed when a settings or key change adds or removes tools for it (and
//   prompts/list_changed when that changes which prompts it is offered);
// - notifications/message (logging) for index problems and feature failures, at warning, filtered by
//   the level the session set with logging/setLevel.
// Every notice respects the session's key as tools do: a root-confined key hears only about paths
// inside its root, and nothing that would tell it about the rest of the vault.
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import type { VaultEvent } from '../host/port.js';
import type { KeyRecord } from '../core/keys.js';
import { isNotePath } from '../core/paths.js';
import { visibleIn } from '../services/scopedVault.js';
import type { Caller, Family, ServerDeps, ToolDef } from './tool.js';
import { GUIDE_URI, noteUri, tocUri } from './resourceUris.js';
import { availablePrompts } from './prompts.js';

export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/** Until a session sets a level it hears warnings and worse. */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'warning';
/** How often key/setting changes (tool lists) and index states are looked at while sessions are open. */
export const HUB_TICK_MS = 2000;
/** Subscriptions one session may hold. */
export const MAX_SUBSCRIPTIONS = 1000;
const GUIDE_FILES = ['CLAUDE.md', 'AGENTS.md'];

export interface HubSession {
  caller: Caller;
  tools: () => ToolDef[];
  server: McpServer['server'];
  /** Canonical URI (resourceUris.canonicalUri) → the URI as the client subscribed to it. */
  subscriptions: Map<string, string>;
  logLevel: LoggingLevel;
  toolsSig: string;
  /** The tools at the last list_changed check (to tell whether the prompt list changed with them). */
  lastTools: ToolDef[];
  /** Index problems already told to this session, by index name. */
  told: Map<string, string>;
  listTimer: ReturnType<typeof setTimeout> | null;
}

export interface LogEntry {
  level: LoggingLevel;
  logger: string;
  data: string;
  /** Vault-wide facts (counts over every note) are not told to root-confined keys. */
  vaultWide?: boolean;
}

const severity = (l: LoggingLevel) => LOG_LEVELS.indexOf(l);
/** Text that names a path (a note, a folder, a file on disk) is kept from root-confined keys. */
const namesPath = (s: string) => /[/\\]|\.md\b/i.test(s);

export class SessionHub {
  private readonly sessions = new Set<HubSession>();
  private unsubscribe: (() => void) | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private ticking = false;

  constructor(private readonly deps: ServerDeps) {}

  get size(): number {
    return this.sessions.size;
  }

  add(s: HubSession): void {
    this.sessions.add(s);
    if (!this.unsubscribe) this.unsubscribe = this.deps.host.subscribe((e) => this.onEvent(e));
    if (!this.timer) {
      this.timer = setInterval(() => void this.tick(), HUB_TICK_MS);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  remove(s: HubSession): void {
    this.sessions.delete(s);
    if (s.listTimer) clearTimeout(s.listTimer);
    if (this.sessions.size) return;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One log line to every session whose level lets it through (and whose key may hear it). */
  log(entry: LogEntry): void {
    for (const s of this.sessions) this.tell(s, entry);
  }

  private tell(s: HubSession, e: LogEntry): void {
    if (severity(e.level) < severity(s.logLevel)) return;
    if (s.caller.root && (e.vaultWide || namesPath(e.data))) return;
    s.server.notification({ method: 'notifications/message', params: { level: e.level, logger: e.logger, data: e.data } }).catch(() => undefined);
  }

  private onEvent(e: VaultEvent): void {
    if (e.type === 'resolved') return;
    const paths = e.type === 'rename' ? [e.path, e.oldPath] : [e.path];
    const structural = e.type !== 'modify' && e.type !== 'metadata';
    for (const s of this.sessions) {
      // Cheap when nobody listens: a folder rename is thousands of events in one task of the app.
      const wantsUpdates = s.subscriptions.size > 0;
      if (!wantsUpdates && (!structural || s.listTimer)) continue;
      const seen = paths.filter((p) => visibleIn(this.deps.host, s.caller.root, p));
      if (!seen.length) continue;
      if (structural && seen.some(isNotePath)) this.listChanged(s);
      if (!wantsUpdates) continue;
      const uris = new Set<string>();
      for (const p of seen) {
        if (e.type === 'metadata') { uris.add(tocUri(p)); continue; }
        uris.add(noteUri(p));
        // A deleted or renamed note has no outline any more; a modified one gets a metadata event.
        if (e.type !== 'modify') uris.add(tocUri(p));
        if (GUIDE_FILES.some((g) => p === (s.caller.root ? `${s.caller.root}/${g}` : g))) uris.add(GUIDE_URI);
      }
      for (const uri of uris) {
        const asSubscribed = s.subscriptions.get(uri);
        if (asSubscribed) s.server.sendResourceUpdated({ uri: asSubscribed }).catch(() => undefined);
      }
    }
  }

  /** Several creates or deletes in a row (a folder move, a sync) make one list_changed. */
  private listChanged(s: HubSession): void {
    if (s.listTimer) return;
    s.listTimer = setTimeout(() => {
      s.listTimer = null;
      s.server.sendResourceListChanged().catch(() => undefined);
    }, 250);
    (s.listTimer as { unref?: () => void }).unref?.();
  }

  /** Key and setting changes (tool lists) and index problems, looked at every HUB_TICK_MS. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const keys = this.deps.services.keys;
      await keys?.refresh().catch(() => undefined);
      const records = new Map<string, KeyRecord>((keys?.list() ?? []).map((r) => [r.id, r]));
      const problems = this.indexProblems();
      for (const s of this.sessions) {
        const rec = records.get(s.caller.keyId);
        // The same refresh http/app.ts makes on each request, so a change is seen without one.
        if (rec) Object.assign(s.caller, { scope: rec.scope, root: rec.root ?? '', disabledFamilies: (rec.disabledFamilies ?? []) as Family[] });
        const sig = toolSignature(s.tools());
        if (sig !== s.toolsSig) {
          // Prompts are offered by the tools they need, so their list may change with it.
          const prompts = promptSignature(s.tools);
          if (prompts !== promptSignature(() => s.lastTools)) s.server.sendPromptListChanged().catch(() => undefined);
          s.toolsSig = sig;
          s.lastTools = s.tools();
          s.server.sendToolListChanged().catch(() => undefined);
        }
        for (const [name, p] of problems) {
          if (s.told.get(name) === p.key) continue;
          s.told.set(name, p.key);
          if (p.entry) this.tell(s, p.entry);
        }
      }
    } finally { this.ticking = false; }
  }

  /** Each index's current problem (key '' = none), as counts and reasons, never paths. */
  private indexProblems(): Map<string, { key: string; entry: LogEntry | null }> {
    const out = new Map<string, { key: string; entry: LogEntry | null }>();
    for (const p of this.deps.services.indexes ?? []) {
      let st;
      try { st = p.status(); } catch { continue; }
      const logger = `${st.name} index`;
      if (st.state === 'unavailable') {
        out.set(st.name, { key: `unavailable:${st.detail ?? ''}`, entry: { level: 'warning', logger, data: `${logger} unavailable${st.detail ? `: ${st.detail}` : ''}; stats shows its state.` } });
      } else if (st.skipped) {
        out.set(st.name, { key: `skipped:${st.skipped}`, entry: { level: 'warning', logger, vaultWide: true, data: `${logger}: ${st.skipped} note(s) could not be indexed (too large, unreadable or failed); stats shows the counts, and the rest of the index answers as usual.` } });
      } else out.set(st.name, { key: '', entry: null });
    }
    return out;
  }
}

export function toolSignature(tools: ToolDef[]): string {
  return tools.map((t) => t.name).join(',');
}

function promptSignature(tools: () => ToolDef[]): string {
  return availablePrompts({ tools }).map((p) => p.name).join(',');
}

const hubs = new WeakMap<ServerDeps, SessionHub>();

export function sessionHub(deps: ServerDeps): SessionHub {
  let h = hubs.get(deps);
  if (!h) { h = new SessionHub(deps); hubs.set(deps, h); }
  return h;
}

/**
 * The host log (deps.services.log) also goes to open sessions: every feature reports its failures
 * there (index load and save, the change feed, the inference worker), at warning; its other lines
 * (rebuilds, counts) at info. runtime.ts installs this before the features start, so they capture
 * the forwarding function.
 */
export function forwardLogs(deps: ServerDeps, hostLog?: (message: string) => void): (message: string) => void {
  return (message) => {
    hostLog?.(message);
    const logger = /^([a-z][\w -]{1,30}):/i.exec(message)?.[1] ?? 'vault-mcp-server';
    hubs.get(deps)?.log({ level: logLevelOf(message), logger, data: message });
  };
}

/** Failures are warnings; the rest of what features log (rebuilds, counts) is info. */
export function logLevelOf(message: string): LoggingLevel {
  return /fail|unreadable|error|could not|cannot|unavailable|is off/i.test(message) ? 'warning' : 'info';
}
