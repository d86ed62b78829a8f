// A stdio ↔ Streamable HTTP bridge for clients that only start local servers (Claude Desktop): JSON-RPC
// lines on stdin are POSTed to the running server with the key as a bearer header; answers (JSON or
// SSE) and the server's own notifications (the GET stream) go to stdout. The key comes from a file
// or the environment, never the command line (visible to every user of the machine in `ps`). An HTTP
// refusal (401 wrong key, 404 expired session, 429…) reaches the client as a JSON-RPC error with the
// server's own words, instead of an OAuth flow or a generic transport error.
// Node built-ins only (node's http, as headless code here does), so it also builds into a small
// standalone bridge.cjs for the plugin.
import { readFileSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createInterface } from 'node:readline';
import { setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';

export interface BridgeIo {
  input: NodeJS.ReadableStream;
  write: (line: string) => void;
  log: (line: string) => void;
}

type Msg = { jsonrpc?: string; id?: string | number | null; method?: string; result?: { protocolVersion?: string }; error?: { code?: number; message?: string } };

const USAGE = 'usage: node dist/cli.js bridge --url http://127.0.0.1:27200/mcp --key-file FILE   (or the key in the environment variable VAULT_MCP_KEY)';

export function readKey(keyFile: string | undefined, env: NodeJS.ProcessEnv, log: (s: string) => void): string {
  if (keyFile) {
    let text: string;
    try { text = readFileSync(keyFile, 'utf8'); } catch (e) { throw new Error(`cannot read the key file ${keyFile}: ${(e as Error).message}`); }
    const key = text.trim();
    if (!key) throw new Error(`the key file ${keyFile} is empty; put the key (vmcp_…) in it`);
    try {
      if (process.platform !== 'win32' && (statSync(keyFile).mode & 0o077)) log(`warning: ${keyFile} is readable by other users; chmod 600 it`);
    } catch { /* the read above worked; the mode check is advice only */ }
    return key;
  }
  const key = env.VAULT_MCP_KEY?.trim();
  if (key) return key;
  throw new Error(`no key: pass --key-file FILE or set VAULT_MCP_KEY (never the key itself on the command line).\n${USAGE}`);
}

/** One HTTP request; resolves with the response as soon as its headers arrive. */
function send(method: string, url: URL, headers: Record<string, string>, body?: string, signal?: AbortSignal): Promise<IncomingMessage> {
  const req = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const r = req(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal }, resolve);
    r.once('error', reject);
    r.end(body);
  });
}

async function readAll(res: IncomingMessage): Promise<string> {
  let text = '';
  res.setEncoding('utf8');
  for await (const chunk of res) text += chunk as string;
  return text;
}

/** Splits an SSE body into events, calling `onEvent` with each event's data and id. */
async function readSse(res: IncomingMessage, onEvent: (data: string, id: string | null) => void): Promise<void> {
  let buf = '';
  res.setEncoding('utf8');
  for await (const chunk of res) {
    buf += (chunk as string).replace(/\r\n/g, '\n');
    let cut: number;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const block = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const data: string[] = [];
      let id: string | null = null;
      for (const line of block.split('\n')) {
        if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        else if (line.startsWith('id:')) id = line.slice(3).trim();
      }
      if (data.length) onEvent(data.join('\n'), id);
    }
  }
}

export class Bridge {
  private session: string | null = null;
  private protocol: string | null = null;
  private initializing: Promise<void> | null = null;
  private stream: AbortController | null = null;
  private lastEventId: string | null = null;
  private closed = false;

  private readonly url: URL;

  constructor(url: string, private readonly key: string, private readonly io: BridgeIo) {
    this.url = new URL(url);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Bearer ${this.key}`,
      ...(this.session ? { 'mcp-session-id': this.session } : {}),
      ...(this.protocol ? { 'mcp-protocol-version': this.protocol } : {}),
      ...extra,
    };
  }

  private emit(text: string): void {
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch { this.io.log(`bridge: the server sent something that is not JSON: ${text.slice(0, 200)}`); return; }
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      const r = (m as Msg).result;
      if (r && typeof r.protocolVersion === 'string') this.protocol = r.protocolVersion;
      this.io.write(JSON.stringify(m));
    }
  }

  /** A JSON-RPC error for a request that got no JSON-RPC answer, in the server's words where it gave some. */
  private refuse(msg: Msg, code: number, message: string, data?: Record<string, unknown>): void {
    this.io.log(`bridge: ${message}`);
    if (msg.id === undefined || msg.id === null || !msg.method) return;
    this.io.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code, message, ...(data ? { data } : {}) } }));
  }

  /** Forwards one message from the client. */
  async send(msg: Msg): Promise<void> {
    const isInit = msg.method === 'initialize';
    if (!isInit && this.initializing) await this.initializing;
    const work = this.post(msg);
    if (isInit) this.initializing = work.finally(() => { this.initializing = null; });
    await work;
    if (msg.method === 'notifications/initialized' && this.session && !this.stream) this.listen();
  }

  private async post(msg: Msg): Promise<void> {
    if (msg.method === 'initialize') { this.session = null; this.protocol = null; }
    let res: IncomingMessage;
    try {
      res = await send('POST', this.url, this.headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }), JSON.stringify(msg));
    } catch (e) {
      const code = (e as { code?: string }).code;
      return this.refuse(msg, -32000, `cannot reach ${this.url.href} (${code ?? (e as Error).message}): is the Vault MCP Server running (Obsidian open with the server on, or \`npm start\` / \`node dist/cli.js serve\`)?`);
    }
    const status = res.statusCode ?? 0;
    const sid = res.headers['mcp-session-id'];
    if (typeof sid === 'string') this.session = sid;
    if (status < 200 || status > 299) {
      const text = await readAll(res).catch(() => '');
      let body: Msg | null = null;
      try { body = JSON.parse(text) as Msg; } catch { /* not JSON */ }
      if (status === 404 && this.session) this.session = null;
      const said = body?.error?.message ?? (text.trim().slice(0, 500) || `HTTP ${status}`);
      const retry = res.headers['retry-after'];
      return this.refuse(msg, body?.error?.code ?? -32000, said, { http_status: status, ...(retry ? { retry_after_seconds: Number(retry) } : {}) });
    }
    if (String(res.headers['content-type'] ?? '').includes('text/event-stream')) await readSse(res, (data) => this.emit(data));
    else {
      const text = await readAll(res);
      if (text.trim()) this.emit(text);
    }
  }

  /** The server's own messages (list_changed, resource updates, log lines) on the GET stream. */
  private listen(): void {
    const ctl = new AbortController();
    this.stream = ctl;
    void (async () => {
      for (let attempt = 0; !this.closed && this.session && attempt < 20; attempt++) {
        try {
          const res = await send('GET', this.url, this.headers({ accept: 'text/event-stream', ...(this.lastEventId ? { 'last-event-id': this.lastEventId } : {}) }), undefined, ctl.signal);
          // 405: the server offers no such stream; 401/404: the key or the session is gone.
          if (res.statusCode !== 200) { res.resume(); return; }
          attempt = 0;
          await readSse(res, (data, id) => { if (id) this.lastEventId = id; this.emit(data); });
        } catch { if (ctl.signal.aborted) return; }
        await new Promise((r) => setTimeout(r, 1000));
      }
    })().finally(() => { if (this.stream === ctl) this.stream = null; });
  }

  /** stdin closed: end the session on the server too. */
  async close(): Promise<void> {
    this.closed = true;
    this.stream?.abort();
    if (!this.session) return;
    await send('DELETE', this.url, this.headers()).then((r) => { r.resume(); }, () => undefined);
  }
}

/** Runs until stdin ends; messages are forwarded in arrival order, answers written as they come. */
export async function runBridge(url: string, key: string, io: BridgeIo): Promise<void> {
  const bridge = new Bridge(url, key, io);
  const pending = new Set<Promise<void>>();
  const lines = createInterface({ input: io.input, crlfDelay: Infinity });
  let chain = Promise.resolve();
  for await (const line of lines) {
    if (!line.trim()) continue;
    let msg: Msg;
    try { msg = JSON.parse(line) as Msg; } catch {
      io.write(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: a line on stdin is not JSON.' } }));
      continue;
    }
    // initialize goes first and alone; everything after it may run side by side.
    const run = () => bridge.send(msg).catch((e: unknown) => io.log(`bridge: ${(e as Error)?.message ?? e}`));
    const p = msg.method === 'initialize' ? (chain = chain.then(run)) : chain.then(run);
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }
  await Promise.allSettled([...pending]);
  await bridge.close();
}

export async function bridgeCommand(argv: string[]): Promise<void> {
  const log = (s: string) => { process.stderr.write(`${s}\n`); };
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { url: { type: 'string' }, 'key-file': { type: 'string' } } }) as { values: Record<string, string | undefined> });
  } catch (e) {
    const m = (e as Error).message;
    log(`error: ${/--key\b|--token|--header|vmcp_/.test(argv.join(' ')) ? 'the key is never taken on the command line (other users see it in the process list): put it in a file (--key-file) or in VAULT_MCP_KEY.' : m}\n${USAGE}`);
    process.exit(2);
  }
  if (!values.url) { log(`error: --url is required (the server's MCP address, e.g. http://127.0.0.1:27200/mcp).\n${USAGE}`); process.exit(2); }
  let key: string;
  try { key = readKey(values['key-file'], process.env, log); } catch (e) { log(`error: ${(e as Error).message}`); process.exit(2); }
  await runBridge(values.url, key, { input: process.stdin, write: (l) => { process.stdout.write(`${l}\n`); }, log });
}
