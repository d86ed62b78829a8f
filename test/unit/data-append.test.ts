// FsDataStore.append: a big text (the change feed's lines after a vault-wide move) is encoded a
// buffer-full at a time, the loop turning between pieces, not joined and encoded in one task; and an
// append the disk refuses half-way leaves the file as it was (no half-added lines to duplicate on retry).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, readFileSync, writeFileSync, openSync, writeSync, closeSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { tempDir } from '../helpers/vault.js';

/** Runs `fn` while counting loop turns; returns the turn each TextEncoder.encodeInto call ran in and its bytes. */
async function encodings(fn: () => Promise<void>): Promise<{ turn: number; written: number }[]> {
  const calls: { turn: number; written: number }[] = [];
  let turn = 0;
  let on = true;
  const tick = () => { turn++; if (on) setImmediate(tick); };
  setImmediate(tick);
  const own = TextEncoder.prototype.encodeInto;
  TextEncoder.prototype.encodeInto = function (this: TextEncoder, s: string, into: Uint8Array) {
    const r = own.call(this, s, into);
    calls.push({ turn, written: r.written });
    return r;
  };
  try { await fn(); } finally { TextEncoder.prototype.encodeInto = own; on = false; }
  return calls;
}

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `{"n":${i},"kind":"moved","path":"Notes/F${i % 100}/${tag} ${i}.md","é":"ü"}\n`);

for (const [label, asParts] of [['in parts', true], ['as one string', false]] as const) {
  test(`append of a 6 MB text ${label}: encoded a megabyte at most at a time, over several turns; the file holds it all, in order`, async () => {
    const dir = tempDir('vmcp-append-');
    const store = new FsDataStore(dir);
    await store.append('feed.jsonl', 'first\n');
    const parts = lines(80_000, 'Note');
    const text = parts.join('');
    const calls = await encodings(() => store.append('feed.jsonl', asParts ? parts : text));
    const used = calls.filter((c) => c.written > 0);
    const megabytes = Math.floor(Buffer.byteLength(text) / (1 << 20));
    assert.ok(megabytes >= 5);
    assert.ok(used.length >= megabytes, `encoded in pieces: ${used.length} encodeInto calls for ${megabytes} MB`);
    assert.ok(Math.max(...used.map((c) => c.written)) <= 1 << 20, 'no piece over a megabyte');
    const turns = new Set(used.map((c) => c.turn)).size;
    assert.ok(turns >= megabytes, `the pieces spread over turns of the loop (${turns} for ${megabytes} MB)`);
    assert.equal(readFileSync(join(dir, 'feed.jsonl'), 'utf8'), `first\n${text}`);
  });
}

test('an append the disk refuses half-way leaves the file as it was (ENOSPC on a small tmpfs)', async (t) => {
  const mnt = join(tempDir('vmcp-append-mnt-'), 'mnt');
  mkdirSync(mnt);
  const m = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', mnt], { encoding: 'utf8' });
  if (m.status !== 0) { t.skip(`cannot mount a tmpfs here (${(m.stderr || m.error?.message || '').trim() || 'not permitted'})`); return; }
  try {
    const store = new FsDataStore(mnt);
    writeFileSync(join(mnt, 'feed.jsonl'), 'kept line\n');
    // Leave about 1 MB free, then append 3 MB: the first pieces land, a later one is refused.
    const fd = openSync(join(mnt, 'filler'), 'w');
    writeSync(fd, Buffer.alloc(1 << 20, 1));
    closeSync(fd);
    await assert.rejects(store.append('feed.jsonl', lines(30_000, 'Big')), /ENOSPC/);
    assert.equal(readFileSync(join(mnt, 'feed.jsonl'), 'utf8'), 'kept line\n', 'nothing half-added');
    rmSync(join(mnt, 'filler'));
    await store.append('feed.jsonl', ['again\n']);
    assert.equal(readFileSync(join(mnt, 'feed.jsonl'), 'utf8'), 'kept line\nagain\n');
  } finally { spawnSync('umount', ['-l', mnt]); }
});

test('writes and appends go through fs callbacks, not fs.promises (each promise request makes an ArrayBuffer: a V8 marking step while external memory is over its limit)', async () => {
  const { promises } = await import('node:fs');
  const dir = join(tempDir('vmcp-append-calls-'), 'data');
  const store = new FsDataStore(dir);
  const p = promises as unknown as Record<string, (...a: unknown[]) => unknown>;
  const used: string[] = [];
  const own = new Map<string, (...a: unknown[]) => unknown>();
  for (const name of ['open', 'mkdir', 'rename', 'writeFile', 'appendFile', 'stat', 'truncate']) {
    own.set(name, p[name]);
    p[name] = (...a: unknown[]) => { used.push(name); return own.get(name)!(...a); };
  }
  try {
    await store.write('a.json', '{"x":1}\n');
    await store.write('b.bin', new Uint8Array([1, 2, 3]));
    await store.write('c.bin', async (put) => { await put(new Uint8Array([4, 5])); await put(new Uint8Array([6])); });
    await store.append('d.jsonl', ['one\n', 'two\n']);
    await store.append('d.jsonl', 'three\n');
  } finally { for (const [name, f] of own) p[name] = f; }
  assert.deepEqual(used, []);
  assert.equal(readFileSync(join(dir, 'a.json'), 'utf8'), '{"x":1}\n');
  assert.deepEqual([...readFileSync(join(dir, 'b.bin'))], [1, 2, 3]);
  assert.deepEqual([...readFileSync(join(dir, 'c.bin'))], [4, 5, 6]);
  assert.equal(readFileSync(join(dir, 'd.jsonl'), 'utf8'), 'one\ntwo\nthree\n');
});
