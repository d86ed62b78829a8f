// A file written through one reused buffer, a buffer-full at a time. The keyword index built whole was
// 25-45 MB of fresh memory per save at 100k notes (the change feed's state, encoded a megabyte at a
// time, 10-15 MB), and that external memory is what started most of V8's major collections, the app's
// longest pauses at that size.
import { putVarint } from './varint.js';

/** Takes one piece of the file; the piece's bytes may be reused once the promise resolves. */
export type Put = (piece: Uint8Array) => Promise<void>;

const encoder = new TextEncoder();

/** The buffers of writers that ended, one per size, for the next writer of that size: a new megabyte
 *  ArrayBuffer next to a heap of a gigabyte starts V8's external-memory work (31 ms inside a save during
 *  a 100k-note rename, in a profile), and while external memory is over V8's limit any new ArrayBuffer,
 *  a few kilobytes for a small file's write too, runs a marking step of 5-10 ms. Buffers under 4 KB are
 *  not kept (the data store asks for 4 KB at least). */
const kept = new Map<number, Uint8Array>();
const KEEP_FROM = 4 * 1024;
/** Sizes kept: every power of two from 4 KB to a megabyte and a few more. */
const KEEP_SIZES = 12;
const ENDED = new Uint8Array(0);

export class PieceWriter {
  private buf: Uint8Array;
  private view: DataView;
  private pos = 0;
  private flushed = 0;

  constructor(private readonly put: Put, size = 1 << 20) {
    if (size < 128) throw new Error('piece buffer too small');
    // A kept size is a power of two, so texts of every length share a few buffers.
    if (size >= KEEP_FROM) size = 2 ** Math.ceil(Math.log2(size));
    const spare = kept.get(size);
    kept.delete(size);
    this.buf = spare ?? new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  /** Sends what is left and hands the buffer on to the next writer; nothing may be written after. */
  async end(): Promise<void> {
    await this.flush();
    if (this.buf.length >= KEEP_FROM && (kept.has(this.buf.length) || kept.size < KEEP_SIZES)) kept.set(this.buf.length, this.buf);
    this.buf = ENDED;
    this.view = new DataView(ENDED.buffer);
  }

  /** Bytes written so far, sent or still in the buffer. */
  get length(): number {
    return this.flushed + this.pos;
  }

  /** Room for `n` bytes (at most 128): null when the buffer has it, else the flush to wait on. The
   *  synchronous writers below expect it (a promise per word cost more than the words). */
  room(n: number): Promise<void> | null {
    return this.pos + n <= this.buf.length ? null : this.flush();
  }

  async flush(): Promise<void> {
    if (this.buf === ENDED) throw new Error('piece writer: written after its end');
    if (!this.pos) return;
    await this.put(this.buf.subarray(0, this.pos));
    this.flushed += this.pos;
    this.pos = 0; // only now: the sink may read the piece until its promise resolves
  }

  u32(v: number): void { this.view.setUint32(this.pos, v, true); this.pos += 4; }
  f64(v: number): void { this.view.setFloat64(this.pos, v, true); this.pos += 8; }
  /** A varint (core/varint.ts: at most 8 bytes for a safe integer). */
  varint(v: number): void { this.pos = putVarint(this.buf, this.pos, v); }
  /** `n` bytes of `b` from `at` (a loop: a view object per 32-byte hash, 100k per save, was not free). */
  copy(b: Uint8Array, at: number, n: number): void { for (let k = 0; k < n; k++) this.buf[this.pos++] = b[at + k]; }

  async text(s: string): Promise<void> {
    for (let at = 0; ;) {
      // encodeInto stops before a character that does not fit, so a cut never splits one.
      const r = encoder.encodeInto(at ? s.slice(at) : s, this.buf.subarray(this.pos));
      this.pos += r.written;
      at += r.read;
      if (at >= s.length) return;
      await this.flush();
    }
  }

  async bytes(b: Uint8Array): Promise<void> {
    for (let at = 0; at < b.length;) {
      if (this.pos === this.buf.length) await this.flush();
      const n = Math.min(this.buf.length - this.pos, b.length - at);
      this.buf.set(b.subarray(at, at + n), this.pos);
      this.pos += n;
      at += n;
    }
  }
}
