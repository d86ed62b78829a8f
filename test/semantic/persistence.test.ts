// Kill during save: a process SIGKILLed while writing a ~100 MB index leaves the previous file whole,
// and the next start cleans up the orphan temp file and loads that file (or rebuilds a torn one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { VectorStore } from '../../src/semantic/store.js';
import { SemanticService, INDEX_FILE } from '../../src/semantic/service.js';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, REPO_ROOT, missing, trapNetwork } from './helpers.js';

test('SIGKILL during save never leaves a torn index', { timeout: 60_000 }, async () => {
  const dir = join(tempDir('vmcp-kill-'), 'data');
  const data = new FsDataStore(dir);
  const fp = { model: 'm', dims: 100, chunking: 'c' };
  const s = new VectorStore(fp);
  s.upsert({ path: 'a.md', hash: 'sha256:a', mtime: 1, size: 2, chunks: [{ ordinal: '#1', heading: 'A', start: 0, end: 5 }] }, new Float32Array(100).fill(0.1));
  await data.write('semantic-index.bin', s.serialize());
  const before = await data.read('semantic-index.bin');

  for (let round = 0; round < 3; round++) {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/semantic/fixtures/save-forever.ts'), dir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.on('data', (d) => { if (String(d).includes('saving')) resolve(); }));
    // Kill as soon as a temp file is being written (mid-save), at a slightly different moment each round.
    for (let i = 0; i < 2000 && !readdirSync(dir).some((f) => f.endsWith('.tmp')); i++) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 5 * round));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const bytes = (await data.read('semantic-index.bin'))!;
    const loaded = VectorStore.deserialize(bytes); // throws on a torn file
    assert.ok(loaded.notes.has('a.md'));
    assert.ok(loaded.notes.size === 1 || loaded.notes.size === 60_001, `old or new index, got ${loaded.notes.size} notes`);
    if (loaded.notes.size === 1) assert.deepEqual(bytes, before);
  }
});

test('after a save killed mid-write the next start removes the orphan temp file and loads the previous whole index; a torn index file is rebuilt', { skip: missing(GLOVE), timeout: 120_000 }, async () => {
  const trap = trapNetwork();
  const root = tempDir('vmcp-kill-svc-');
  const vault = join(root, 'vault');
  const dir = join(root, 'data');
  mkdirSync(join(vault, 'k'), { recursive: true });
  writeFileSync(join(vault, 'k/Bread.md'), '# Bread\n## Method\nKnead the dough and bake the loaf in a hot oven.\n');
  writeFileSync(join(vault, 'k/Markets.md'), '# Markets\nStocks and bonds fell as interest rates rose.\n');
  const settings = withDefaults({ embeddingModel: GLOVE, embeddingAutoIndex: false });
  const service = async () => {
    const host = new NodeHost(vault, { dataDir: dir, watch: false });
    await host.ready();
    return { host, svc: new SemanticService({ host, settings: () => settings, now: Date.now }) };
  };
  try {
    let { host, svc } = await service();
    assert.deepEqual(await svc.build(false, 60_000), { done: true });
    await svc.stop();
    await host.close();
    const good = readFileSync(join(dir, INDEX_FILE));

    // A child grows the index to ~100 MB and saves it over and over; it is killed while a temp file is being written.
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'test/semantic/fixtures/save-forever.ts'), dir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.on('data', (d) => { if (String(d).includes('saving')) resolve(); }));
    for (let i = 0; i < 5000 && !readdirSync(dir).some((f) => f.endsWith('.tmp')); i++) await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    assert.ok(readdirSync(dir).some((f) => /^semantic-index\.bin\.[0-9a-f]+\.tmp$/.test(f)), 'the killed save left its temp file behind');

    ({ host, svc } = await service());
    const { store } = await svc.ready();
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'orphan temp files are removed on load');
    assert.equal(svc.status().rebuilding, null);
    assert.ok(store.notes.has('k/Bread.md') && store.notes.has('k/Markets.md'));
    // The previous whole file (2 notes), or the child's complete new one (60,002): never a mix.
    assert.ok(store.notes.size === 2 || store.notes.size === 60_002, `got ${store.notes.size} notes`);
    if (store.notes.size === 2) assert.deepEqual(readFileSync(join(dir, INDEX_FILE)), good);
    const hits = await svc.search('homemade loaf recipe', 1, (p) => p.startsWith('k/'));
    assert.equal(hits.hits[0].path, 'k/Bread.md');
    await svc.stop();
    await host.close();

    // A torn index file (as if written in place and cut off): refused, never half-read, and rebuilt.
    writeFileSync(join(dir, INDEX_FILE), good.subarray(0, Math.floor(good.length / 2)));
    ({ host, svc } = await service());
    const again = await svc.ready();
    assert.equal(again.store.notes.size, 0);
    assert.match(svc.status().rebuilding ?? '', /unreadable.*rebuilding/);
    assert.equal(svc.status().pending, 2);
    assert.deepEqual(await svc.build(false, 60_000), { done: true });
    assert.equal(svc.status().embedded, 2);
    await svc.stop();
    await host.close();
    assert.equal(VectorStore.deserialize(new Uint8Array(readFileSync(join(dir, INDEX_FILE)))).notes.size, 2);
    assert.deepEqual(trap.calls, []);
  } finally { trap.restore(); }
});
