// A small OpenAI-compatible chat server for tests, on 127.0.0.1 (real HTTP). Replies are
// deterministic and derived from the request, so a test can tell which notes each call saw:
//   notes:    "SUMMARY(n=2) [A.md] [B.md]"     (the <note path="…"> blocks of the request)
//   combine:  "COMBINED(parts=3) [A.md] [B.md] …" (the [path] citations inside the <partial> blocks)
// `delayMs`, `fail` (status + body, optionally only for the first N calls) and `replyOverride` are
// set per test; `finishReason` picks a call's finish_reason (default "stop"; "length" = cut at
// max_tokens); `calls` records every request (headers + parsed body).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface RecordedCall {
  path: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: { role: string; content: string }[]; max_tokens?: number; stream?: boolean };
  kind: 'notes' | 'combine';
  notes: string[];
}

export interface FakeLlm {
  url: string; // base URL, …/v1
  calls: RecordedCall[];
  delayMs: number;
  fail: { status: number; body: string; times?: number } | null;
  replyOverride: ((c: RecordedCall) => { status: number; body: string } | null) | null;
  finishReason: ((c: RecordedCall) => string) | null;
  reset(): void;
  close(): Promise<void>;
}

export function notesIn(text: string): string[] {
  return [...text.matchAll(/<note path="([^"]+)">/g)].map((m) => m[1].replace(/&quot;/g, '"'));
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const state: Omit<FakeLlm, 'url' | 'close' | 'reset'> = { calls: [], delayMs: 0, fail: null, replyOverride: null, finishReason: null };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => { raw += d; });
    req.on('end', async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
        return;
      }
      const body = JSON.parse(raw);
      const user = String(body.messages.at(-1)?.content ?? '');
      const kind = user.includes('<partial') ? 'combine' : 'notes';
      const call: RecordedCall = { path: req.url, headers: req.headers, body, kind, notes: notesIn(user) };
      state.calls.push(call);
      const n = state.calls.length;
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (res.destroyed) return;
      const over = state.replyOverride?.(call);
      if (over) { res.writeHead(over.status, { 'content-type': 'application/json' }).end(over.body); return; }
      if (state.fail && (state.fail.times === undefined || n <= state.fail.times)) {
        res.writeHead(state.fail.status, { 'content-type': 'application/json' }).end(state.fail.body);
        return;
      }
      let content: string;
      if (kind === 'combine') {
        const parts = (user.match(/<partial /g) ?? []).length;
        const cited = [...new Set([...user.matchAll(/\[([^\]\n]+\.md)\]/g)].map((m) => m[1]))];
        content = `COMBINED(parts=${parts}) ${cited.map((p) => `[${p}]`).join(' ')}`;
      } else {
        content = `SUMMARY(n=${call.notes.length}) ${call.notes.map((p) => `[${p}]`).join(' ')}`;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        id: `cmpl-${n}`, object: 'chat.completion', model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: state.finishReason?.(call) ?? 'stop' }],
      }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const fake = state as FakeLlm;
  fake.url = `http://127.0.0.1:${port}/v1`;
  fake.reset = () => { fake.calls = []; fake.delayMs = 0; fake.fail = null; fake.replyOverride = null; fake.finishReason = null; };
  fake.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return fake;
}
