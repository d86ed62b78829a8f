// The containment attack shared by both hosts (symlinks.test.ts headless, symlinks-plugin.test.ts
// through the built plugin in the fake app): every refused path of the layout through every
// path-taking tool must answer exactly like a missing path, listings/search/graph must never show
// one, and creating or moving through a symlinked folder must be refused before anything is made.
import assert from 'node:assert/strict';
import { connect, call, refusalCode, textOf } from '../../helpers/server.js';
import type { Category } from './report.js';
import { leaks, sameAsMissing, REFUSED_FILES, REFUSED_FOLDERS } from './fixture.js';

export const READ_TOOLS: [string, string, Record<string, unknown>][] = [
  ['read_note', 'path', {}], ['read_file', 'path', {}], ['read_file', 'path', { hash_only: true }], ['get_toc', 'path', {}],
  ['get_links', 'path', {}], ['get_backlinks', 'path', {}], ['get_context', 'path', {}], ['request_download', 'path', {}],
];
export const WRITE_TOOLS: [string, string, Record<string, unknown>][] = [
  ['edit_note', 'path', { content: 'x', append: true }], ['set_frontmatter', 'path', { updates: { a: 1 } }],
  ['delete_note', 'path', {}], ['delete_note', 'path', { permanent: true }], ['delete_file', 'path', {}], ['delete_file', 'path', { permanent: true }],
  ['move_note', 'from_path', { to_path: 'Team/moved-away.md' }],
];

export async function attack(url: string, key: string, cat: Category, label: string): Promise<void> {
  const c = await connect(url, key);
  try {
    for (const p of REFUSED_FILES) {
      for (const [tool, arg, extra] of [...READ_TOOLS, ...WRITE_TOOLS]) {
        await cat.attempt(`${label} ${tool}(${p})`, async () => { const bad = await sameAsMissing(c, tool, extra, arg, p); assert.equal(bad, null, bad ?? ''); });
      }
    }
    for (const f of REFUSED_FOLDERS) {
      for (const tool of ['list_notes', 'list_files']) {
        await cat.attempt(`${label} ${tool}(folder=${f})`, async () => { const bad = await sameAsMissing(c, tool, {}, 'folder', f); assert.equal(bad, null, bad ?? ''); });
      }
    }
    // Listings, search and graph never show a refused path or an outside word.
    const listings: [string, Record<string, unknown>][] = [
      ['list_notes', { limit: 500 }], ['list_files', { folder: '', recursive: true, limit: 500 }], ['list_files', { folder: 'Team', recursive: true, limit: 500 }],
      ['list_folders', {}], ['get_recent', {}], ['stats', {}], ['get_tags', {}], ['keyword_search', { query: 'OUTSIDESECRETWORD' }],
      ['keyword_search', { query: 'OUTSIDEDEEPWORD DOTFOLDERWORD HIDDENOUTSIDEWORD' }], ['keyword_search', { query: 'plan team' }],
      ['get_broken_links', {}], ['find_orphans', {}], ['get_most_linked', {}], ['list_tasks', {}], ['get_neighborhood', { path: 'Team/Plan.md' }],
    ];
    for (const [tool, args] of listings) {
      await cat.attempt(`${label} ${tool}`, async () => {
        const r = await call(c, tool, args);
        assert.equal(r.isError, undefined, textOf(r));
        const text = JSON.stringify(r.structuredContent);
        assert.deepEqual(leaks(r, String(args.query ?? '')), [], `${tool} leaked`);
        for (const p of [...REFUSED_FILES, ...REFUSED_FOLDERS]) assert.ok(!text.includes(`"${p}"`) && !text.includes(`"${p}/`), `${tool} lists ${p}`);
      });
    }
    // Creating through a symlinked folder (outside, into .obsidian) is refused before anything is made.
    const creates: [string, Record<string, unknown>][] = [
      ['create_note', { path: 'Team/outdir/new.md', content: 'x' }], ['create_note', { path: 'Team/outdir/made/deeper/new.md', content: 'x' }],
      ['create_note', { path: 'Team/dotdir/plugins/vault-mcp-server/evil.md', content: 'x' }],
      ['write_file', { path: 'Team/dotdir/plugins/vault-mcp-server/keys.json', content: '{"version":1,"keys":[]}', encoding: 'text', overwrite: true }],
      ['write_file', { path: 'Team/dotdir/newdir/x.bin', content: 'eA==' }], ['write_file', { path: 'Team/privdir/planted.bin', content: 'eA==' }],
      ['write_file', { path: 'Team/leak.png', content: 'eA==', overwrite: true }], ['create_note', { path: 'Team/loop/Sub/x.md', content: 'x' }],
      ['move_note', { from_path: 'Team/Notes.md', to_path: 'Team/outdir/Notes.md' }], ['move_note', { from_path: 'Team/Notes.md', to_path: 'Team/dotdir/Notes.md' }],
      ['move_note', { from_path: 'Team/Notes.md', to_path: 'Team/privdir/made/Notes.md' }], ['move_folder', { from_dir: 'Team/Sub', to_dir: 'Team/outdir/Sub' }],
      ['move_folder', { from_dir: 'Team/outdir', to_dir: 'Team/Stolen' }], ['request_upload', { path: 'Team/dotdir/plugins/vault-mcp-server/keys.json', overwrite: true }],
      ['create_note', { path: 'Team/dangling.md', content: 'x' }],
    ];
    for (const [tool, args] of creates) {
      await cat.attempt(`${label} ${tool}(${JSON.stringify(args)})`, async () => {
        const r = await call(c, tool, args);
        if (tool === 'request_upload' && !r.isError) {
          // A minted link must still not land: the upload is refused by the writer.
          const token = /#t=(\S+)$/.exec(r.structuredContent!.url)![1];
          const up = await fetch(new URL('/transfer/upload', url), { method: 'PUT', headers: { Authorization: `Bearer ${token}` }, body: '{"version":1,"keys":[]}' });
          assert.ok(up.status >= 400, `upload through a symlinked folder answered ${up.status}`);
          return;
        }
        assert.ok(r.isError, `${tool} succeeded: ${textOf(r)}`);
        assert.ok(['invalid_path', 'not_found', 'permission_denied', 'already_exists', 'invalid_argument'].includes(refusalCode(r)!), textOf(r));
        assert.ok(!/\/tmp\/|EACCES|ENOENT|errno/.test(textOf(r)), `absolute path or errno in: ${textOf(r)}`);
      });
    }
  } finally { await c.close(); }
}

