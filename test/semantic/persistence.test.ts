// Kill during save: a process SIGKILLed while writing a ~100 MB index leaves the previous file whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { VectorStore } from '../../src/semantic/store.js';
import { tempDir } from '../helpers/vault.js';
import { REPO_ROOT } from './helpers.js';

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
