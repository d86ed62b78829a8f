import { test } from 'node:test';
import { createHash } from 'node:crypto';
import assert from 'node:assert/strict';
import { compileGlob } from '../../src/core/glob.js';
import { mimeOf, isTextLike } from '../../src/core/mime.js';
import { pageAfter, PageCollector, cursorAfter, encodeCursor } from '../../src/core/cursor.js';
import { parseTime } from '../../src/core/time.js';
import { contentHash, CONTENT_HASH_PATTERN } from '../../src/core/hash.js';
import { Refusal, refusalText } from '../../src/core/errors.js';

test('glob: * ? [set], literal punctuation, case-insensitive', () => {
  assert.ok(compileGlob('*.png').test('A.PNG'));
  assert.ok(!compileGlob('*.png').test('a.png.txt'));
  assert.ok(compileGlob('report-?.pdf').test('report-1.pdf'));
  assert.ok(compileGlob('[ab]*').test('b.md'));
  assert.ok(!compileGlob('[!ab]*').test('b.md'));
  assert.ok(compileGlob('a+(b).md').test('a+(b).md'));
  assert.ok(compileGlob('[unclosed').test('[unclosed'));
});

test('mime and text sniffing', () => {
  assert.equal(mimeOf('x/y.PNG'), 'image/png');
  assert.equal(mimeOf('noext'), 'application/octet-stream');
  assert.ok(isTextLike('a.md', new Uint8Array([0])));
  assert.ok(!isTextLike('a.png', new TextEncoder().encode('text')));
  assert.ok(isTextLike('a.unknown', new TextEncoder().encode('plain é text')));
  assert.ok(!isTextLike('a.unknown', new Uint8Array([1, 0, 2])));
  const cut = new TextEncoder().encode('é'.repeat(5000)); // a multi-byte char spans the 8 KB boundary
  assert.ok(isTextLike('a.unknown', cut));
});

test('cursors resume after the last key and refuse tampering', () => {
  const rows = ['a', 'b', 'c', 'd', 'e'];
  const p1 = pageAfter(rows, (r) => r, 2, 'k');
  assert.deepEqual(p1.page, ['a', 'b']);
  const p2 = pageAfter(rows, (r) => r, 2, 'k', p1.next_cursor!);
  assert.deepEqual(p2.page, ['c', 'd']);
  // A row inserted before the cursor does not shift the next page.
  const p3 = pageAfter(['a', 'aa', 'b', 'c', 'd', 'e'], (r) => r, 2, 'k', p1.next_cursor!);
  assert.deepEqual(p3.page, ['c', 'd']);
  const last = pageAfter(rows, (r) => r, 2, 'k', p2.next_cursor!);
  assert.deepEqual(last.page, ['e']);
  assert.equal(last.next_cursor, null);
  assert.throws(() => pageAfter(rows, (r) => r, 2, 'k', 'zzz'), (e: unknown) => e instanceof Refusal && e.code === 'invalid_argument');
  assert.throws(() => pageAfter(rows, (r) => r, 2, 'k', encodeCursor({ k: 'other', after: 'a' })), Refusal);
});

test('times: ISO dates, date-times, epoch ms; nonsense refused', () => {
  assert.equal(parseTime('2026-01-31', 'since'), Date.UTC(2026, 0, 31));
  assert.equal(parseTime('2026-01-31T09:00:00Z', 'since'), Date.UTC(2026, 0, 31, 9));
  assert.equal(parseTime('1767225600000', 'since'), 1767225600000);
  assert.throws(() => parseTime('soon', 'since'), Refusal);
});

test('hash and refusal text contract', () => {
  assert.match(contentHash('abc'), CONTENT_HASH_PATTERN);
  assert.equal(contentHash('abc'), contentHash(new TextEncoder().encode('abc')));
  // Known digests (FIPS 180-2's 'abc'), a string hashed as UTF-8, and a view into a larger buffer
  // hashed as its own bytes only (the one-shot hash takes the view's offset and length).
  assert.equal(contentHash('abc'), 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(contentHash('é'), 'sha256:' + createHash('sha256').update(Buffer.from('é', 'utf8')).digest('hex'));
  const big = new TextEncoder().encode('xxabcyy');
  assert.equal(contentHash(big.subarray(2, 5)), contentHash('abc'));
  assert.equal(contentHash(new Uint8Array(0)), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const t = refusalText(new Refusal('stale_precondition', 'Changed since you read it.', { current_hash: 'sha256:x' }));
  const lines = t.split('\n');
  assert.equal(lines[lines.length - 1], 'MCP-REFUSAL {"code":"stale_precondition","current_hash":"sha256:x"}');
});

test('PageCollector gives exactly what sorting then pageAfter gives, page after page, for any order and limit', () => {
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  for (let round = 0; round < 40; round++) {
    const n = Math.floor(rnd() * 300);
    const keys = [...new Set(Array.from({ length: n }, () => Math.floor(rnd() * 1e6).toString(36)))];
    const shuffled = keys.slice().sort(() => rnd() - 0.5);
    const sorted = keys.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const limit = 1 + Math.floor(rnd() * 40);
    let a: string | undefined;
    let b: string | undefined;
    const seenA: string[] = [];
    for (let pages = 0; pages < 400; pages++) {
      const x = pageAfter(sorted, (r) => r, limit, 't', a);
      const pages = new PageCollector<string>(limit, (p, q) => (p < q ? -1 : p > q ? 1 : 0), b === undefined ? null : cursorAfter(b, 't'));
      for (const r of shuffled) pages.offer(r);
      const y = pages.result((r) => r, 't');
      assert.deepEqual(y.page, x.page, `round ${round} page ${pages}`);
      assert.equal(y.next_cursor, x.next_cursor);
      seenA.push(...x.page);
      if (!x.next_cursor) break;
      a = x.next_cursor;
      b = y.next_cursor!;
    }
    assert.deepEqual(seenA, sorted, 'the pages cover every row once, in order');
  }
});

test('UTF-8 in slices: texts over a megabyte decode and encode exactly as in one go, characters split at every piece edge included', async () => {
  const { decodeUtf8Lines } = await import('../../src/services/utf8Slices.js');
  const { PieceWriter } = await import('../../src/core/pieceWriter.js');
  const PIECE = 1 << 20;
  for (const pad of [0, 1, 2, 3]) {
    // An emoji (surrogate pair, 4 UTF-8 bytes) and CJK (3 bytes) straddle the piece edges in chars and in bytes.
    const text = 'a'.repeat(PIECE - 1 - pad) + '😀' + '語'.repeat(PIECE / 2) + 'é😀z'.repeat(1000);
    const bytes = new TextEncoder().encode(text);
    assert.equal((await decodeUtf8Lines(bytes)).join(''), text, `decode, pad ${pad}`);
    // Written through the data store's reused buffer (a megabyte, and an odd small size), in parts.
    for (const size of [PIECE, 1001]) {
      const pieces: Uint8Array[] = [];
      const out = new PieceWriter(async (p) => { pieces.push(p.slice()); }, size);
      for (const part of [text.slice(0, PIECE + 7), '', text.slice(PIECE + 7)]) await out.text(part);
      await out.flush();
      assert.ok(pieces.length > 1 && pieces.every((p) => p.length <= size), 'more than one piece, none over the buffer');
      assert.deepEqual(Buffer.concat(pieces), Buffer.from(bytes), `encode, pad ${pad}, buffer ${size}`);
    }
  }
});

test('a piece writer that ended hands its buffer to the next writer of its size; writing after the end throws', async () => {
  const { PieceWriter } = await import('../../src/core/pieceWriter.js');
  const size = 256 * 1024;
  const buffers: ArrayBufferLike[] = [];
  const write = async (fill: number) => {
    const pieces: Uint8Array[] = [];
    const out = new PieceWriter(async (p) => { buffers.push(p.buffer); pieces.push(p.slice()); }, size);
    await out.bytes(new Uint8Array(size + 10).fill(fill));
    await out.end();
    assert.deepEqual(Buffer.concat(pieces), Buffer.alloc(size + 10, fill));
    return out;
  };
  const first = await write(1);
  await assert.rejects(first.bytes(new Uint8Array(1)), /written after its end/);
  await assert.rejects(first.flush(), /written after its end/);
  await write(2);
  assert.equal(new Set(buffers).size, 1, 'the second writer wrote through the first one\'s buffer');
  // Sizes round up to a power of two (texts of every length share a few buffers).
  const odd = new PieceWriter(async (p) => { buffers.push(p.buffer); }, size - 1000);
  await odd.bytes(new Uint8Array(5));
  await odd.end();
  assert.equal(buffers.at(-1), buffers[0]);
  // Two writers at once each have a buffer of their own.
  const a = new PieceWriter(async (p) => { buffers.push(p.buffer); }, size);
  const b = new PieceWriter(async (p) => { buffers.push(p.buffer); }, size);
  await a.bytes(new Uint8Array(5));
  await b.bytes(new Uint8Array(5));
  await a.end();
  await b.end();
  assert.notEqual(buffers.at(-1), buffers.at(-2));
  // Small writers too, from 4 KB: a small file's write makes no new ArrayBuffer (fsCalls.ts says why).
  const small: ArrayBufferLike[] = [];
  for (let i = 0; i < 2; i++) {
    const w = new PieceWriter(async (p) => { small.push(p.buffer); }, 4096);
    await w.bytes(new Uint8Array(10));
    await w.end();
  }
  assert.equal(small[0], small[1], 'the second 4 KB writer wrote through the first one\'s buffer');
});

test('UTF-8 lines in slices: pieces end at line ends (a line longer than a piece stays whole), and join to the text', async () => {
  const { decodeUtf8Lines } = await import('../../src/services/utf8Slices.js');
  const PIECE = 1 << 20;
  const line = (i: number) => `{"p":"Notes/語 ${i} 😀.md","n":${i}}\n`;
  const lines = Array.from({ length: 60_000 }, (_, i) => line(i)).join('');
  const long = 'x'.repeat(PIECE + 5) + '\n';
  for (const text of [lines, long + lines, lines + long, lines.slice(0, -1), long.slice(0, -1)]) {
    const parts = await decodeUtf8Lines(new TextEncoder().encode(text));
    assert.equal(parts.join(''), text);
    assert.ok(parts.length > 1 || text.length <= PIECE + 6, 'more than a megabyte comes in parts');
    for (const p of parts.slice(0, -1)) assert.ok(p.endsWith('\n'), 'every part but the last ends at a line end');
    for (const p of parts) assert.ok(p.length <= PIECE || !p.slice(0, -1).includes('\n'), 'a part over a megabyte is one line');
  }
});

test('UTF-8 lines lazily: each piece is decoded only when asked for (a reader holds one piece at a time)', async () => {
  const { utf8LinePieces } = await import('../../src/services/utf8Slices.js');
  const text = Array.from({ length: 120_000 }, (_, i) => `line ${i} ü\n`).join('');
  const bytes = new TextEncoder().encode(text);
  const it = utf8LinePieces(bytes);
  const first = await it.next();
  assert.ok(!first.done && text.startsWith(first.value) && first.value.length < text.length);
  // Bytes changed after the first piece was read show in the next: it had not been decoded yet.
  const at = new TextEncoder().encode(first.value).length;
  bytes.fill(0x41, at, at + 4);
  const second = await it.next();
  assert.ok(!second.done && second.value.startsWith('AAAA'), 'the second piece was decoded ahead of its turn');
});
