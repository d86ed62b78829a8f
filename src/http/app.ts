// The express app: guards, auth, /health and the Streamable HTTP MCP endpoint at /mcp.
import express, { type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { ServerDeps } from '../mcp/tool.js';
import type { Caller, Family } from '../mcp/tool.js';
import { buildServer, earlyRefusal } from '../mcp/server.js';
import type { KeyStore } from '../services/keyStore.js';
import type { KeyRecord } from '../core/keys.js';
import { indexStatuses } from '../services/indexReport.js';
import { saveProblems } from '../services/saveReport.js';
import { bearerToken, hostAndOriginGuard, jsonRpcError } from './guards.js';
import { SessionTable } from './sessions.js';
import { limitSettings } from '../limits/settings.js';
import { scrubMessage } from '../mcp/callGuard.js';

export interface HttpOptions {
  deps: ServerDeps;
  keys: KeyStore;
  /** Hook for issue-7 style per-address auth budgets; return a retry-after in seconds to refuse. */
  authThrottle?: { check(ip: string): number | null; fail(ip: string): void };
  /** Extra routes (transfer links…) mounted before /mcp. */
  extraRoutes?: (app: express.Express) => void;
}

export function callerFor(rec: KeyRecord): Caller {
  return { keyId: rec.id, keyName: rec.name, scope: rec.scope, root: rec.root ?? '', disabledFamilies: (rec.disabledFamilies ?? []) as Family[] };
}

export function createHttpApp(opts: HttpOptions): { app: express.Express; sessions: SessionTable } {
  const { deps, keys } = opts;
  const sessions = new SessionTable(() => deps.settings().sessionIdleMinutes * 60_000, deps.now);
  sessions.start();
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(hostAndOriginGuard(() => {
    const s = deps.settings();
    const bind = s.bindAddress === '0.0.0.0' || s.bindAddress === '::' ? [] : [s.bindAddress];
    return [...s.allowedHosts, ...bind];
  }));

  app.get('/health', (_req, res) => {
    // A background save the disk refused (full, unwritable) keeps the server up and is reported here.
    const failing = saveProblems(deps.host);
    res.json({ status: failing.length ? 'degraded' : 'ok', saves: { ok: !failing.length, failing }, name: 'vault-mcp-server', version: deps.version, host: deps.host.kind, sessions: sessions.size, sessions_evicted: sessions.evicted, indexes: indexStatuses(deps).map(({ name, state, indexed, pending }) => ({ name, state, indexed, pending })) });
  });

  opts.extraRoutes?.(app);

  const authenticate = async (req: Request, res: Response): Promise<KeyRecord | null> => {
    const ip = req.socket.remoteAddress ?? 'unknown';
    const wait = opts.authThrottle?.check(ip);
    if (wait) {
      res.setHeader('Retry-After', String(wait));
      jsonRpcError(res, 429, `Too many failed authentication attempts from this address; retry after ${wait} s.`);
      return null;
    }
    const raw = bearerToken(req);
    const rec = raw ? await keys.authenticate(raw) : null;
    if (!rec) {
      opts.authThrottle?.fail(ip);
      res.setHeader('WWW-Authenticate', 'Bearer realm="vault-mcp-server"');
      jsonRpcError(res, 401, raw
        ? 'Unauthorized: this key is unknown, revoked or expired. Create a key in the Vault MCP Server settings tab (or `node dist/cli.js keys add`) and send it as "Authorization: Bearer <key>".'
        : 'Unauthorized: send an API key as "Authorization: Bearer <key>". Create one in the Vault MCP Server settings tab or with `node dist/cli.js keys add`.');
      return null;
    }
    keys.touch(rec);
    return rec;
  };

  // The body parser follows a changed maxRequestBytes (settings tab) from the next request.
  let bodyLimit = -1;
  let bodyParser: ReturnType<typeof express.json> | null = null;
  const body: ReturnType<typeof express.json> = (req, res, next) => {
    const limit = deps.settings().maxRequestBytes;
    if (!bodyParser || limit !== bodyLimit) { bodyParser = express.json({ limit, type: ['application/json', 'application/*+json'] }); bodyLimit = limit; }
    return bodyParser(req, res, next);
  };
  const parseBody = (req: Request, res: Response) => new Promise<boolean>((resolve) => {
    body(req, res, (err?: unknown) => {
      if (!err) return resolve(true);
      const e = err as { type?: string; status?: number };
      if (e.type === 'entity.too.large') jsonRpcError(res, 413, `Request body over the ${deps.settings().maxRequestBytes}-byte limit (setting maxRequestBytes); send less per call.`);
      else jsonRpcError(res, 400, 'Parse error: the body is not valid JSON.', -32700);
      resolve(false);
    });
  });

  const handle = async (req: Request, res: Response) => {
    const rec = await authenticate(req, res);
    if (!rec) return;
    if (req.method === 'POST' && !(await parseBody(req, res))) return;
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s || s.keyId !== rec.id) return jsonRpcError(res, 404, 'Session not found (it expired or the server restarted); start a new session by sending initialize without an Mcp-Session-Id header.');
      s.lastSeen = deps.now();
      if (req.method === 'POST') { s.busy = (s.busy ?? 0) + 1; res.once('close', () => { s.busy = Math.max(0, (s.busy ?? 1) - 1); }); }
      // Root, families and scope edited in the settings tab apply to open sessions from their next request.
      if (s.caller) Object.assign(s.caller, callerFor(rec));
      // Cheap early refusal: a tools/call from a key whose general bucket is empty (or whose daily quota
      // is used up) is answered here, before the SDK parses and routes it, with the same tool result
      // dispatch() gives (isError, MCP-REFUSAL rate_limited/over_quota, retry_after_seconds) as plain JSON.
      const b = req.body as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: { name?: unknown; arguments?: unknown } } | undefined;
      if (req.method === 'POST' && s.caller && b && !Array.isArray(b) && b.jsonrpc === '2.0' && b.method === 'tools/call' && (typeof b.id === 'string' || typeof b.id === 'number')) {
        const early = earlyRefusal(deps, s.caller, b.params?.name, b.params?.arguments);
        if (early) { res.status(200).json({ jsonrpc: '2.0', id: b.id, result: early }); return; }
      }
      return s.transport.handleRequest(req, res, req.body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
      return jsonRpcError(res, 400, 'Bad request: no Mcp-Session-Id header; the first request of a session must be initialize.');
    }
    const lim = limitSettings(deps.settings());
    const place = await sessions.admit(rec.id, lim.maxSessionsPerKey, lim.maxSessions);
    if (typeof place === 'string') {
      res.setHeader('Retry-After', '5');
      return jsonRpcError(res, 503, place === 'key'
        ? `This key already has ${lim.maxSessionsPerKey} open sessions, all running requests (setting maxSessionsPerKey). Close sessions you no longer use (DELETE /mcp) or retry in a moment.`
        : `The server already has ${lim.maxSessions} open sessions, all running requests (setting maxSessions). Retry in a moment.`);
    }
    try {
      const caller = callerFor(rec);
      const server = buildServer(deps, caller);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => { place.done(); sessions.add({ id, keyId: rec.id, transport, server, lastSeen: deps.now(), caller }); },
        onsessionclosed: (id) => { void sessions.remove(id); },
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } finally { place.done(); }
  };

  const safe = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response) => {
    fn(req, res).catch((e) => {
      if (!res.headersSent) jsonRpcError(res, 500, `Internal error: ${scrubMessage(String((e as Error)?.message ?? e))}`, -32603);
    });
  };
  app.post('/mcp', safe(handle));
  app.get('/mcp', safe(handle));
  app.delete('/mcp', safe(handle));
  app.all('/mcp', (_req, res) => { res.setHeader('Allow', 'GET, POST, DELETE'); jsonRpcError(res, 405, 'Method not allowed.'); });
  app.use((_req, res) => { res.status(404).json({ error: 'not found', hint: 'The MCP endpoint is /mcp; /health reports status.' }); });
  return { app, sessions };
}
