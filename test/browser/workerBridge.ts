// A global `Worker` for Node whose workers run in a real Chromium page. The built main.js (loaded by the
// plugin harness) makes its inference worker exactly as it does in Obsidian: `new Worker(blobUrl)` on a
// Blob of the bundled worker source, then postMessage with the model and WASM bytes. This class reads
// that Blob's text, has the page make its own Blob URL of it and start a real Web Worker there (under
// the page's CSP), and relays every message both ways (binary data base64-encoded over the DevTools
// protocol). What the worker answers is recorded, so tests can compare its vectors with the Node path.
import { resolveObjectURL } from 'node:buffer';
import type { Page } from 'puppeteer-core';

type Encoded = unknown;
const BIN = '__vmcpBin';

/** Binary views and buffers as {__vmcpBin: kind, b64}, everything else as is (JSON-safe). */
export function encode(v: unknown): Encoded {
  if (v instanceof ArrayBuffer) return { [BIN]: 'ArrayBuffer', b64: Buffer.from(v).toString('base64') };
  if (ArrayBuffer.isView(v)) return { [BIN]: v.constructor.name, b64: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encode(x)]));
  return v;
}

export function decode(v: Encoded): unknown {
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o[BIN] === 'string') {
      const buf = Buffer.from(o.b64 as string, 'base64');
      const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
      if (o[BIN] === 'ArrayBuffer') return ab;
      const C = (globalThis as unknown as Record<string, new (b: ArrayBuffer) => unknown>)[o[BIN] as string];
      return new C(ab);
    }
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, decode(x)]));
  }
  return v;
}

/** Runs in the page (a string, so no helper a TypeScript transform adds can leak into it): the same
 *  codec, a registry of workers, and the relay back to Node. */
const PAGE_SETUP = `(() => {
  const BIN = ${JSON.stringify(BIN)};
  const b64 = (u8) => { let s = ''; for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000)); return btoa(s); };
  const enc = (v) => {
    if (v instanceof ArrayBuffer) return { [BIN]: 'ArrayBuffer', b64: b64(new Uint8Array(v)) };
    if (ArrayBuffer.isView(v)) return { [BIN]: v.constructor.name, b64: b64(new Uint8Array(v.buffer, v.byteOffset, v.byteLength)) };
    if (Array.isArray(v)) return v.map(enc);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, enc(x)]));
    return v;
  };
  const dec = (v, transfer) => {
    if (Array.isArray(v)) return v.map((x) => dec(x, transfer));
    if (v && typeof v === 'object') {
      if (typeof v[BIN] === 'string') {
        const s = atob(v.b64);
        const u8 = new Uint8Array(s.length);
        for (let i = 0; i < s.length; i++) u8[i] = s.charCodeAt(i);
        transfer.push(u8.buffer);
        return v[BIN] === 'ArrayBuffer' ? u8.buffer : new self[v[BIN]](u8.buffer);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, dec(x, transfer)]));
    }
    return v;
  };
  const workers = new Map();
  // The Blob URL as main.js makes it (webWorkerChannel in src/semantic/workerEmbedder.ts).
  window.__vmcpStart = (id, source, type) => {
    const url = URL.createObjectURL(new Blob([source], { type }));
    const worker = new Worker(url);
    workers.set(id, worker);
    worker.addEventListener('message', (e) => window.__vmcpFromWorker(id, 'message', enc(e.data)));
    worker.addEventListener('error', (e) => window.__vmcpFromWorker(id, 'error', e.message || 'worker error'));
    return url.startsWith('blob:');
  };
  window.__vmcpPost = (id, data) => {
    const transfer = [];
    const msg = dec(data, transfer);
    workers.get(id)?.postMessage(msg, transfer);
  };
  window.__vmcpTerminate = (id) => { workers.get(id)?.terminate(); workers.delete(id); };
  // A probe worker of the same kind: what global a Blob-URL worker gets in this page.
  window.__vmcpWorkerScope = () => new Promise((resolve) => {
    const u = URL.createObjectURL(new Blob(['postMessage([typeof WorkerGlobalScope, typeof process, typeof require, self.constructor.name])'], { type: 'text/javascript' }));
    const p = new Worker(u);
    p.onmessage = (e) => { p.terminate(); resolve(e.data); };
    p.onerror = (e) => resolve(['error', e.message]);
  });
  return true;
})()`;

export interface Exchange { op: string; texts?: string[]; ok?: boolean; error?: string; vectors?: Float32Array; info?: unknown }

export interface BridgeHandle {
  /** One line per request the plugin posted, with the worker's answer filled in. */
  exchanges: Exchange[];
  /** Workers started (each a Blob URL made in the page). */
  started: number;
  /** Errors the page reported from a worker. */
  errors: string[];
  /** [typeof WorkerGlobalScope, typeof process, typeof require, global class] inside a Blob-URL worker of the page. */
  workerScope(): Promise<unknown>;
  restore(): void;
}

let workerSeq = 0;
const receivers = new Map<Page, (id: number, kind: string, data: unknown) => void>();

/** Makes `globalThis.Worker` a relay to workers in `page` until restore(). */
export async function installChromiumWorker(page: Page): Promise<BridgeHandle> {
  const listeners = new Map<number, { message: ((e: { data: unknown }) => void)[]; error: ((e: { message: string }) => void)[] }>();
  const exchanges = new Map<number, Exchange>();
  const ordered: Exchange[] = [];
  const errors: string[] = [];
  let started = 0;
  const onReply = (id: number, kind: string, data: unknown) => {
    const l = listeners.get(id);
    if (kind === 'error') { errors.push(String(data)); for (const cb of l?.error ?? []) cb({ message: String(data) }); return; }
    const msg = decode(data) as { id?: number; ok?: boolean; error?: string; vectors?: Float32Array; info?: unknown };
    const ex = msg.id !== undefined ? exchanges.get(id * 1e6 + msg.id) : undefined;
    if (ex) Object.assign(ex, { ok: msg.ok, error: msg.error, vectors: msg.vectors, info: msg.info });
    for (const cb of l?.message ?? []) cb({ data: msg });
  };
  // One binding per page; it answers the bridge installed last.
  if (!receivers.has(page)) {
    await page.exposeFunction('__vmcpFromWorker', (id: number, kind: string, data: unknown) => receivers.get(page)?.(id, kind, data));
    await page.evaluate(PAGE_SETUP);
  }
  receivers.set(page, onReply);

  // CDP calls in the order the plugin made them (the start must reach the page before the first post).
  let chain: Promise<unknown> = Promise.resolve();
  const inOrder = (fn: () => Promise<unknown>) => { chain = chain.then(fn).catch((e) => { errors.push(String((e as Error)?.message ?? e)); }); return chain; };
  const prior = (globalThis as { Worker?: unknown }).Worker;

  class ChromiumWorker {
    private readonly id = ++workerSeq;
    constructor(url: string | URL) {
      started++;
      listeners.set(this.id, { message: [], error: [] });
      const blob = resolveObjectURL(String(url));
      if (!blob) throw new Error(`ChromiumWorker: ${String(url)} is not a Blob URL of this process`);
      void inOrder(async () => {
        const ok = await page.evaluate((id, src, type) => (window as unknown as { __vmcpStart(i: number, s: string, t: string): boolean }).__vmcpStart(id, src, type), this.id, await blob.text(), blob.type);
        if (!ok) throw new Error('the page did not make a Blob URL');
      });
    }
    addEventListener(type: 'message' | 'error', cb: (e: never) => void): void {
      const l = listeners.get(this.id)!;
      (type === 'message' ? l.message : l.error).push(cb as never);
    }
    postMessage(msg: unknown, _transfer?: unknown[]): void {
      const m = msg as { id?: number; op?: string; texts?: string[] };
      if (m && typeof m.id === 'number') {
        const ex: Exchange = { op: String(m.op), ...(m.texts ? { texts: [...m.texts] } : {}) };
        exchanges.set(this.id * 1e6 + m.id, ex);
        ordered.push(ex);
      }
      const data = encode(msg);
      void inOrder(() => page.evaluate((id, d) => (window as unknown as { __vmcpPost(i: number, d: unknown): void }).__vmcpPost(id, d), this.id, data as never));
    }
    terminate(): void {
      void inOrder(() => page.evaluate((id) => (window as unknown as { __vmcpTerminate(i: number): void }).__vmcpTerminate(id), this.id));
    }
  }
  (globalThis as { Worker?: unknown }).Worker = ChromiumWorker;
  return {
    exchanges: ordered,
    get started() { return started; },
    errors,
    workerScope: () => page.evaluate('window.__vmcpWorkerScope()'),
    restore: () => { (globalThis as { Worker?: unknown }).Worker = prior; },
  };
}
