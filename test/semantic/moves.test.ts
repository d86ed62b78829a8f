// A note moved to another folder under the same file name keeps its vectors (src/semantic/moves.ts):
// re-keyed, not embedded again. The real GloVe fixture model on a real NodeHost; the embedder is
// wrapped only to count (and, in one test, hold) what it is asked to embed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { contentHash } from '../../src/core/hash.js';
import { SemanticService } from '../../src/semantic/service.js';
import { loadEmbedder, type Embedder } from '../../src/semantic/embedder.js';
import { tempDir } from '../helpers/vault.js';
import { GLOVE, missing, trapNetwork } from './helpers.js';

const skip = missing(GLOVE);
const TEXTS: Record<string, string> = {
  'Bread.md': '# Bread\nKnead the dough and bake the loaf in a hot oven.\n',
  'Markets.md': '# Markets\nStocks and bonds fell as interest rates rose.\n',
  'Garden.md': '# Garden\nWater the tomato plants every morning in summer.\n',
};

async function open(root: string, extra: Record<string, unknown> = {}) {
  const vault = join(root, 'vault');
  const host = new NodeHost(vault, { dataDir: join(root, 'data'), watch: false });
  await host.ready();
  const asked: string[] = [];
  let hold: Promise<void> | null = null;
  let held: (() => void) | null = null;
  const svc = new SemanticService({
    host, now: Date.now,
    settings: () => withDefaults({ embeddingModel: GLOVE, embeddingSkipGlobs: ['Private/*'], ...extra }),
    loadEmbedder: async (o) => {
      const e = await loadEmbedder(o);
      const wrapped: Embedder = Object.create(e) as Embedder;
      wrapped.embed = async (texts) => {
        asked.push(...texts);
        if (hold) { held?.(); await hold; }
        return e.embed(texts);
      };
      return wrapped;
    },
  });
  svc.start();
  return {
    host, svc, asked, vault,
    /** Embedding waits until release(); `began` resolves when a batch is waiting. */
    holdEmbedding() {
      let release!: () => void;
      hold = new Promise<void>((r) => { release = () => { hold = null; r(); }; });
      const began = new Promise<void>((r) => { held = r; });
      return { began, release };
    },
    idle: async () => { assert.deepEqual(await svc.build(false, 60_000), { done: true }); },
    close: async () => { await svc.stop(); await host.close(); },
  };
}

function vaultIn(root: string): void {
  mkdirSync(join(root, 'vault/Old'), { recursive: true });
  for (const [name, text] of Object.entries(TEXTS)) writeFileSync(join(root, 'vault/Old', name), text);
}

async function moveFolder(k: Awaited<ReturnType<typeof open>>, from: string, to: string): Promise<void> {
  renameSync(join(k.vault, from), join(k.vault, to));
  for (const name of Object.keys(TEXTS)) await k.host.renamed(`${from}/${name}`, `${to}/${name}`);
}

test('a folder move keeps every note\'s vectors under its new path, embeds nothing, and the saved index has the new paths', { skip, timeout: 60_000 }, async () => {
  const trap = trapNetwork();
  const root = tempDir('vmcp-sem-moves-');
  vaultIn(root);
  let k = await open(root);
  try {
    await k.idle();
    const before = (await k.svc.ready()).store.noteVectors('Old/Bread.md')!;
    k.asked.length = 0;
    await moveFolder(k, 'Old', 'New');
    await k.idle();
    assert.deepEqual(k.asked, [], 'nothing embedded again');
    const { store } = await k.svc.ready();
    assert.deepEqual([...store.notes.keys()].sort(), ['New/Bread.md', 'New/Garden.md', 'New/Markets.md']);
    assert.deepEqual(store.noteVectors('New/Bread.md'), before);
    const hits = await k.svc.search('homemade loaf recipe', 1, () => true);
    assert.equal(hits.hits[0].path, 'New/Bread.md');
    await k.close();
    k = await open(root);
    await k.idle();
    assert.deepEqual([...(await k.svc.ready()).store.notes.keys()].sort(), ['New/Bread.md', 'New/Garden.md', 'New/Markets.md']);
    assert.deepEqual(k.asked, [], 'the saved index had the new paths');
  } finally { await k.close(); trap.restore(); }
  assert.deepEqual(trap.calls, []);
});

test('a move into a skipped folder drops the note; a move that renames it embeds it again', { skip, timeout: 60_000 }, async () => {
  const root = tempDir('vmcp-sem-moves-');
  vaultIn(root);
  const k = await open(root);
  try {
    await k.idle();
    k.asked.length = 0;
    mkdirSync(join(k.vault, 'Private'));
    renameSync(join(k.vault, 'Old/Bread.md'), join(k.vault, 'Private/Bread.md'));
    await k.host.renamed('Old/Bread.md', 'Private/Bread.md');
    renameSync(join(k.vault, 'Old/Markets.md'), join(k.vault, 'Old/Stocks.md'));
    await k.host.renamed('Old/Markets.md', 'Old/Stocks.md');
    await k.idle();
    const { store } = await k.svc.ready();
    assert.deepEqual([...store.notes.keys()].sort(), ['Old/Garden.md', 'Old/Stocks.md']);
    assert.ok(k.asked.length > 0 && k.asked.every((t) => /Stocks/.test(t)), 'only the renamed note (its title changed) is embedded');
  } finally { await k.close(); }
});

test('a note edited and moved while its batch is being embedded ends with its new text at its new path', { skip, timeout: 60_000 }, async () => {
  const root = tempDir('vmcp-sem-moves-');
  vaultIn(root);
  const k = await open(root);
  let h: { began: Promise<void>; release: () => void } | undefined;
  try {
    await k.idle();
    const edited = '# Bread\nSourdough starter fed twice a day before the bake, a much longer note now.\n';
    writeFileSync(join(k.vault, 'Old/Bread.md'), edited);
    h = k.holdEmbedding();
    await k.host.refresh('Old/Bread.md');
    const run = k.svc.build(false, 60_000);
    await h.began; // the edited old path is being embedded
    mkdirSync(join(k.vault, 'New'));
    renameSync(join(k.vault, 'Old/Bread.md'), join(k.vault, 'New/Bread.md'));
    await k.host.renamed('Old/Bread.md', 'New/Bread.md');
    h.release();
    await run;
    await k.idle();
    const { store } = await k.svc.ready();
    assert.equal(store.notes.has('Old/Bread.md'), false, 'the old path written back by the batch is removed');
    assert.equal(store.notes.get('New/Bread.md')?.hash, contentHash(readFileSync(join(k.vault, 'New/Bread.md'))));
  } finally { h?.release(); await k.close(); } // a failed step must not leave the batch (and close) waiting
});

test('before the index is loaded, a folder move queues nothing, and the first reconcile finds the notes at their new paths', { skip, timeout: 60_000 }, async () => {
  const trap = trapNetwork();
  const root = tempDir('vmcp-sem-moves-');
  vaultIn(root);
  let k = await open(root);
  try { await k.idle(); } finally { await k.close(); }
  // Not auto-indexing: the saved index stays unloaded until asked (as with semantic search off).
  k = await open(root, { embeddingAutoIndex: false });
  try {
    await moveFolder(k, 'Old', 'New');
    // A 100k-note move queued 200k paths here, for the reconcile to find again.
    assert.equal(k.svc.pending.size, 0, 'nothing queued before the index is loaded');
    await k.idle();
    const { store } = await k.svc.ready();
    for (const name of Object.keys(TEXTS)) {
      assert.ok(store.noteVectors(`New/${name}`), `New/${name} is indexed`);
      assert.equal(store.noteVectors(`Old/${name}`), null, `Old/${name} is gone from the index`);
    }
    assert.equal(k.svc.pending.size, 0);
  } finally { await k.close(); trap.restore(); }
});
