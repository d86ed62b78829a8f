// A note moved to another folder under the same file name keeps everything the keyword index holds of
// it (src/search/eventQueue.ts): the index re-keys it at once and reads nothing. These tests count the
// host's reads (a real NodeHost on real files) and check that no change made around a move is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { KeywordService } from '../../src/search/service.js';
import { tempDir } from '../helpers/vault.js';

function vault(n: number): string {
  const dir = join(tempDir('vmcp-moves-'), 'vault');
  mkdirSync(join(dir, 'Old'), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(join(dir, 'Old', `Note ${i}.md`), `# Note ${i}\nword${i} shared text\n`);
  return dir;
}

/** A keyword service over a NodeHost whose text reads are counted, and can be held for one path. */
async function open(dir: string, data = join(tempDir(), 'data'), debounceMs = 5) {
  const host = new NodeHost(dir, { dataDir: data, watch: false });
  const reads: string[] = [];
  let hold: { path: string; started: () => void; release: Promise<void> } | null = null;
  const readText = host.readText.bind(host);
  host.readText = async (p: string) => {
    reads.push(p);
    if (hold && hold.path === p) { const h = hold; hold = null; h.started(); await h.release; }
    return readText(p);
  };
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs, saveDelayMs: 10 });
  await svc.ready();
  return {
    host, svc, reads, data,
    /** The next read of `path` waits for the returned release(); `started` resolves once it began. */
    holdRead(path: string) {
      let started!: () => void, release!: () => void;
      const began = new Promise<void>((r) => { started = r; });
      hold = { path, started, release: new Promise<void>((r) => { release = r; }) };
      return { began, release };
    },
    close: async () => { await svc.stop(); await host.close(); },
  };
}

/** Until the host has parsed every note it was told of (a rename keeps metadata it already has). */
async function parsed(host: NodeHost): Promise<void> {
  while (host.pendingCount()) await new Promise((r) => setTimeout(r, 5));
}

const paths = async (svc: KeywordService, q: string) => (await svc.search(q)).hits.map((h) => h.path).sort();

test('a folder move re-keys its notes without reading them, and the saved index keeps the new paths', async () => {
  const dir = vault(40);
  const k = await open(dir);
  try {
    renameSync(join(dir, 'Old'), join(dir, 'New'));
    k.reads.length = 0;
    for (let i = 0; i < 40; i++) await k.host.renamed(`Old/Note ${i}.md`, `New/Note ${i}.md`);
    await k.svc.ready();
    assert.deepEqual(k.reads, [], 'a move that keeps the file name reads nothing');
    assert.equal(k.svc.stale(), false);
    assert.deepEqual(await paths(k.svc, 'word7'), ['New/Note 7.md']);
    assert.equal((await paths(k.svc, 'shared')).length, 40);
    assert.ok((await paths(k.svc, 'shared')).every((p) => p.startsWith('New/')));
    assert.equal(k.svc.title('New/Note 3.md'), 'Note 3');
    assert.equal(k.svc.title('Old/Note 3.md'), null);
    await k.svc.save();
  } finally { await k.close(); }
  // The next start loads the moved paths and finds nothing to read again.
  const again = await open(dir, k.data);
  try {
    assert.deepEqual(again.reads, [], 'the saved index had the new paths');
    assert.deepEqual(await paths(again.svc, 'word7'), ['New/Note 7.md']);
  } finally { await again.close(); }
});

test('a move that changes the file name is read again (the title comes from it)', async () => {
  const dir = vault(3);
  const k = await open(dir);
  try {
    mkdirSync(join(dir, 'New'));
    renameSync(join(dir, 'Old/Note 1.md'), join(dir, 'New/Renamed.md'));
    k.reads.length = 0;
    await k.host.renamed('Old/Note 1.md', 'New/Renamed.md');
    await k.svc.ready();
    assert.deepEqual(k.reads, ['New/Renamed.md']);
    assert.deepEqual(await paths(k.svc, 'renamed'), ['New/Renamed.md']);
  } finally { await k.close(); }
});

test('an edit queued before the move is indexed at the new path', async () => {
  const dir = vault(3);
  const k = await open(dir);
  try {
    writeFileSync(join(dir, 'Old/Note 2.md'), '# Note 2\nfreshword after the edit\n');
    await k.host.refresh('Old/Note 2.md'); // queued (the drain waits for its debounce)
    await parsed(k.host);
    mkdirSync(join(dir, 'New'));
    renameSync(join(dir, 'Old/Note 2.md'), join(dir, 'New/Note 2.md'));
    await k.host.renamed('Old/Note 2.md', 'New/Note 2.md');
    assert.deepEqual(await paths(k.svc, 'freshword'), ['New/Note 2.md']);
    assert.deepEqual(await paths(k.svc, 'word2'), []);
  } finally { await k.close(); }
});

test('an edit being read when its note moves is indexed at the new path', async () => {
  const dir = vault(3);
  // No drain before ready() asks for one: with a short debounce, a busy machine let the drain take the
  // note between its 'modify' and 'metadata' events, and the second queued it again.
  const k = await open(dir, undefined, 600_000);
  const held = k.holdRead('Old/Note 0.md');
  try {
    writeFileSync(join(dir, 'Old/Note 0.md'), '# Note 0\nlateword written while it moved\n');
    await k.host.refresh('Old/Note 0.md');
    await parsed(k.host); // its metadata event is queued too, before the drain takes the note
    const drained = k.svc.ready();
    await held.began; // the update for the old path is in flight, nothing queued for it
    assert.equal(k.svc.status().pending, 0);
    mkdirSync(join(dir, 'New'));
    renameSync(join(dir, 'Old/Note 0.md'), join(dir, 'New/Note 0.md'));
    await k.host.renamed('Old/Note 0.md', 'New/Note 0.md');
    held.release();
    await drained;
    assert.deepEqual(await paths(k.svc, 'lateword'), ['New/Note 0.md']);
    assert.deepEqual(await paths(k.svc, 'word0'), []);
  } finally { held.release(); await k.close(); } // a failed step must not leave the read (and close) waiting
});

test('a move onto a path the index already has is a delete and a read, as before', async () => {
  const dir = vault(2);
  const k = await open(dir);
  try {
    // The app reports the second note moved over the first (a sync client replacing it).
    renameSync(join(dir, 'Old/Note 1.md'), join(dir, 'Old/Note 0.md'));
    k.reads.length = 0;
    await k.host.renamed('Old/Note 1.md', 'Old/Note 0.md');
    assert.deepEqual(await paths(k.svc, 'word1'), ['Old/Note 0.md']);
    assert.deepEqual(await paths(k.svc, 'word0'), []);
    assert.equal(k.svc.status().indexed, 1);
  } finally { await k.close(); }
});
