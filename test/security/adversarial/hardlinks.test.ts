// Hard links. A hard link is a file of the vault (the file system cannot tell which of a file's
// names is the original), so it is read like any other; the promise is that no tool changes a
// file OUTSIDE the vault through one. Headless, writes publish by temp file + rename (the other
// name keeps the old bytes) and deletes and moves unlink only the vault's name; in the app, which
// writes files in place, a file with other names is refused for content writes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, readFileSync, linkSync } from 'node:fs';
import { connect, call, refusalCode, textOf } from '../../helpers/server.js';
import { tempDir } from '../../helpers/vault.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { startPlugin, unloadAll } from '../../plugin/harness.js';
import { Category, report } from './report.js';
import { serve } from './fixture.js';

after(unloadAll);

const NOTE = '# Outside note\n\nhard linked\n';
const BIN = 'binary outside';

function layout() {
  const root = tempDir('vmcp-hard-');
  const vault = join(root, 'vault');
  const outside = join(root, 'outside');
  mkdirSync(vault, { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(vault, 'Plain.md'), '# Plain\n');
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  for (const n of names) {
    writeFileSync(join(outside, `${n}.md`), NOTE);
    linkSync(join(outside, `${n}.md`), join(vault, `${n}.md`));
    writeFileSync(join(outside, `${n}.bin`), BIN);
    linkSync(join(outside, `${n}.bin`), join(vault, `${n}.bin`));
  }
  return { vault, outside, names };
}

async function attack(url: string, key: string, cat: Category, label: string, outside: string, names: string[]): Promise<void> {
  const c = await connect(url, key);
  const attempts: [string, Record<string, unknown>][] = [
    ['edit_note', { path: 'a.md', content: 'appended', append: true }], ['edit_note', { path: 'b.md', content: 'replaced' }],
    ['set_frontmatter', { path: 'c.md', updates: { x: 1 } }], ['write_file', { path: 'a.bin', content: 'b3ZlcndyaXR0ZW4=', overwrite: true }],
    ['delete_note', { path: 'd.md' }], ['delete_note', { path: 'e.md', permanent: true }], ['delete_file', { path: 'b.bin', permanent: true }],
    ['move_note', { from_path: 'f.md', to_path: 'Moved/f.md' }], ['edit_note', { path: 'g.md', find: 'hard linked', content: 'changed' }],
  ];
  for (const [tool, args] of attempts) {
    await cat.attempt(`${label} ${tool}(${JSON.stringify(args).slice(0, 60)})`, async () => {
      const r = await call(c, tool, args);
      if (r.isError) assert.equal(refusalCode(r), 'invalid_path', textOf(r));
      for (const n of names) {
        assert.equal(readFileSync(join(outside, `${n}.md`), 'utf8'), NOTE, `outside ${n}.md changed after ${tool}`);
        assert.equal(readFileSync(join(outside, `${n}.bin`), 'utf8'), BIN, `outside ${n}.bin changed after ${tool}`);
      }
    });
  }
  await c.close();
}

test('hard links: no tool changes the outside file through one (headless)', { timeout: 60_000 }, async () => {
  const cat = new Category('hard links');
  const { vault, outside, names } = layout();
  const t = await serve(vault);
  try { await attack(t.url, await t.key({ name: 'rw', scope: 'readwrite' }), cat, 'headless', outside, names); } finally { await t.stop(); }
  report(cat);
});

test('hard links: no tool changes the outside file through one (plugin)', { timeout: 60_000 }, async () => {
  const cat = new Category('hard links (plugin)');
  const { vault, outside, names } = layout();
  const s = await startPlugin(vault, { port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 });
  try {
    const key = (await new KeyStore(new FsDataStore(s.dataDir)).add({ name: 'rw', scope: 'readwrite' })).raw;
    await attack(`http://127.0.0.1:${s.plugin.runtime!.server.port}/mcp`, key, cat, 'plugin', outside, names);
  } finally { await s.plugin.unload(); }
  report(cat);
});
