// How a chat request leaves the process. Headless: node's http(s) (nodeTransport.ts), abortable. In Obsidian:
// the app's requestUrl, which is not subject to CORS (a local Ollama or LM Studio server usually
// does not allow the app://obsidian.md origin) but cannot be aborted, so client.ts races it against
// the time limit. Streaming is not needed: the whole answer is used at once.

export interface TransportRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

export type Transport = (req: TransportRequest) => Promise<{ status: number; text: string }>;

/** The subset of Obsidian's requestUrl used here (passed in, so this file never imports obsidian). */
export type RequestUrlFn = (req: { url: string; method?: string; contentType?: string; body?: string; headers?: Record<string, string>; throw?: boolean }) => Promise<{ status: number; text: string }>;

export function requestUrlTransport(requestUrl: RequestUrlFn): Transport {
  return async (req) => {
    const { 'content-type': contentType, ...headers } = req.headers;
    const res = await requestUrl({ url: req.url, method: req.method, contentType, headers, body: req.body, throw: false });
    return { status: res.status, text: res.text };
  };
}
