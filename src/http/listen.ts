// Binding and stopping: stopping closes every session and connection (open SSE streams included) so
// the port is free again at once.
import { createServer, type Server as HttpServer } from 'node:http';
import type express from 'express';
import type { SessionTable } from './sessions.js';

export interface RunningServer {
  host: string;
  port: number;
  url: string;
  close(): Promise<void>;
}

export class PortInUseError extends Error {
  constructor(readonly host: string, readonly port: number) {
    super(`Port ${port} on ${host} is already in use (another Vault MCP Server, or another program). Pick another port in the settings (or --port), or stop the other program.`);
  }
}

export interface SlowClientLimits {
  /** A request's headers must arrive within this (slowloris). */
  headersTimeoutMs: number;
  /** The whole request, headers and body, must arrive within this (a trickled body). */
  requestTimeoutMs: number;
}

export function listen(app: express.Express, sessions: SessionTable, host: string, port: number, slow: SlowClientLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000 }): Promise<RunningServer> {
  // Node checks those two limits on a timer: every second here instead of its default 30 s.
  const http: HttpServer = createServer({ connectionsCheckingInterval: 1000 }, app);
  // Longer than clients' idle keep-alive, so a client never reuses a socket the server is closing.
  http.keepAliveTimeout = 65_000;
  http.headersTimeout = slow.headersTimeoutMs;
  http.requestTimeout = Math.max(slow.requestTimeoutMs, slow.headersTimeoutMs);
  return new Promise((resolve, reject) => {
    http.once('error', (e: NodeJS.ErrnoException) => {
      reject(e.code === 'EADDRINUSE' ? new PortInUseError(host, port) : e);
    });
    http.listen(port, host, () => {
      const addr = http.address();
      const real = typeof addr === 'object' && addr ? addr.port : port;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        host,
        port: real,
        url: `http://${shown}:${real}/mcp`,
        close: async () => {
          await sessions.closeAll();
          await new Promise<void>((r) => { http.close(() => r()); http.closeAllConnections(); });
        },
      });
    });
  });
}
