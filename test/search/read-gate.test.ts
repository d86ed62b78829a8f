// A keyword query pauses between slices (a query over 100k matches was one 45-200 ms task); while it is
// paused nothing may change the index under it. Checked: the paused query answers exactly what an
// unpaused one does; index updates queued during the pauses are applied only after the query (and then
// are); ReadGate's own rules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { setImmediate } from 'node:timers';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { KeywordService } from '../../src/search/service.js';
import { ReadGate } from '../../src/search/readGate.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { buildDoc } from '../../src/search/document.js';
import { parseQuery } from '../../src/search/query.js';
import { runQueryPage } from '../../src/search/rank.js';
import { nextTurn } from '../../src/core/turns.js';
import { tempDir } from '../helpers/vault.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });

test('a query that pauses at every offer answers exactly what an unpaused one does', async () => {
  const ix = new InvertedIndex();
  for (let i = 0; i < 6000; i++) ix.add(buildDoc(`f${i % 9}/Note ${i}.md`, `# Vault note ${i}\nvault garden ${i % 13 ? 'river' : 'stone'} ${'tower '.repeat(i % 5)}\n`, null), analyzer);
  for (const q of ['vault', 'vault river', 'garden -stone', 'tow*', 'note']) {
    for (const limit of [10, undefined]) {
      const parsed = parseQuery(q, analyzer);
      let pauses = 0;
      const paused = await runQueryPage(ix, parsed, analyzer, { limit, accept: (p) => !p.startsWith('f3/'), pause: () => { pauses++; return nextTurn(); } });
      const whole = await runQueryPage(ix, parsed, analyzer, { limit, accept: (p) => !p.startsWith('f3/') });
      assert.deepEqual(paused, whole, `${q} limit ${limit}`);
      assert.ok(pauses >= 5, `${q}: the query offered to pause (${pauses})`);
    }
  }
});

test('index updates wait while a query is paused, and land after it', async () => {
  const dir = tempDir('vmcp-readgate-');
  mkdirSync(join(dir, 'n'), { recursive: true });
  for (let i = 0; i < 3000; i++) writeFileSync(join(dir, 'n', `Note ${i}.md`), `vault word ${i}\n`);
  const host = new NodeHost(dir, { dataDir: join(dir, '.data'), watch: false });
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 1, saveDelayMs: 60_000 });
  try {
    await svc.ready();
    const inside = svc as unknown as { queue: Map<string, string>; kick(delay: number): void; ix: InvertedIndex };
    let calls = 0;
    let minDuring = Infinity;
    let turned = false;
    // A slow filter makes the query run past its slice; halfway through, a note is deleted and its
    // update queued (as a vault event would) while the query goes on. Every later filter call sees
    // how many notes the index holds: an update applied during one of the query's pauses shows.
    const accept = (p: string) => {
      if (++calls === 1500) {
        rmSync(join(dir, 'n', 'Note 7.md'));
        inside.queue.set('n/Note 7.md', 'delete');
        inside.kick(0);
        setImmediate(() => { turned = true; }); // runs only if the query yields a loop turn after this
      }
      if (calls > 1500) minDuring = Math.min(minDuring, inside.ix.documentCount);
      const end = performance.now() + 0.02;
      while (performance.now() < end) { /* slow filter */ }
      return p.length > 0;
    };
    const r = await svc.search('vault', { accept, limit: 5 });
    assert.ok(turned, 'the query paused after the delete was queued (the premise)');
    assert.equal(r.total, 3000, 'the query saw the index as it was when it started');
    assert.equal(minDuring, 3000, 'the delete waited while the query was paused');
    await svc.flush();
    assert.equal(inside.ix.documentCount, 2999, 'and landed once the query was done');
    assert.equal((await svc.search('vault')).total, 2999);
  } finally {
    await svc.stop();
    await host.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ReadGate: clear() waits for every reader; a changing pause waits for readers even when its slice is not over', async () => {
  const gate = new ReadGate();
  const order: string[] = [];
  let release!: () => void;
  const reading = gate.read(() => new Promise<void>((r) => { release = r; }).then(() => { order.push('read done'); }));
  assert.equal(gate.busy, true);
  const cleared = gate.clear().then(() => order.push('cleared'));
  const pause = gate.changing(() => null);
  const w = pause();
  assert.ok(w, 'a reader is in: the changing pause waits');
  const paused = w!.then(() => order.push('pause over'));
  await nextTurn();
  assert.deepEqual(order, []);
  release();
  await Promise.all([reading, cleared, paused]);
  assert.deepEqual(order.slice(0, 1), ['read done']);
  assert.equal(gate.busy, false);
  assert.equal(gate.changing(() => null)(), null, 'no reader, slice not over: no pause');
});
