// Index saves wait for a quiet vault (src/core/quietSave.ts): the timer alone, then the keyword index
// and the change feed over a real NodeHost whose pendingCount() says vault events are still on their
// way (as the in-app host does while a folder move's events are handed over in slices).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QuietSaveTimer } from '../../src/core/quietSave.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { KeywordService, INDEX_FILE } from '../../src/search/service.js';
import { ChangeService, STATE_FILE } from '../../src/changes/service.js';
import { decodeState } from '../../src/changes/stateFile.js';
import type { DataStore } from '../../src/host/port.js';
import { tempDir } from '../helpers/vault.js';
import { waitFor } from '../helpers/wait.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const until = (what: string, ok: () => boolean | Promise<boolean>) => waitFor(ok, what, 10_000);

test('the timer saves after its delay when the vault is quiet, once per schedule', async () => {
  let saves = 0;
  const t = new QuietSaveTimer({ save: () => { saves++; }, delayMs: () => 5, busy: () => false });
  t.schedule();
  t.schedule(); // armed already: no second save
  await until('the save', () => saves === 1);
  await sleep(30);
  assert.equal(saves, 1);
  t.schedule();
  t.cancel();
  await sleep(30);
  assert.equal(saves, 1, 'a cancelled save does not run');
});

test('a due save waits while busy, then saves once the vault is quiet', async () => {
  let saves = 0;
  let busy = true;
  const t = new QuietSaveTimer({ save: () => { saves++; }, delayMs: () => 5, busy: () => busy });
  t.schedule();
  await until('the save to come due', () => t.waiting);
  await sleep(100); // twenty delays
  assert.equal(saves, 0, 'saved while vault events were still on their way');
  t.schedule(); // a change meanwhile: still one save
  busy = false;
  await until('the save after the vault went quiet', () => saves === 1);
  assert.equal(t.waiting, false);
  await sleep(30);
  assert.equal(saves, 1);
});

test('a vault that never goes quiet still saves once the longest wait has passed', async () => {
  let saves = 0;
  let now = 1_000;
  const t = new QuietSaveTimer({ save: () => { saves++; }, delayMs: () => 5, busy: () => true, maxWaitMs: 60_000, now: () => now });
  t.schedule();
  await until('the save to come due', () => t.waiting);
  await sleep(30);
  assert.equal(saves, 0);
  now += 59_999;
  await sleep(40);
  assert.equal(saves, 0, 'saved before the longest wait');
  now += 1;
  await until('the save at the longest wait', () => saves === 1);
});

/** A NodeHost that can say events are still pending, as the in-app host does during a folder move. */
class BusyHost extends NodeHost {
  busy = false;
  override pendingCount(): number {
    return this.busy ? 1 : super.pendingCount();
  }
}

function vault(files: Record<string, string>): string {
  const dir = join(tempDir('vmcp-quiet-'), 'vault');
  mkdirSync(dir, { recursive: true });
  for (const [p, t] of Object.entries(files)) writeFileSync(join(dir, p), t);
  return dir;
}

const bytesOf = async (store: DataStore, name: string) => Buffer.from((await store.read(name)) ?? new Uint8Array()).toString('base64');

/** A note is added while the host says events are pending; once `handled` says the service has taken it
 *  in, its save (due 10 ms later) must not land for 300 ms, and must land once the host is quiet. */
async function savedOnlyOnceQuiet(host: BusyHost, dir: string, store: DataStore, file: string, handled: () => Promise<void>, what: string): Promise<void> {
  const before = await bytesOf(store, file);
  host.busy = true;
  writeFileSync(join(dir, 'b.md'), 'zebra giraffe\n');
  await host.refresh('b.md');
  await handled();
  await sleep(300);
  assert.equal(await bytesOf(store, file), before, `${what} was saved while events were pending`);
  host.busy = false;
  await until('the save once quiet', async () => (await bytesOf(store, file)) !== before);
}

test('the keyword index is not saved while vault events are pending, and is once they are handled', async () => {
  const dir = vault({ 'a.md': 'alpha note\n' });
  const host = new BusyHost(dir, { dataDir: join(tempDir(), 'data'), watch: false });
  const svc = new KeywordService({ host, settings: () => withDefaults({}), debounceMs: 5, saveDelayMs: 10 });
  try {
    await svc.ready();
    await until('the first save', async () => (await host.cache.read(INDEX_FILE)) !== null);
    await sleep(100); // no other save left from the build
    await savedOnlyOnceQuiet(host, dir, host.cache, INDEX_FILE, () => svc.flush(), 'the index'); // flushed: the save is due 10 ms later
  } finally {
    await svc.stop();
    await host.close();
  }
});

test('the change feed state is not saved while vault events are pending, and is once they are handled', async () => {
  const dir = vault({ 'a.md': 'alpha note\n' });
  const host = new BusyHost(dir, { dataDir: join(tempDir(), 'data'), watch: false });
  await host.ready();
  const svc = new ChangeService({ host, settings: () => withDefaults({}), saveDelayMs: 10 });
  try {
    await svc.start();
    // A first start saves at once, then again once every note is hashed: both landed before the test.
    await svc.baselineDone();
    const hashed = async () => {
      const bytes = await host.data.read(STATE_FILE);
      return !!bytes && !!(await decodeState(new TextDecoder().decode(bytes))).state?.files.get('a.md')?.h;
    };
    await until('the state with the note\'s hash', hashed);
    await sleep(50); // the write that made it visible has finished
    await savedOnlyOnceQuiet(host, dir, host.data, STATE_FILE, () => svc.settle(), 'the state');
  } finally {
    await svc.stop();
    await host.close();
  }
});
