// Request guards that run before any key lookup: Host header (DNS rebinding) and Origin checks.
import type { Request, Response, NextFunction } from 'express';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostName(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const i = h.lastIndexOf(':');
  return i >= 0 ? h.slice(0, i) : h;
}

export function isLoopbackOrigin(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === 'http:' || u.protocol === 'https:') && LOOPBACK_NAMES.has(u.hostname.toLowerCase());
  } catch {
    return false;
  }
}

export function jsonRpcError(res: Response, status: number, message: string, code = -32000): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** Only loopback names (plus explicitly allowed hosts) may appear in Host; only loopback Origins. */
export function hostAndOriginGuard(allowedHosts: () => string[]) {
  return (req: Request, res: Response, next: NextFunction) => {
    const host = req.headers.host;
    const allowed = new Set([...LOOPBACK_NAMES, ...allowedHosts().map((h) => h.toLowerCase())]);
    if (!host || !allowed.has(hostName(host))) {
      return jsonRpcError(res, 403, `Forbidden: Host header "${host ?? ''}" is not allowed. Connect through http://127.0.0.1:PORT/mcp, or add the host name to the allowed hosts setting.`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin)) {
      return jsonRpcError(res, 403, `Forbidden: requests from the web page origin "${origin}" are refused; only local clients may connect.`);
    }
    if (origin) {
      // Browser-based local clients (e.g. the MCP Inspector UI) need CORS for their own loopback origin only.
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID');
      res.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      if (req.method === 'OPTIONS') return res.status(204).end();
    }
    next();
  };
}

export function bearerToken(req: Request): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? m[1] : null;
}
