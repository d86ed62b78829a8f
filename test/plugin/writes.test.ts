// The write tools through the plugin path: built main.js in the fake app, real SDK client over HTTP.
// Writes must go through the app's APIs (create/process/renameFile/trashFile), so the fake vault's
// tree, events and metadata cache see them, and rewrite_links must mean the same with Obsidian's
// "Automatically update internal links" on or off.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';
import { contentHash } from '../../src/core/hash.js';
import { startPlugin, unloadAll } from './harness.js';

after(unloadAll);

const LOOSE = { rateLimitPerMinute: 1e6, rateLimitBurst: 1e6, writeRateLimitPerMinute: 1e6, writeRateLimitBurst: 1e6, maxConcurrentCallsPerKey: 1000, maxConcurrentCalls: 1000, defaultDailyQuota: 0 };

async function start(alwaysUpdateLinks: boolean, trashOption: 'system' | 'local' | 'none' = 'local') {
  const vault = copyVault();
  writeFileSync(join(vault, 'crlf.md'), '---\r\ntitle: c # keep\r\n---\r\n# H\r\nold\r\n# Next\r\nend\r\n');
  writeFileSync(join(vault, 'Target.md'), '# Target\n');
  writeFileSync(join(vault, 'Linker.md'), 'See [[Target]], [[Target|alias]], ![[Target#Target]] and [md](Target.md).\n');
  const s = await startPlugin(vault, { port: 0, ...LOOSE });
  s.app.vault.setConfig('alwaysUpdateLinks', alwaysUpdateLinks);
  s.app.vault.setConfig('trashOption', trashOption);
  const key = await (s.plugin as unknown as { createKey(n: string, sc: string): Promise<string> }).createKey('writes', 'readwrite');
  const client = await connect(`http://127.0.0.1:${s.plugin.runtime!.server.port}/mcp`, key);
  return { ...s, vault, client, key, stop: async () => { await client.close().catch(() => undefined); await s.plugin.unload(); } };
}

for (const alwaysUpdateLinks of [true, false]) {
  test(`plugin writes (update internal links ${alwaysUpdateLinks ? 'on' : 'off'})`, async () => {
    const s = await start(alwaysUpdateLinks);
    const c = s.client;
    const text = (p: string) => readFileSync(join(s.vault, p), 'utf8');
    try {
      // create: through Vault.create, seen by the app's tree and the next read.
      const cr = await call(c, 'create_note', { path: 'New/Idea', content: '# Idea\n' });
      assert.equal(cr.isError, undefined, textOf(cr));
      assert.ok(s.app.vault.getFileByPath('New/Idea.md'), 'the app knows the new note');
      assert.equal(refusalCode(await call(c, 'create_note', { path: 'New/Idea', content: 'x' })), 'already_exists');
      assert.equal(refusalCode(await call(c, 'create_note', { path: 'Other', content: 'x', expected_hash: 'sha256:' + 'a'.repeat(64) })), 'no_incumbent');
      // edit modes keep CRLF and the frontmatter bytes.
      const h0 = contentHash(readFileSync(join(s.vault, 'crlf.md')));
      assert.equal(refusalCode(await call(c, 'edit_note', { path: 'crlf', section: 'H', content: 'x', expected_hash: 'sha256:' + '0'.repeat(64) })), 'stale_precondition');
      assert.equal(refusalCode(await call(c, 'edit_note', { path: 'crlf', section: 'H', content: 'x', expected_hash: 'nope' })), 'malformed_precondition');
      const sec = await call(c, 'edit_note', { path: 'crlf', section: 'H', content: 'new\n', expected_hash: h0 });
      assert.equal(sec.isError, undefined, textOf(sec));
      assert.equal(text('crlf.md'), '---\r\ntitle: c # keep\r\n---\r\n# H\r\nnew\r\n# Next\r\nend\r\n');
      assert.equal(sec.structuredContent!.content_hash, contentHash(readFileSync(join(s.vault, 'crlf.md'))));
      await call(c, 'edit_note', { path: 'crlf', content: 'tail', append: true });
      await call(c, 'edit_note', { path: 'crlf', find: 'end\ntail', content: 'END' });
      assert.ok(text('crlf.md').endsWith('# Next\r\nEND'));
      const dry = await call(c, 'edit_note', { path: 'crlf', content: 'all new', dry_run: true });
      assert.match(dry.structuredContent!.diff, /\+all new/);
      assert.ok(text('crlf.md').endsWith('END'));
      // set_frontmatter through Vault.process keeps the comment (processFrontMatter would drop it).
      const fm = await call(c, 'set_frontmatter', { path: 'crlf', updates: { status: 'done' } });
      assert.equal(fm.isError, undefined, textOf(fm));
      assert.ok(text('crlf.md').startsWith('---\r\ntitle: c # keep\r\nstatus: done\r\n---\r\n# H\r\n'));
      await s.app.metadataCache.settled();
      assert.equal(s.app.metadataCache.getCache('crlf.md')?.frontmatter?.status, 'done', 'the app cache saw the change');
      // move with rewrite_links: same result whether the app or we rewrite.
      const mv = await call(c, 'move_note', { from_path: 'Target', to_path: 'Archive/Renamed', rewrite_links: true });
      assert.equal(mv.isError, undefined, textOf(mv));
      assert.equal(/Obsidian updated the links itself/.test(mv.structuredContent!.hint ?? ''), alwaysUpdateLinks, 'the hint says when Obsidian rewrote the links');
      // The app writes the shortest unique form, we a relative path; both open Archive/Renamed.md.
      assert.match(text('Linker.md'), /^See \[\[Renamed\]\], \[\[Renamed\|alias\]\], !\[\[Renamed#Target\]\] and \[md\]\((Archive\/)?Renamed\.md\)\.\n$/);
      await s.app.metadataCache.settled();
      assert.equal(s.app.metadataCache.resolvedLinks['Linker.md']?.['Archive/Renamed.md'], 4, JSON.stringify(s.app.metadataCache.resolvedLinks['Linker.md']));
      assert.equal(refusalCode(await call(c, 'move_note', { from_path: 'Archive/Renamed', to_path: 'Linker' })), 'already_exists');
      const plain = await call(c, 'move_note', { from_path: 'Archive/Renamed', to_path: 'Archive/Plain' });
      assert.equal(plain.isError, undefined, textOf(plain));
      assert.match(text('Linker.md'), /\[\[Renamed\]\]/, 'rewrite_links=false leaves links alone even with the app setting on');
      // delete through FileManager.trashFile (the vault's .trash here), then permanent.
      const del = await call(c, 'delete_note', { path: 'New/Idea' });
      assert.equal(del.isError, undefined, textOf(del));
      assert.ok(!existsSync(join(s.vault, 'New/Idea.md')));
      assert.ok(readdirSync(join(s.vault, '.trash')).includes('Idea.md'));
      assert.equal(refusalCode(await call(c, 'read_note', { path: 'New/Idea' })), 'not_found');
      // files
      const wf = await call(c, 'write_file', { path: 'Attachments/x.bin', content: Buffer.from([1, 2, 3]).toString('base64') });
      assert.equal(wf.isError, undefined, textOf(wf));
      assert.ok(s.app.vault.getFileByPath('Attachments/x.bin'));
      assert.equal(refusalCode(await call(c, 'write_file', { path: 'Attachments/x.bin', content: 'AAAA' })), 'already_exists');
      const ow = await call(c, 'write_file', { path: 'Attachments/x.bin', content: 'AAAA', overwrite: true, expected_hash: contentHash(new Uint8Array([1, 2, 3])) });
      assert.equal(ow.isError, undefined, textOf(ow));
      const df = await call(c, 'delete_file', { path: 'Attachments/x.bin', permanent: true });
      assert.equal(df.isError, undefined, textOf(df));
      assert.ok(!s.app.vault.getFileByPath('Attachments/x.bin'));
      // Even "permanent" follows the user's "Deleted files" setting in the app (here the vault's .trash), and says so.
      assert.ok(readdirSync(join(s.vault, '.trash')).includes('x.bin'), 'through FileManager.trashFile, not Vault.delete');
      assert.match(String((df.structuredContent as { trashed_to: string | null }).trashed_to), /\.trash/);
      // move_folder: collision refuses everything.
      const mf = await call(c, 'move_folder', { from_dir: 'Archive', to_dir: 'Moved' });
      assert.equal(mf.isError, undefined, textOf(mf));
      assert.ok(s.app.vault.getFileByPath('Moved/Plain.md'));
    } finally { await s.stop(); }
  });
}

test('plugin: 50 concurrent appenders with expected_hash lose nothing; concurrent_write on an outside change', async () => {
  const s = await start(true);
  try {
    await s.app.vault.create('log2.md', '# Log\n');
    const clients = await Promise.all(Array.from({ length: 5 }, () => connect(`http://127.0.0.1:${s.plugin.runtime!.server.port}/mcp`, s.key)));
    await Promise.all(Array.from({ length: 50 }, async (_, i) => {
      const c = clients[i % clients.length];
      let hash = (await call(c, 'read_note', { path: 'log2.md' })).structuredContent!.content_hash;
      for (let attempt = 0; attempt < 500; attempt++) {
        const r = await call(c, 'edit_note', { path: 'log2.md', content: `line ${i}\n`, append: true, expected_hash: hash });
        if (!r.isError) return;
        assert.equal(refusalCode(r), 'stale_precondition', textOf(r));
        hash = JSON.parse(textOf(r).split('\n').pop()!.slice('MCP-REFUSAL '.length)).current_hash;
        await new Promise((res) => setTimeout(res, Math.random() * 20 * Math.min(attempt + 1, 8)));
      }
      throw new Error('never got through');
    }));
    await Promise.all(clients.map((c) => c.close()));
    const lines = readFileSync(join(s.vault, 'log2.md'), 'utf8').split('\n').filter((l) => l.startsWith('line '));
    assert.equal(new Set(lines).size, 50);
    // An outside change between our read and Vault.process: refused, nothing written.
    const vault = s.app.vault as unknown as { process: (f: unknown, fn: (d: string) => string) => Promise<string> };
    const orig = vault.process.bind(s.app.vault);
    vault.process = async (f, fn) => { writeFileSync(join(s.vault, 'log2.md'), 'outside\n'); return orig(f, fn); };
    try {
      assert.equal(refusalCode(await call(s.client, 'edit_note', { path: 'log2', content: 'mine' })), 'concurrent_write');
    } finally { vault.process = orig; }
    assert.equal(readFileSync(join(s.vault, 'log2.md'), 'utf8'), 'outside\n');
  } finally { await s.stop(); }
});
