// Freshness through the plugin: the app's view of the vault lags the disk (its watcher reports an
// outside change some time later; the fake does not watch, so the test plays that watcher after
// 300 ms). A call about a note another program just created must wait for the app and find it,
// one about a note just removed must not find it, and a re-saved note is never answered stale
// (reads go to disk). Creation times are the app's: they survive edits, frontmatter changes and
// moves made through the tools.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync, rmSync } from 'node:fs';
import { copyVault } from '../../helpers/vault.js';
import { connect, call, refusalCode, textOf } from '../../helpers/server.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { startPlugin, unloadAll } from '../../plugin/harness.js';
import { Category, report } from './report.js';

after(unloadAll);

test('plugin: outside saves are visible to the next call; creation times survive edits and moves', { timeout: 120_000 }, async () => {
  const cat = new Category('outside saves and creation times (plugin)');
  const vault = copyVault();
  const s = await startPlugin(vault, { port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 });
  try {
    const key = (await new KeyStore(new FsDataStore(s.dataDir)).add({ name: 'rw', scope: 'readwrite' })).raw;
    const c = await connect(`http://127.0.0.1:${s.plugin.runtime!.server.port}/mcp`, key);
    const watcherLater = () => setTimeout(() => s.app.vault.noticeDiskChanges(), 300);
    for (let i = 0; i < 5; i++) {
      writeFileSync(join(vault, `Synced ${i}.md`), `# Synced ${i}\n\nfrom another device\n`);
      watcherLater();
      await cat.attempt(`read_note(Synced ${i}) right after another program created it`, async () => {
        const r = await call(c, 'read_note', { path: `Synced ${i}.md` });
        assert.equal(r.isError, undefined, textOf(r));
      });
      writeFileSync(join(vault, `Synced ${i}.md`), `# Synced ${i}\n\nre-saved ${i}\n`);
      await cat.attempt(`read_note(Synced ${i}) right after a re-save is not stale`, async () => {
        assert.match(JSON.stringify((await call(c, 'read_note', { path: `Synced ${i}.md` })).structuredContent), new RegExp(`re-saved ${i}`));
      });
      rmSync(join(vault, `Synced ${i}.md`));
      watcherLater();
      await cat.attempt(`read_note(Synced ${i}) right after another program removed it`, async () => {
        assert.equal(refusalCode(await call(c, 'read_note', { path: `Synced ${i}.md` })), 'not_found');
      });
    }
    const created = async (p: string) => (await call(c, 'get_context', { path: p })).structuredContent!.created as string;
    const first = await created('Welcome.md');
    for (const [tool, args, at] of [
      ['edit_note', { path: 'Welcome.md', content: 'appended line', append: true }, 'Welcome.md'],
      ['set_frontmatter', { path: 'Welcome.md', updates: { touched: true } }, 'Welcome.md'],
      ['edit_note', { path: 'Welcome.md', content: '# Welcome\n\nreplaced body\n' }, 'Welcome.md'],
      ['move_note', { from_path: 'Welcome.md', to_path: 'Moved/Welcome.md' }, 'Moved/Welcome.md'],
    ] as [string, Record<string, unknown>, string][]) {
      await cat.attempt(`created kept after ${tool}`, async () => {
        const r = await call(c, tool, args);
        assert.equal(r.isError, undefined, textOf(r));
        assert.equal(await created(at), first);
      });
    }
    await c.close();
  } finally { await s.plugin.unload(); }
  report(cat);
});
