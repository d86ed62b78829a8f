// Creation time survives edits (headless host). Every write publishes by temp file + rename, which
// gives the file a new inode and birth time; edits, frontmatter changes, replaces, moves (of notes
// and folders), binary overwrites and another editor's atomic save must all leave `created`
// (list_notes, order_by=created, get_context) as it was, also after a server restart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, renameSync } from 'node:fs';
import { connect, call, textOf } from '../../helpers/server.js';
import { NodeHost } from '../../../src/host/node/nodeHost.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { withDefaults } from '../../../src/settings.js';
import { startRuntime } from '../../../src/runtime.js';
import { tempDir } from '../../helpers/vault.js';
import { Category, report } from './report.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function start(vault: string, dataDir: string, raw?: string) {
  const host = new NodeHost(vault, { dataDir, watch: false });
  await host.ready();
  const keys = new KeyStore(host.data);
  const s = withDefaults({ port: 0, rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0 });
  const rt = await startRuntime({ host, settings: () => s, keys });
  const key = raw ?? (await keys.add({ name: 'rw', scope: 'readwrite' })).raw;
  const c = await connect(rt.server.url, key);
  return { host, c, key, stop: async () => { await c.close(); await rt.stop(); await host.close(); } };
}

test('creation time survives edits, frontmatter changes, moves, outside atomic saves and a restart', { timeout: 180_000 }, async () => {
  const vault = join(tempDir('vmcp-ctime-'), 'vault');
  const dataDir = join(vault, '..', 'data');
  const notes = ['Append.md', 'Replace.md', 'Front.md', 'Move.md', 'Folder/Inner.md', 'Outside.md'];
  for (const [i, p] of notes.entries()) {
    mkdirSync(join(vault, p, '..'), { recursive: true });
    writeFileSync(join(vault, p), `---\nn: ${i}\n---\n# ${p}\n\nbody\n`);
    await sleep(15); // distinct birth times, in this order
  }
  writeFileSync(join(vault, 'data.bin'), 'v1');
  await sleep(15);
  const cat = new Category('creation time');
  let srv = await start(vault, dataDir);
  const created = async () => {
    const r = await call(srv.c, 'list_notes', { limit: 100, order_by: 'created' });
    return new Map<string, string>((r.structuredContent!.notes as { path: string; created: string }[]).map((n) => [n.path, n.created]));
  };
  const was = await created();
  const order = [...was.keys()];
  const renamedTo: Record<string, string> = { 'Move.md': 'Moved/Move.md', 'Folder/Inner.md': 'Folder2/Inner.md' };
  const expect = (p: string) => was.get(Object.entries(renamedTo).find(([, to]) => to === p)?.[0] ?? p);
  const checkAll = async (label: string) => {
    const now = await created();
    for (const [p, c] of now) {
      if (p === 'Late.md') continue;
      cat.check(`${label}: ${p} keeps its creation time`, c === expect(p), `${c} vs ${expect(p)}`);
    }
    for (const p of ['Append.md', 'Front.md', now.has('Move.md') ? 'Move.md' : 'Moved/Move.md', now.has('Folder/Inner.md') ? 'Folder/Inner.md' : 'Folder2/Inner.md']) {
      const ctx = await call(srv.c, 'get_context', { path: p });
      cat.check(`${label}: get_context(${p}).created`, ctx.structuredContent?.created === expect(p), textOf(ctx).slice(0, 200));
    }
    const nowOrder = [...now.keys()].filter((p) => p !== 'Late.md').map((p) => Object.entries(renamedTo).find(([, to]) => to === p)?.[0] ?? p);
    cat.check(`${label}: order_by=created unchanged`, JSON.stringify(nowOrder) === JSON.stringify(order), nowOrder.join(', '));
  };
  for (let round = 0; round < 8; round++) {
    const ok = (r: Awaited<ReturnType<typeof call>>) => assert.equal(r.isError, undefined, textOf(r));
    ok(await call(srv.c, 'edit_note', { path: 'Append.md', content: `line ${round}\n`, append: true }));
    ok(await call(srv.c, 'edit_note', { path: 'Replace.md', content: `# Replaced ${round}\n` }));
    ok(await call(srv.c, 'set_frontmatter', { path: 'Front.md', updates: { round } }));
    const [from, to] = round % 2 === 0 ? ['Move.md', 'Moved/Move.md'] : ['Moved/Move.md', 'Move.md'];
    ok(await call(srv.c, 'move_note', { from_path: from, to_path: to }));
    const [fromDir, toDir] = round % 2 === 0 ? ['Folder', 'Folder2'] : ['Folder2', 'Folder'];
    ok(await call(srv.c, 'move_folder', { from_dir: fromDir, to_dir: toDir }));
    // Another editor saving atomically (temp file + rename), as many do.
    writeFileSync(join(vault, '.Outside.md.tmp'), `# Outside\n\nsaved by another editor ${round}\n`);
    renameSync(join(vault, '.Outside.md.tmp'), join(vault, 'Outside.md'));
    ok(await call(srv.c, 'read_note', { path: 'Outside.md' }));
    ok(await call(srv.c, 'write_file', { path: 'data.bin', content: Buffer.from(`v${round + 2}`).toString('base64'), overwrite: true }));
    {
      await checkAll(`round ${round}`);
      const bin = (await call(srv.c, 'list_files', { folder: '', limit: 100 })).structuredContent!.files.find((f: { path: string }) => f.path === 'data.bin');
      cat.check(`round ${round}: data.bin listed`, !!bin);
    }
  }
  // A note created now is newer than all of them.
  assert.equal((await call(srv.c, 'create_note', { path: 'Late.md', content: '# Late\n' })).isError, undefined);
  const late = (await created()).get('Late.md')!;
  cat.check('a new note is newest', [...was.values()].every((c) => c < late));
  const key = srv.key;
  await srv.stop();
  srv = await start(vault, dataDir, key);
  try {
    await checkAll('after a restart');
  } finally { await srv.stop(); }
  report(cat);
});
