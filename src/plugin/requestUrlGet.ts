// Model downloads through Obsidian's requestUrl (no CORS; the app follows redirects). It returns the
// whole body at once, so progress is reported per file, and it cannot be aborted.
import type { RequestUrlParam, RequestUrlResponsePromise } from 'obsidian';
import type { HttpGet } from '../semantic/httpGet.js';

export function requestUrlGet(requestUrl: (req: RequestUrlParam) => RequestUrlResponsePromise): HttpGet {
  return async (url, headers) => {
    const res = await requestUrl({ url, method: 'GET', headers, throw: false });
    const lower: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) lower[k.toLowerCase()] = v;
    const bytes = new Uint8Array(res.arrayBuffer);
    return {
      status: res.status,
      header: (n) => lower[n.toLowerCase()] ?? null,
      body: (async function* () { yield bytes; })(),
    };
  };
}
