// The composition root both hosts share: deps, features, keys, the HTTP app and the listening server.
// main.ts (Obsidian) and cli.ts (headless) only construct a host and call this.
import type { VaultHost } from './host/port.js';
import type { Settings } from './core/settings.js';
import type { ServerDeps, ToolMiddleware } from './mcp/tool.js';
import type { Services } from './mcp/services.js';
import { KeyStore } from './services/keyStore.js';
import { createHttpApp } from './http/app.js';
import { listen, type RunningServer } from './http/listen.js';
import { limitSettings } from './limits/settings.js';
import type { SessionTable } from './http/sessions.js';
import { features } from './features.js';
import type { FeatureHandle } from './feature.js';
import { VERSION } from './version.js';
import { forwardLogs } from './mcp/sessionHub.js';

export interface RuntimeOptions {
  host: VaultHost;
  settings: () => Settings;
  keys?: KeyStore;
  now?: () => number;
  /** Extra services from the host (e.g. the Obsidian app's requestUrl, SecretStorage). */
  services?: Services;
  middleware?: ToolMiddleware[];
}

export interface Runtime {
  deps: ServerDeps;
  keys: KeyStore;
  server: RunningServer;
  sessions: SessionTable;
  stop(): Promise<void>;
}

export async function createDeps(opts: RuntimeOptions): Promise<{ deps: ServerDeps; handles: FeatureHandle[] }> {
  const deps: ServerDeps = {
    host: opts.host,
    settings: opts.settings,
    version: VERSION,
    now: opts.now ?? Date.now,
    middleware: [...(opts.middleware ?? [])],
    services: { ...(opts.services ?? {}) },
  };
  // Feature failures reported to the host log also reach open MCP sessions (logging, at warning).
  deps.services.log = forwardLogs(deps, opts.services?.log);
  const handles: FeatureHandle[] = [];
  for (const f of features) {
    const h = await f.setup(deps);
    if (h) handles.push(h);
  }
  return { deps, handles };
}

export async function startRuntime(opts: RuntimeOptions): Promise<Runtime> {
  const keys = opts.keys ?? new KeyStore(opts.host.data, opts.now);
  await keys.load();
  const { deps, handles } = await createDeps(opts);
  deps.services.keys = keys;
  const { app, sessions } = createHttpApp({ deps, keys, ...deps.services.http });
  const s = opts.settings();
  let server: RunningServer;
  try {
    const lim = limitSettings(s);
    server = await listen(app, sessions, s.bindAddress, s.port, { headersTimeoutMs: Math.max(1, lim.headersTimeoutSeconds) * 1000, requestTimeoutMs: Math.max(1, lim.requestTimeoutSeconds) * 1000 });
    deps.services.serverUrl = server.url; // transfer links name the real port (also with --port 0)
  } catch (e) {
    await sessions.closeAll();
    for (const h of handles.reverse()) await h.stop?.().catch(() => undefined);
    throw e;
  }
  return {
    deps, keys, server, sessions,
    async stop() {
      await server.close();
      await keys.flush().catch(() => undefined);
      for (const h of handles.reverse()) await h.stop?.().catch(() => undefined);
    },
  };
}
