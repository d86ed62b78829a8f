// keyword_search, reindex and stats (index states) through the real SDK client over HTTP (runtime
// in-process on a copy of the sample vault): filters before the limit, cursor paging, snippets,
// freshness after our own write, index_stale and wait_for_pending_writes, refusals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';

let t: TestRuntime;
let client: Client;
let vault: string;

before(async () => {
  vault = copyVault();
  mkdirSync(join(vault, 'Kw/Deep'), { recursive: true });
  for (let i = 0; i < 30; i++) {
    const tag = i % 2 ? 'odd' : 'even/nested';
    writeFileSync(join(vault, `Kw/${i < 15 ? '' : 'Deep/'}Paging ${i}.md`), `---\ntags: [${tag}]\nstatus: ${i % 3 ? 'open' : 'done'}\nowners: [ann, bob]\n---\nzephyrine ${'filler '.repeat(i)}text\n`);
  }
  writeFileSync(join(vault, 'Kw/Highlight.md'), 'Intro line.\n\nHere the xylograph appears in the middle of a sentence.\n');
  t = await startTestRuntime(vault);
  client = await connect(t.url, t.readKey);
  await call(client, 'keyword_search', { query: 'warm', wait_for_pending_writes: true });
});

after(async () => {
  await client?.close();
  await t?.stop();
});

test('tools are listed with schemas; a title query finds the note first with a snippet', async () => {
  const names = (await client.listTools()).tools.map((x) => x.name);
  assert.ok(names.includes('keyword_search'));
  const r = await call(client, 'keyword_search', { query: 'Ada Lovelace' });
  assert.ok(!r.isError, textOf(r));
  const first = r.structuredContent!.results[0];
  assert.equal(first.path, 'People/Ada Lovelace.md');
  assert.equal(first.match, 'all');
  assert.ok(first.fields.includes('title'));
  assert.equal(typeof first.snippet, 'string');
  assert.equal(r._meta?.index_stale, false);
  const h = await call(client, 'keyword_search', { query: 'xylograph' });
  assert.match(h.structuredContent!.results[0].snippet, /\*\*xylograph\*\*/);
});

test('filters apply before the limit: folder, tags (nested), frontmatter with list membership', async () => {
  const all = await call(client, 'keyword_search', { query: 'zephyrine', limit: 100 });
  assert.equal(all.structuredContent!.total, 30);
  const deep = await call(client, 'keyword_search', { query: 'zephyrine', folder: 'Kw/Deep/', limit: 5 });
  assert.equal(deep.structuredContent!.total, 15);
  assert.equal(deep.structuredContent!.results.length, 5);
  assert.ok(deep.structuredContent!.results.every((x: { path: string }) => x.path.startsWith('Kw/Deep/')));
  const root = await call(client, 'keyword_search', { query: 'zephyrine', folder: '' });
  assert.equal(root.structuredContent!.total, 0);
  const even = await call(client, 'keyword_search', { query: 'zephyrine', tags: ['#even'], limit: 100 });
  assert.equal(even.structuredContent!.total, 15);
  const done = await call(client, 'keyword_search', { query: 'zephyrine', frontmatter: { status: 'done', owners: 'bob' }, limit: 100 });
  assert.equal(done.structuredContent!.total, 10);
  const missing = await call(client, 'keyword_search', { query: 'zephyrine', folder: 'Nope' });
  assert.equal(refusalCode(missing), 'not_found');
});

test('cursor paging walks every row once; a foreign cursor is refused', async () => {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10; i++) {
    const r = await call(client, 'keyword_search', { query: 'zephyrine', limit: 7, ...(cursor ? { cursor } : {}) });
    seen.push(...r.structuredContent!.results.map((x: { path: string }) => x.path));
    cursor = r.structuredContent!.next_cursor ?? undefined;
    if (!cursor) break;
  }
  assert.equal(seen.length, 30);
  assert.equal(new Set(seen).size, 30);
  const first = await call(client, 'keyword_search', { query: 'zephyrine', limit: 7 });
  const other = await call(client, 'keyword_search', { query: 'filler', cursor: first.structuredContent!.next_cursor });
  assert.equal(refusalCode(other), 'invalid_argument');
  assert.equal(refusalCode(await call(client, 'keyword_search', { query: 'x', cursor: 'garbage' })), 'invalid_argument');
});

test('odd queries never fail', async () => {
  for (const q of ['"unbalanced', 'C++', 'foo:bar', 'bge-m3', '-', '*', 'OR', '((', '#tag', '[[Welcome]]', '検索', 'مرحبا']) {
    const r = await call(client, 'keyword_search', { query: q });
    assert.ok(!r.isError, `${q}: ${textOf(r)}`);
  }
});

test('our own write is searchable as soon as the host has seen it; wait_for_pending_writes', async () => {
  writeFileSync(join(vault, 'Kw/Fresh.md'), 'quokkaberry appears\n');
  await t.host.refresh('Kw/Fresh.md'); // what a write tool does before returning
  const r = await call(client, 'keyword_search', { query: 'quokkaberry' });
  assert.deepEqual(r.structuredContent!.results.map((x: { path: string }) => x.path), ['Kw/Fresh.md']);
  assert.equal(r._meta?.index_stale, false);
  writeFileSync(join(vault, 'Kw/Fresh2.md'), 'quokkaberry twice\n');
  void t.host.refresh('Kw/Fresh2.md');
  const w = await call(client, 'keyword_search', { query: 'quokkaberry', wait_for_pending_writes: true });
  assert.equal(w.structuredContent!.total, 2);
  assert.equal(w._meta?.index_stale, false);
});

test('stats lists the keyword index; reindex re-checks and force rebuilds', async () => {
  const s = await call(client, 'stats');
  const kw = s.structuredContent!.indexes.find((i: { name: string }) => i.name === 'keyword');
  assert.equal(kw.state, 'ready');
  assert.ok(kw.indexed >= 30);
  const rw = await connect(t.url, t.rwKey);
  try {
    const r = await call(rw, 'reindex', { force: true });
    assert.ok(!r.isError, textOf(r));
    assert.equal(r.structuredContent!.status, 'done');
    assert.equal(r.structuredContent!.indexed, kw.indexed);
    const again = await call(rw, 'keyword_search', { query: 'quokkaberry' });
    assert.equal(again.structuredContent!.total, 2);
  } finally { await rw.close(); }
});

test('hybrid_search falls back to the keyword arm when no embedding model is configured', async () => {
  const r = await call(client, 'hybrid_search', { query: 'Grace Hopper' });
  if (r.isError) return; // hybrid search is another feature's; only check the keyword arm when it answers
  assert.match(r.structuredContent!.arms, /keyword/);
  assert.equal(r.structuredContent!.results[0].path, 'People/Grace Hopper.md');
});
