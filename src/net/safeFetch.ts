// One outbound GET under the deny policy (addressPolicy.ts): the name is resolved here, every address
// it resolves to must be public, and the connection is pinned to the checked address (the `lookup`
// option of node:http/https, so no second DNS answer can swap it); SNI and Host stay the original
// name. Redirects are followed by hand (at most 5), each hop checked the same way. Bytes and wall time
// are capped over the whole chain. Node's http(s) is used rather than fetch or Obsidian's requestUrl
// because neither lets the caller pin the address or stop at each redirect.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { classifyAddress, isLocalName } from './addressPolicy.js';
import { clearTimeout, setTimeout } from 'node:timers';

export type FetchFailure = 'invalid_url' | 'forbidden_address' | 'too_many_redirects' | 'payload_too_large' | 'timeout' | 'upstream_error' | 'network_error';

export class FetchError extends Error {
  constructor(readonly reason: FetchFailure, message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface ResolvedAddress { address: string; family: 4 | 6 }

/** Tests only (deps.services.testOnlyNetAllow, reachable from code, never from a setting): loopback hosts to allow, a stand-in resolver. */
export interface NetTestHooks { allow?: ReadonlySet<string>; resolve?: (host: string) => Promise<ResolvedAddress[]> }

export interface SafeFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  allowHttp: boolean;
  maxRedirects?: number;
  userAgent?: string;
  signal?: AbortSignal;
  /** DNS, replaceable in tests; default node:dns lookup of every address. */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
  /**
   * TEST ONLY: "address:port" pairs that may be reached although not public (a loopback test server).
   * Set programmatically by tests through deps.services; no setting or flag reaches it.
   */
  testAllow?: ReadonlySet<string>;
}

export interface FetchResult {
  finalUrl: string;
  status: number;
  contentType: string | null;
  bytes: Uint8Array;
  /** Every URL visited before the final one. */
  redirects: string[];
  /** The address the final connection was pinned to. */
  address: string;
}

async function defaultResolve(host: string): Promise<ResolvedAddress[]> {
  const rows = await dnsLookup(host, { all: true, verbatim: true });
  return rows.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
}

function portOf(u: URL): number {
  return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
}

/** Checks one URL and returns the address to pin the connection to. */
export async function checkTarget(u: URL, opts: Pick<SafeFetchOptions, 'allowHttp' | 'resolve' | 'testAllow'>): Promise<ResolvedAddress> {
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && opts.allowHttp)) {
    throw new FetchError('invalid_url', u.protocol === 'http:'
      ? `Plain http is off (setting importAllowHttp); use an https URL.`
      : `Only https URLs can be imported (got "${u.protocol}").`, { url: u.href });
  }
  if (u.username || u.password) throw new FetchError('invalid_url', 'URLs with a user name or password are refused; credentials would be sent to the remote.', { url: redact(u) });
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = portOf(u);
  const allowedForTest = (a: string) => !!opts.testAllow?.has(`${a}:${port}`);
  const literal = classifyAddress(host);
  if (literal) {
    if (!literal.allowed && !allowedForTest(literal.address) && !allowedForTest(host)) {
      throw new FetchError('forbidden_address', `${u.host} is a non-public address (${literal.reason}); imports only reach public internet addresses.`, { host: u.host, address: literal.address, range: literal.reason });
    }
    return { address: host, family: host.includes(':') ? 6 : 4 };
  }
  if (isLocalName(host) && !opts.testAllow?.size) {
    throw new FetchError('forbidden_address', `"${host}" is a local name; imports only reach public internet addresses.`, { host });
  }
  let rows: ResolvedAddress[];
  try {
    rows = await (opts.resolve ?? defaultResolve)(host);
  } catch (e) {
    throw new FetchError('network_error', `Could not resolve "${host}" (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`, { host });
  }
  if (!rows.length) throw new FetchError('network_error', `"${host}" has no address.`, { host });
  for (const r of rows) {
    const v = classifyAddress(r.address);
    if (!v || (!v.allowed && !allowedForTest(r.address))) {
      throw new FetchError('forbidden_address', `"${host}" resolves to ${r.address}, a non-public address (${v?.reason ?? 'unparseable'}); imports only reach public internet addresses, so nothing was fetched.`, { host, address: r.address, range: v?.reason ?? 'unparseable' });
    }
  }
  return rows[0];
}

function redact(u: URL): string {
  const c = new URL(u.href);
  c.username = '';
  c.password = '';
  return c.href;
}

interface Hop { res: IncomingMessage; close(): void }

function open(u: URL, pin: ResolvedAddress, opts: SafeFetchOptions, signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve, reject) => {
    const lookup: LookupFunction = (_host, lopts, cb) => {
      if ((lopts as { all?: boolean }).all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [pin]);
      else cb(null, pin.address, pin.family);
    };
    const isHttps = u.protocol === 'https:';
    const literal = classifyAddress(u.hostname) !== null;
    const req = (isHttps ? httpsRequest : httpRequest)({
      protocol: u.protocol,
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: portOf(u),
      path: u.pathname + u.search,
      method: 'GET',
      headers: { 'User-Agent': opts.userAgent ?? 'vault-mcp-server', Accept: '*/*', 'Accept-Encoding': 'identity' },
      agent: false,
      lookup,
      signal,
      ...(isHttps && !literal ? { servername: u.hostname } : {}),
    });
    req.on('response', (res) => resolve({ res, close: () => { res.destroy(); req.destroy(); } }));
    req.on('error', reject);
    req.end();
  });
}

/** GET `url` under the deny policy. Throws FetchError. */
export async function safeFetch(url: string, opts: SafeFetchOptions): Promise<FetchResult> {
  let u: URL;
  try { u = new URL(url); } catch { throw new FetchError('invalid_url', `"${url.slice(0, 200)}" is not an absolute URL.`); }
  const max = opts.maxRedirects ?? 5;
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(new FetchError('timeout', `The import took longer than ${Math.round(opts.timeoutMs / 1000)} s (setting importTimeoutS); nothing was written.`)), opts.timeoutMs);
  (timer as { unref?: () => void }).unref?.();
  const onOuter = () => ctl.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuter, { once: true });
  const redirects: string[] = [];
  const failure = (e: unknown): never => {
    if (ctl.signal.aborted && ctl.signal.reason instanceof FetchError) throw ctl.signal.reason;
    if (e instanceof FetchError) throw e;
    throw new FetchError('network_error', `Fetching ${u.host} failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`, { host: u.host });
  };
  try {
    for (;;) {
      let pin: ResolvedAddress;
      let hop: Hop;
      try {
        pin = await checkTarget(u, opts);
        if (ctl.signal.aborted) failure(null);
        hop = await open(u, pin, opts, ctl.signal);
      } catch (e) { return failure(e); }
      const { res } = hop;
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        const loc = res.headers.location;
        hop.close();
        if (!loc) throw new FetchError('upstream_error', `${u.host} answered ${status} without a Location.`, { status, url: redact(u) });
        if (redirects.length >= max) throw new FetchError('too_many_redirects', `More than ${max} redirects; nothing was written.`, { redirects: [...redirects, redact(u)] });
        redirects.push(redact(u));
        try { u = new URL(loc, u); } catch { throw new FetchError('upstream_error', `${u.host} redirected to an invalid URL.`, { status }); }
        continue;
      }
      if (status < 200 || status >= 300) {
        hop.close();
        throw new FetchError('upstream_error', `${u.host} answered HTTP ${status}; nothing was written.`, { status, url: redact(u) });
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        hop.close();
        throw new FetchError('payload_too_large', `The resource is ${declared} bytes, over the ${opts.maxBytes}-byte write limit; nothing was written.`, { size: declared, limit: opts.maxBytes });
      }
      const chunks: Buffer[] = [];
      let n = 0;
      try {
        for await (const c of res as AsyncIterable<Buffer>) {
          n += c.length;
          if (n > opts.maxBytes) {
            hop.close();
            throw new FetchError('payload_too_large', `The resource is over the ${opts.maxBytes}-byte write limit (stopped reading at ${n} bytes); nothing was written.`, { limit: opts.maxBytes });
          }
          chunks.push(c);
        }
      } catch (e) { return failure(e); }
      if (ctl.signal.aborted) failure(null);
      const ct = res.headers['content-type'];
      return { finalUrl: redact(u), status, contentType: typeof ct === 'string' ? ct : null, bytes: new Uint8Array(Buffer.concat(chunks)), redirects, address: pin.address };
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onOuter);
  }
}
