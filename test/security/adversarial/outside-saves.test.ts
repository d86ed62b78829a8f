// Outside saves are visible to the next call (headless host). Another editor or a sync client
// creates, re-saves, removes and renames notes and folders on disk; the very next call must see the
// disk as it is, although the file watcher (debounce set long here, as on a busy machine) has not
// reported anything yet: reads, deletes, edits with the hash just read, listings of a new folder,
// moves. Indexes catch up through the watcher as before; this promise is about path-taking tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, rmSync, renameSync, existsSync, readFileSync } from 'node:fs';
import { connect, call, refusalCode, textOf } from '../../helpers/server.js';
import { NodeHost } from '../../../src/host/node/nodeHost.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { withDefaults } from '../../../src/settings.js';
import { startRuntime } from '../../../src/runtime.js';
import { contentHash } from '../../../src/core/hash.js';
import { tempDir } from '../../helpers/vault.js';
import { Category, report } from './report.js';

test('a note saved, re-saved, removed or moved by another program is seen by the next call', { timeout: 180_000 }, async () => {
  const vault = join(tempDir('vmcp-outside-'), 'vault');
  mkdirSync(join(vault, 'Inbox'), { recursive: true });
  writeFileSync(join(vault, 'Inbox/Start.md'), '# Start\n');
  const host = new NodeHost(vault, { dataDir: join(vault, '..', 'data'), watch: true, debounceMs: 60_000 });
  await host.ready();
  const keys = new KeyStore(host.data);
  const s = withDefaults({ port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 });
  const rt = await startRuntime({ host, settings: () => s, keys });
  const cat = new Category('outside saves');
  try {
    const c = await connect(rt.server.url, (await keys.add({ name: 'rw', scope: 'readwrite' })).raw);
    const disk = (p: string) => join(vault, p);
    for (let i = 0; i < 25; i++) {
      const p = `Inbox/Outside ${i}.md`;
      writeFileSync(disk(p), `---\nround: ${i}\n---\n# Outside ${i}\n\nfirst save\n`);
      await cat.attempt(`read_note right after an outside create (${i})`, async () => {
        const r = await call(c, 'read_note', { path: p });
        assert.equal(r.isError, undefined, textOf(r));
        assert.match(r.structuredContent!.content, /first save/);
        assert.equal(r.structuredContent!.content_hash, contentHash(readFileSync(disk(p))));
      });
      await cat.attempt(`bare name without .md (${i})`, async () => assert.equal((await call(c, 'read_file', { path: p })).isError, undefined));
      writeFileSync(disk(p), `---\nround: ${i}\nstatus: resaved\n---\n# Outside ${i}\n\nsecond save, longer than the first\n`);
      await cat.attempt(`read_note right after an outside re-save is not stale (${i})`, async () => {
        const r = await call(c, 'read_note', { path: p });
        assert.match(r.structuredContent!.content, /second save/);
        assert.equal(r.structuredContent!.frontmatter.status, 'resaved');
        assert.equal(r.structuredContent!.content_hash, contentHash(readFileSync(disk(p))));
        const st = (await call(c, 'list_notes', { folder: 'Inbox', limit: 100 })).structuredContent!.notes.find((n: { path: string }) => n.path === p);
        assert.ok(st, 'listed');
      });
      await cat.attempt(`edit_note with the hash of the outside save (${i})`, async () => {
        const hash = (await call(c, 'read_note', { path: p })).structuredContent!.content_hash;
        const r = await call(c, 'edit_note', { path: p, content: 'agent line\n', append: true, expected_hash: hash });
        assert.equal(r.isError, undefined, textOf(r));
        assert.match(readFileSync(disk(p), 'utf8'), /second save, longer than the first\n+agent line/);
      });
      const q = `Inbox/Gone ${i}.md`;
      writeFileSync(disk(q), `# Gone ${i}\n`);
      await cat.attempt(`delete_note right after an outside create (${i})`, async () => {
        const r = await call(c, 'delete_note', { path: q });
        assert.equal(r.isError, undefined, textOf(r));
        assert.ok(!existsSync(disk(q)));
      });
      const g = `Inbox/Removed ${i}.md`;
      writeFileSync(disk(g), `# Removed ${i}\n`);
      await host.refresh(g); // known to the server…
      rmSync(disk(g)); // …then removed behind its back
      await cat.attempt(`read_note right after an outside removal is not_found (${i})`, async () => assert.equal(refusalCode(await call(c, 'read_note', { path: g })), 'not_found'));
      const folder = `Synced ${i}`;
      mkdirSync(disk(folder));
      writeFileSync(disk(`${folder}/A.md`), '# A\n');
      await cat.attempt(`list_notes of a folder created outside (${i})`, async () => {
        const r = await call(c, 'list_notes', { folder });
        assert.equal(r.isError, undefined, textOf(r));
        assert.deepEqual(r.structuredContent!.notes.map((n: { path: string }) => n.path), [`${folder}/A.md`]);
      });
      renameSync(disk(`${folder}/A.md`), disk(`${folder}/B.md`));
      await cat.attempt(`move_note of a note renamed outside (${i})`, async () => {
        const r = await call(c, 'move_note', { from_path: `${folder}/B.md`, to_path: `${folder}/C.md` });
        assert.equal(r.isError, undefined, textOf(r));
        assert.equal(refusalCode(await call(c, 'read_note', { path: `${folder}/A.md` })), 'not_found');
      });
    }
    await c.close();
  } finally {
    await rt.stop();
    await host.close();
  }
  report(cat);
});
