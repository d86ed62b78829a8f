// Graph counts on the real Obsidian Help vault (../shared) against an independent count: for each of
// the ten most-linked notes of the English help (en/), the notes whose raw text holds a wikilink,
// embed or markdown link naming it, found with plain regular expressions over the files (no parser;
// a bare name resolves to the note of that name in the linking note's language folder, else to the
// only note of that name). Skips with a printed reason when the archive is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedFixture } from '../helpers/paths.js';
import { extractArchive } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call } from '../helpers/server.js';

function vaultRoot(archive: string): string {
  const dir = extractArchive(archive);
  const top = readdirSync(dir);
  return top.length === 1 ? join(dir, top[0]) : dir;
}

const lang = (p: string) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '');
const stem = (p: string) => p.replace(/^.*\//, '').replace(/\.md$/i, '').toLowerCase();

/** Link targets named in raw text: [[X]], [[X|a]], [[X#h]], ![[X]], [t](X.md), [t](<X.md>), [t](X%20Y.md). */
function namedTargets(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\[\[([^\]|#\n]+)/g)) out.add(stem(m[1].replace(/\\$/, '').trim())); // `[[X\|alias]]` in tables
  for (const m of text.matchAll(/\]\((?:<([^>#\n]+\.md)[^>]*>|([^)\s#]+\.md))/gi)) {
    const raw = m[1] ?? m[2];
    try { out.add(stem(decodeURIComponent(raw))); } catch { out.add(stem(raw)); }
  }
  return out;
}

test('most-linked notes of the Obsidian Help vault match an independent count', async (t) => {
  const fx = sharedFixture('fixtures/vaults/obsidian-help.tar.gz');
  if (!fx.path) { console.log(`# skipped: ${fx.reason}`); t.skip(fx.reason); return; }
  const root = vaultRoot(fx.path);
  const rt = await startTestRuntime(root);
  const client = await connect(rt.url, rt.readKey);
  try {
    const notes = rt.host.files().filter((f) => f.path.endsWith('.md')).map((f) => f.path);
    // Independent resolution of a bare name: a note with that name in the linking note's own
    // top-level (language) folder, else the only note with that name in the vault, else ambiguous.
    const byStem = new Map<string, string[]>();
    for (const p of notes) byStem.set(stem(p), [...(byStem.get(stem(p)) ?? []), p]);
    const top = (await call(client, 'get_most_linked', { limit: 40, folder: 'en' })).structuredContent!.notes as { path: string; backlinks: number; links: number }[];
    // Names unique within their language folder, so "same name, same folder" means "this note".
    const checked = top.filter((n) => byStem.get(stem(n.path))!.filter((p) => lang(p) === lang(n.path)).length === 1).slice(0, 10);
    assert.equal(checked.length, 10);
    const texts = new Map(notes.map((p) => [p, namedTargets(readFileSync(join(root, p), 'utf8'))]));
    const rows: string[] = [];
    for (const n of checked) {
      const name = stem(n.path);
      const cands = byStem.get(name)!;
      let independent = 0;
      let ambiguous = 0;
      for (const [p, named] of texts) {
        if (p === n.path || !named.has(name)) continue;
        const local = cands.filter((c) => lang(c) === lang(p));
        if (local.length) { if (local.includes(n.path) && local.length === 1) independent++; else if (local.includes(n.path)) ambiguous++; }
        else if (cands.length === 1) independent++;
        else ambiguous++;
      }
      const back = (await call(client, 'get_backlinks', { path: n.path, limit: 1 })).structuredContent!;
      assert.equal(back.total_notes, n.backlinks, `get_backlinks and get_most_linked agree on ${n.path}`);
      rows.push(`${n.path}: graph ${n.backlinks}, independent ${independent}${ambiguous ? ` (+${ambiguous} ambiguous)` : ''}`);
      // The regex count also sees "links" inside code blocks and comments, which are not links: allow 2.
      assert.ok(n.backlinks >= independent - 2 && n.backlinks <= independent + ambiguous, rows.at(-1));
    }
    console.log(rows.map((r) => `# ${r}`).join('\n'));
    assert.ok(checked[0].backlinks > 50, 'the top note is a real hub');
  } finally {
    await client.close();
    await rt.stop();
  }
});
