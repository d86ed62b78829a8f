// Freshness through the plugin: the app's view of the vault lags the disk (its watcher reports an
// outside change some time later; the fake does not watch, so the test plays that watcher after
// 300 ms). A call about a note another program just created must wait for the app and find it,
// one about a note just removed must not find it, and a re-saved note is never answered stale
// (reads go to disk); deletes, edits with the hash just read, listings of a folder made outside and
// moves of a note renamed outside all see the disk. Creation times are the app's: they survive
// edits, frontmatter changes and moves made through the tools, and a restart of the plugin.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync, rmSync, mkdirSync, renameSync, existsSync, readFileSync } from 'node:fs';
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
  let stopped = false;
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
      writeFileSync(join(vault, `Gone ${i}.md`), `# Gone ${i}\n`);
      watcherLater();
      await cat.attempt(`delete_note(Gone ${i}) right after another program created it`, async () => {
        const r = await call(c, 'delete_note', { path: `Gone ${i}.md`, permanent: true });
        assert.equal(r.isError, undefined, textOf(r));
        assert.ok(!existsSync(join(vault, `Gone ${i}.md`)));
      });
      writeFileSync(join(vault, `Edit ${i}.md`), `# Edit ${i}\n\nfirst save\n`);
      watcherLater();
      await call(c, 'read_note', { path: `Edit ${i}.md` });
      writeFileSync(join(vault, `Edit ${i}.md`), `# Edit ${i}\n\nsecond save, longer\n`);
      await cat.attempt(`edit_note(Edit ${i}) with the hash of another program's re-save`, async () => {
        const hash = (await call(c, 'read_note', { path: `Edit ${i}.md` })).structuredContent!.content_hash;
        const r = await call(c, 'edit_note', { path: `Edit ${i}.md`, content: 'agent line', append: true, expected_hash: hash });
        assert.equal(r.isError, undefined, textOf(r));
        assert.match(readFileSync(join(vault, `Edit ${i}.md`), 'utf8'), /second save, longer\n+agent line/);
      });
      mkdirSync(join(vault, `Folder ${i}`));
      writeFileSync(join(vault, `Folder ${i}/A.md`), '# A\n');
      watcherLater();
      await cat.attempt(`list_notes(Folder ${i}) right after another program made it`, async () => {
        const r = await call(c, 'list_notes', { folder: `Folder ${i}` });
        assert.equal(r.isError, undefined, textOf(r));
        assert.deepEqual(r.structuredContent!.notes.map((n: { path: string }) => n.path), [`Folder ${i}/A.md`]);
      });
      renameSync(join(vault, `Folder ${i}/A.md`), join(vault, `Folder ${i}/B.md`));
      watcherLater();
      await cat.attempt(`move_note(Folder ${i}/B.md) right after another program renamed it`, async () => {
        const r = await call(c, 'move_note', { from_path: `Folder ${i}/B.md`, to_path: `Folder ${i}/C.md` });
        assert.equal(r.isError, undefined, textOf(r));
        assert.ok(existsSync(join(vault, `Folder ${i}/C.md`)));
        assert.equal(refusalCode(await call(c, 'read_note', { path: `Folder ${i}/A.md` })), 'not_found');
      });
    }
    const created = async (p: string) => (await call(c, 'get_context', { path: p })).structuredContent!.created as string;
    const listed = async (client = c) => {
      const r = await call(client, 'list_notes', { limit: 500, order_by: 'created' });
      return new Map((r.structuredContent!.notes as { path: string; created: string }[]).map((n) => [n.path, n.created]));
    };
    const moved: Record<string, string> = { 'Welcome.md': 'Moved/Welcome.md', 'Folder 0/C.md': 'Folder Moved/C.md' };
    const was = await listed();
    const first = await created('Welcome.md');
    for (const [tool, args, at] of [
      ['edit_note', { path: 'Welcome.md', content: 'appended line', append: true }, 'Welcome.md'],
      ['set_frontmatter', { path: 'Welcome.md', updates: { touched: true } }, 'Welcome.md'],
      ['edit_note', { path: 'Welcome.md', content: '# Welcome\n\nreplaced body\n' }, 'Welcome.md'],
      ['move_note', { from_path: 'Welcome.md', to_path: 'Moved/Welcome.md' }, 'Moved/Welcome.md'],
      ['move_folder', { from_dir: 'Folder 0', to_dir: 'Folder Moved' }, 'Folder Moved/C.md'],
    ] as [string, Record<string, unknown>, string][]) {
      await cat.attempt(`created kept after ${tool}`, async () => {
        const r = await call(c, tool, args);
        assert.equal(r.isError, undefined, textOf(r));
        assert.equal(await created(at), at === 'Moved/Welcome.md' || at === 'Welcome.md' ? first : was.get('Folder 0/C.md'));
      });
    }
    // Every note listed by order_by=created keeps its time, under its new path after a move.
    const sameAsBefore = (now: Map<string, string>, label: string) => {
      cat.check(`${label}: as many notes listed`, now.size === was.size, `${now.size} vs ${was.size}`);
      for (const [p, t] of was) {
        const at = moved[p] ?? p;
        cat.check(`${label}: ${at} keeps its creation time`, now.get(at) === t, `${now.get(at)} vs ${t}`);
      }
    };
    sameAsBefore(await listed(), 'after edits and moves');
    await c.close();
    stopped = true;
    await s.plugin.unload();
    // A restart of the plugin (a new app session on the same vault): the same creation times.
    const again = await startPlugin(vault, { port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 });
    try {
      const c2 = await connect(`http://127.0.0.1:${again.plugin.runtime!.server.port}/mcp`, key);
      sameAsBefore(await listed(c2), 'after a restart');
      await c2.close();
    } finally { await again.plugin.unload(); }
  } finally { if (!stopped) await s.plugin.unload(); }
  report(cat);
});
