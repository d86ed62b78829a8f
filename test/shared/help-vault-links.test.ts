// The Obsidian Help vault (all languages in one tree, one folder per language, many same-named notes):
// every note parses, and hand-checked links resolve to the note in the linking note's own language.
// Skips with a printed reason when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMarkdown } from '../../src/core/markdown/parse.js';
import { LinkIndex, resolveLinkpath } from '../../src/core/markdown/links.js';
import type { NoteMetadata, ReferenceCache } from '../../src/core/markdown/metadata.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const archive = resolve(repoRoot, '../shared/fixtures/vaults/obsidian-help.tar.gz');

function walk(root: string, rel = '', out: string[] = []): string[] {
  for (const e of readdirSync(join(root, rel))) {
    if (e.startsWith('.')) continue;
    const r = rel ? `${rel}/${e}` : e;
    if (statSync(join(root, r)).isDirectory()) walk(root, r, out); else out.push(r);
  }
  return out;
}

test('Obsidian Help vault: every note parses and hand-checked links resolve per language', (t) => {
  if (!existsSync(archive)) {
    const reason = `${archive} is not present (fresh clone without ../shared)`;
    console.log(`# skipped: ${reason}`);
    t.skip(reason);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'help-vault-'));
  try {
    execFileSync('tar', ['-xzf', archive, '-C', dir]);
    const top = readdirSync(dir);
    const root = top.length === 1 ? join(dir, top[0]) : dir;
    const files = walk(root);
    const byNfc = new Map(files.map((f) => [f.normalize('NFC'), f]));
    const index = new LinkIndex(byNfc.keys());
    const meta = new Map<string, NoteMetadata>();
    const failures: string[] = [];
    for (const [p, onDisk] of byNfc) {
      if (!p.endsWith('.md')) continue;
      try { meta.set(p, parseMarkdown(readFileSync(join(root, onDisk), 'utf8'))); } catch (e) { failures.push(`${p}: ${(e as Error).message}`); }
    }
    assert.deepEqual(failures, []);
    assert.ok(meta.size > 6000, `${meta.size} notes`);

    const refs = (p: string): ReferenceCache[] => { const m = meta.get(p); assert.ok(m, `note ${p} exists`); return [...(m.links ?? []), ...(m.embeds ?? [])]; };
    /** The reference `original` in note `from` resolves to `to`; returns the reference. */
    const check = (from: string, original: string, to: string): ReferenceCache => {
      const ref = refs(from).find((r) => r.original === original);
      assert.ok(ref, `${from} contains ${original}`);
      assert.equal(resolveLinkpath(ref.link, from, index), to, `${original} in ${from}`);
      return ref;
    };

    // 34 notes are called "Obsidian CLI" (one per language): each home page gets its own language's.
    check('en/Home.md', '[[Obsidian CLI]]', 'en/Extending Obsidian/Obsidian CLI.md');
    check('de/Startseite.md', '[[Obsidian CLI]]', 'de/Obsidian erweitern/Obsidian CLI.md');
    check('ja/ホーム.md', '[[Obsidian CLI]]', 'ja/Obsidian の拡張/Obsidian CLI.md');
    check('fa/خانه.md', '[[Obsidian CLI]]', 'fa/گسترش Obsidian/Obsidian CLI.md');
    // Same folder wins among 24 "Canvas" notes.
    check('en/Plugins/Core plugins.md', '[[Canvas]]', 'en/Plugins/Canvas.md');
    // Folder-qualified links are vault-root paths inside each language vault: a partial-path match here.
    const tpl = check('en/Editing and formatting/Properties.md', '[[Plugins/Templates|Templates]]', 'en/Plugins/Templates.md');
    assert.equal(tpl.displayText, 'Templates');
    const tags = check('en/Editing and formatting/Properties.md', '[[Editing and formatting/Tags\\|Tags]]', 'en/Editing and formatting/Tags.md');
    assert.equal(tags.link, 'Editing and formatting/Tags');
    assert.equal(tags.displayText, 'Tags');
    check('en/Obsidian Sync/Collaborate on a shared vault.md', '[[Obsidian Sync/Security and privacy|end-to-end encrypted]]', 'en/Obsidian Sync/Security and privacy.md');
    // Heading link: resolves, and the heading exists in the target.
    const h = check('en/Linking notes and files/Embed files.md', '[[Internal links#Link to a heading in a note|headings]]', 'en/Linking notes and files/Internal links.md');
    assert.equal(h.link, 'Internal links#Link to a heading in a note');
    assert.ok(meta.get('en/Linking notes and files/Internal links.md')!.headings!.some((x) => x.heading === 'Link to a heading in a note'));
    // Embeds: an attachment (33 copies, one per language) and a block of another note.
    check('en/Linking notes and files/Internal links.md', '![[internal-links-header.png#interface]]', 'en/Attachments/internal-links-header.png');
    const blk = check('en/Linking notes and files/Internal links.md', '![[Quick switcher#^search-autocomplete-large]]', 'en/Plugins/Quick switcher.md');
    assert.equal(blk.link, 'Quick switcher#^search-autocomplete-large');
    assert.ok(meta.get('en/Plugins/Quick switcher.md')!.blocks?.['search-autocomplete-large'], 'the target note defines the block');

    // Broad sanity: most wikilinks of the English vault resolve inside en/.
    let total = 0, inEn = 0;
    for (const [p, m] of meta) {
      if (!p.startsWith('en/')) continue;
      for (const l of m.links ?? []) {
        if (l.original.startsWith('[[') && !l.link.startsWith('#')) {
          total++;
          const to = resolveLinkpath(l.link, p, index);
          if (to?.startsWith('en/')) inEn++;
        }
      }
    }
    assert.ok(total > 1000 && inEn / total > 0.97, `${inEn}/${total} English wikilinks resolve inside en/`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
