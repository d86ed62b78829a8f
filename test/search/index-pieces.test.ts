// The keyword index file is written a buffer at a time through one reused buffer (search/pieceWriter.ts),
// never built whole (25-45 MB of fresh memory per save at 100k notes). These tests hold that promise:
// every buffer size gives the same bytes (cuts inside texts, multi-byte characters, records and lists),
// the pieces all share one small buffer, and a save that fails half-way leaves the old file whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { buildDoc } from '../../src/search/document.js';
import { decodeHeader, decodeIndex, encodeIndex, indexWriter, indexWriterInTurns } from '../../src/search/persist.js';
import { parseQuery } from '../../src/search/query.js';
import { runQuery } from '../../src/search/rank.js';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { tempDir } from '../helpers/vault.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });
const WORDS = 'vault note garden 検索 日本語 émile river stone tower 🌲forest'.split(' ');

function build(n: number): InvertedIndex {
  const ix = new InvertedIndex();
  for (let i = 0; i < n; i++) {
    const body = Array.from({ length: 40 + (i % 90) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length] + (k % 5 ? '' : i)).join(' ');
    ix.add(buildDoc(`f${i % 7}/Nöte ${i} 検索.md`, `---\naliases: [a${i}, "Ä ${i}"]\ntags: [t${i % 11}]\n---\n# Note ${i}\n${body}\n`, null), analyzer);
    ix.record(`f${i % 7}/Nöte ${i} 検索.md`, 1_700_000_000_000 + i, 100 + i, `${i}`.padStart(64, 'a'));
  }
  // Removed notes are left out of the file and the rest renumbered.
  for (let i = 0; i < n; i += 9) ix.remove(`f${i % 7}/Nöte ${i} 検索.md`);
  return ix;
}

const header = { schema: 3, signature: 'sig', skipped: new Map([['big 🌲.md', 'too_large:9']]) };

test('every piece buffer size writes the same file, which loads back to the same answers', async () => {
  const ix = build(2500);
  const want = await encodeIndex(header, ix);
  assert.ok(want.length > 500_000, `${want.length} bytes`);
  // 128 bytes cuts every text line, multi-byte characters' runs, note records and posting lists.
  for (const size of [128, 131, 1000, 65_537]) assert.deepEqual(await encodeIndex(header, ix, undefined, size), want, `buffer of ${size} bytes`);
  const { header: back, rest } = decodeHeader(want);
  assert.deepEqual(back, header);
  const loaded = await decodeIndex(want, rest);
  for (const q of ['vault', '検索', 'émile', 'forest', 'a17', 't3 river']) {
    const a = (await runQuery(loaded, parseQuery(q, analyzer), analyzer)).map((h) => [h.path, h.score]);
    const b = (await runQuery(ix, parseQuery(q, analyzer), analyzer)).map((h) => [h.path, h.score]);
    assert.ok(a.length > 0, `no hit for ${q}`);
    assert.deepEqual(a, b, q);
  }
  // The string kept for each path is the one `keyOf` gives (the service's: the host's own copy).
  const keyed = await decodeIndex(want, rest, undefined, (p) => `kept/${p}`);
  assert.deepEqual([...keyed.ids.keys()].sort(), [...ix.ids.keys()].map((p) => `kept/${p}`).sort());
  // ...taken as each line of paths is parsed, so the parsed strings die young: at the first line, not
  // after the whole directory (every title and term line) has been read.
  let lines = 0;
  const keyedAt: number[] = [];
  await decodeIndex(want, rest, () => { lines++; return null; }, (p) => { keyedAt.push(lines); return p; });
  assert.equal(keyedAt.length, ix.ids.size);
  assert.ok(keyedAt[0] <= 1 && keyedAt.at(-1)! <= 3 && lines > 10, `paths kept after ${keyedAt[0]}-${keyedAt.at(-1)} of ${lines} pauses`);
});

test('the pieces all come from one reused buffer of the given size, never the whole file', async () => {
  const ix = build(2500);
  const size = 4096;
  const buffers = new Set<ArrayBufferLike>();
  let total = 0;
  let pieces = 0;
  await indexWriter(header, ix, undefined, size)(async (piece) => {
    assert.ok(piece.length > 0 && piece.length <= size, `a piece of ${piece.length} bytes`);
    buffers.add(piece.buffer);
    total += piece.length;
    pieces++;
  });
  assert.equal(total, (await encodeIndex(header, ix)).length);
  assert.ok(pieces >= total / size, `${pieces} pieces for ${total} bytes`);
  assert.equal(buffers.size, 1, 'each piece should reuse the same buffer');
  assert.ok(buffers.values().next().value!.byteLength <= size);
});

test('a save that fails half-way leaves the old index file whole and no temp file behind', async () => {
  const dir = tempDir('vmcp-pieces-');
  const store = new FsDataStore(dir);
  const ix = build(600);
  await store.write('keyword-index.bin', indexWriter(header, ix));
  const before = readFileSync(`${dir}/keyword-index.bin`);
  assert.deepEqual(new Uint8Array(before), await encodeIndex(header, ix));
  // The writer sends several pieces, then fails (a posting list changed, the disk filled up).
  let sent = 0;
  const failing = indexWriter(header, build(900), undefined, 1024);
  await assert.rejects(store.write('keyword-index.bin', (put) => failing(async (p) => { if (++sent > 5) throw new Error('ENOSPC: no space left on device'); await put(p); })), /ENOSPC/);
  assert.ok(sent > 5);
  assert.deepEqual(readFileSync(`${dir}/keyword-index.bin`), before, 'the old file changed');
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'a temp file was left behind');
  assert.deepEqual(store.health.problems().map((p) => p.file), ['keyword-index.bin']);
});

test('notes indexed while the pieces are written (lists moved, their old regions handed out again) leave the file as the save began', async () => {
  // 200 terms of every frequency (term j in every (j+1)-th note), so lists of every size class grow,
  // move, and take the regions others left.
  const TERMS = Array.from({ length: 200 }, (_, j) => `w${j}x`);
  const ix = new InvertedIndex();
  for (let i = 0; i < 400; i++) ix.add(buildDoc(`n/${i}.md`, `# T${i}\n${TERMS.filter((_, j) => i % (j + 1) === 0).join(' ')}`, null), analyzer);
  const want = await encodeIndex(header, ix);
  const pieces: Uint8Array[] = [];
  let added = 0;
  // Regions given back to the store are handed out again to lists that grow; here each is overwritten at
  // once, as the next list moved into it would (the store's free lists, read for the test only).
  const store = ix.store as unknown as { freeAt: Int32Array[]; freeN: number[]; chunks: Uint8Array[] };
  const scribble = () => store.freeN.forEach((n, k) => { for (let i = 0; i < n; i++) store.chunks[store.freeAt[k][2 * i]].fill(0xff, store.freeAt[k][2 * i + 1], store.freeAt[k][2 * i + 1] + (8 << k)); });
  // Once the writer is in the posting lists (the file's last `used` bytes: no note was removed), 60 notes
  // with every term land after every piece (a 128-byte buffer: flushed inside lists), so a list being
  // written outgrows its region and moves.
  const listsAt = want.length - ix.store.used;
  let written = 0;
  await indexWriter(header, ix, undefined, 128)(async (p) => {
    pieces.push(p.slice());
    written += p.length;
    if (written <= listsAt) return;
    for (let k = 0; k < 60; k++, added++) ix.add(buildDoc(`new/${added}.md`, `# N${added}\n${TERMS.join(' ')} u${added}a`, null), analyzer);
    scribble();
  });
  assert.ok(added > 600, `${added} notes added`);
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(want), 'the file changed with notes indexed during its save');
  assert.notDeepEqual(await encodeIndex(header, ix), want, 'the next save has the added notes');
});

test('the JSON lines (paths, titles, terms) are written as they are made, not all made first', async () => {
  const ix = build(3000);
  const want = await encodeIndex(header, ix);
  let written = 0;
  let offersBeforeFirstPiece = 0;
  const pieces: Uint8Array[] = [];
  const pause = () => { if (!written) offersBeforeFirstPiece++; return null; };
  await indexWriter(header, ix, pause, 4096)(async (p) => { pieces.push(p.slice()); written += p.length; });
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(want));
  // The JSON lines, from the file itself: each top line says how many lines of items follow it.
  const { rest } = decodeHeader(want);
  const line = (from: number) => new TextDecoder().decode(want.subarray(from, want.indexOf(0x0a, from)));
  const tops = [line(0), line(rest)].map((l) => JSON.parse(l) as Record<string, { $lines?: number }>);
  const lines = tops.reduce((n, top) => n + 1 + Object.values(top).reduce((k, v) => k + (v?.$lines ?? 0), 0), 0);
  assert.ok(lines > 20, `${lines} JSON lines`);
  // A pause is offered after each line. Made all first, the lines were all held until the first byte
  // went out (at 100k notes 10 MB, through the save's scavenges): every line's offer came before it.
  // Written as made, only the few short lines before the first that fills the 4 KB buffer do; the
  // offers before them are the note and term passes' (fewer than the lines here).
  assert.ok(offersBeforeFirstPiece < lines, `${offersBeforeFirstPiece} pause offers before the first piece, ${lines} JSON lines`);
});

test('a posting list of a word in most notes is written with pauses offered inside it, the same file written', async () => {
  // 50,000 notes with "alpha": its list is about 100 KB; every other term (the titles) has a note or two.
  const ix = new InvertedIndex();
  for (let i = 0; i < 50_000; i++) ix.add(buildDoc(`n/${i}.md`, 'alpha', null), analyzer);
  const want = await encodeIndex(header, ix);
  const listsAt = want.length - ix.store.used;
  let written = 0;
  let lastOffer = -1;
  let widest = 0;
  const pieces: Uint8Array[] = [];
  const pause = () => {
    if (written > listsAt) { if (lastOffer >= 0) widest = Math.max(widest, written - lastOffer); lastOffer = written; }
    return null;
  };
  await indexWriter(header, ix, pause, 128)(async (p) => { pieces.push(p.slice()); written += p.length; });
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(want));
  // A pause is offered every 16,384 postings (two bytes each here); without offers inside a list, the
  // whole of alpha's lay between two (103 KB).
  assert.ok(widest > 0 && widest < 40_000, `${widest} list bytes between two pause offers`);
});

test('the snapshot copies a per-note array over a piece a turn: the first touch of its fresh pages spread out, the same file written', async () => {
  const ix = build(1200);
  const want = await encodeIndex(header, ix);
  let turns = 0;
  // 4 KB pieces: the 38 KB of note hashes take ten turns, the field lengths and the dates several each.
  const writer = await indexWriterInTurns(header, ix, () => null, undefined, async () => { turns++; await new Promise((r) => setImmediate(r)); }, 4096);
  assert.ok(turns >= 20, `${turns} turns for the snapshot (a copy per turn, whatever its size, made 7)`);
  const pieces: Uint8Array[] = [];
  await writer(async (p) => { pieces.push(p.slice()); });
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(want));
});

test('the service writer takes its snapshot a copy per turn, writes the same file, and refuses a note added meanwhile', async () => {
  const ix = build(1200);
  const want = await encodeIndex(header, ix);
  let turns = 0;
  const writer = await indexWriterInTurns(header, ix, () => null, undefined, async () => { turns++; await new Promise((r) => setImmediate(r)); });
  assert.ok(turns >= 7, `a turn before each of the eight copies but the first (${turns})`);
  const pieces: Uint8Array[] = [];
  await writer(async (p) => { pieces.push(p.slice()); });
  assert.deepEqual(Buffer.concat(pieces), Buffer.from(want));
  // The caller must keep the index still meanwhile (the service holds its read gate); a note added anyway is caught.
  let added = false;
  await assert.rejects(indexWriterInTurns(header, ix, () => null, undefined, async () => {
    if (!added) { added = true; ix.add(buildDoc('late.md', 'late note\n', null), analyzer); }
  }), /added while its snapshot was taken/);
});
