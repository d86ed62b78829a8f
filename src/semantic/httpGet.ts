// The GET a model download makes, behind one small interface: headless it is node's http(s) client
// (streamed, redirects followed, abortable); in Obsidian the app's requestUrl (src/plugin/requestUrlGet.ts),
// which is not subject to CORS, follows redirects itself and returns the whole body at once.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface GetResponse {
  status: number;
  /** A response header (case-insensitive), or null. */
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array>;
}

export type HttpGet = (url: string, headers: Record<string, string>, signal?: AbortSignal) => Promise<GetResponse>;

const MAX_REDIRECTS = 5;

function once(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<IncomingMessage> {
  const req = url.protocol === 'https:' ? httpsRequest : url.protocol === 'http:' ? httpRequest : null;
  if (!req) return Promise.reject(new Error(`${url.protocol} is not http(s)`));
  return new Promise((resolve, reject) => {
    const r = req(url, { method: 'GET', headers, signal }, resolve);
    r.once('error', reject);
    r.end();
  });
}

export const nodeHttpGet: HttpGet = async (url, headers, signal) => {
  let u = new URL(url);
  for (let hop = 0; ; hop++) {
    const res = await once(u, headers, signal);
    const loc = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && loc && hop < MAX_REDIRECTS) {
      res.resume();
      u = new URL(loc, u);
      continue;
    }
    return {
      status: res.statusCode ?? 0,
      header: (n) => { const v = res.headers[n.toLowerCase()]; return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v; },
      body: res,
    };
  }
};
