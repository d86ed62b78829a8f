// Unicode against the real Obsidian Help vault (40 languages): titles and body words in CJK, Thai,
// Arabic, Persian, Hebrew, Cyrillic, Greek and Vietnamese must be findable, accents optional.
// Skips with a printed reason when ../shared is absent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { existsSync, cpSync } from 'node:fs';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { KeywordService } from '../../src/search/service.js';
import { tokenize } from '../../src/search/text.js';
import { noteTitle } from '../../src/core/paths.js';
import { splitFrontmatter } from '../../src/core/markdown/frontmatter.js';
import { sharedFixture } from '../helpers/paths.js';
import { extractArchive, tempDir } from '../helpers/vault.js';

const fx = sharedFixture('fixtures/vaults/obsidian-help.tar.gz');
const skip = fx.path ? false : fx.reason;
if (skip) console.log(`# skipped unicode help-vault tests: ${skip}`);

const SCRIPTS: [string, string, RegExp][] = [
  ['zh', 'Chinese', /\p{Script=Han}/u],
  ['ja', 'Japanese', /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u],
  ['ko', 'Korean', /\p{Script=Hangul}/u],
  ['th', 'Thai', /\p{Script=Thai}/u],
  ['ar', 'Arabic', /\p{Script=Arabic}/u],
  ['fa', 'Persian', /\p{Script=Arabic}/u],
  ['he', 'Hebrew', /\p{Script=Hebrew}/u],
  ['ru', 'Russian', /\p{Script=Cyrillic}/u],
  ['el', 'Greek', /\p{Script=Greek}/u],
];

let host: NodeHost;
let svc: KeywordService;

before(async () => {
  if (skip) return;
  const root = extractArchive(fx.path!);
  const base = existsSync(join(root, 'obsidian-help')) ? join(root, 'obsidian-help') : root;
  // Only the languages under test (a quarter of the vault), so the suite stays quick.
  const vault = join(tempDir('vmcp-kw-help-vault-'), 'vault');
  for (const lang of [...SCRIPTS.map((x) => x[0]), 'vi', 'fr']) cpSync(join(base, lang), join(vault, lang), { recursive: true });
  host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-kw-help-'), 'data'), watch: false });
  svc = new KeywordService({ host, settings: () => withDefaults({ keywordStemming: ['english', 'russian', 'greek', 'arabic'] }) });
  await svc.ready();
});

after(async () => {
  await svc?.stop();
  await host?.close();
});


function sample(lang: string, re: RegExp, n: number) {
  return host.files().map((f) => f.path).filter((p) => p.startsWith(`${lang}/`) && p.endsWith('.md') && re.test(noteTitle(p))).sort().slice(0, n);
}

for (const [lang, name, re] of SCRIPTS) {
  test(`${name}: note titles and body words are findable`, { skip }, async () => {
    const notes = sample(lang, re, 8);
    assert.ok(notes.length >= 3, `few ${name} notes found`);
    const accept = (p: string) => p.startsWith(`${lang}/`);
    let titleTop3 = 0;
    for (const p of notes) {
      const { hits } = await svc.search(noteTitle(p), { accept });
      if (hits.slice(0, 3).some((h) => h.path === p)) titleTop3++;
      // A body word in that script (the longest one, so it is distinctive).
      const body = splitFrontmatter(await host.readText(p)).body;
      const words = tokenize(body).filter((t) => re.test(t.text) && !t.part).sort((a, b) => b.text.length - a.text.length);
      if (!words.length) continue;
      const word = body.slice(words[0].start, words[0].end);
      const found = await svc.search(word, { accept });
      assert.ok(found.hits.some((h) => h.path === p && h.matchedAll), `${name} body word "${word}" does not find ${p}`);
    }
    // Titles are short and often shared by sibling notes ("Sync" pages); most must rank top 3.
    assert.ok(titleTop3 >= Math.ceil(notes.length * 0.75), `${name}: only ${titleTop3}/${notes.length} titles in the top 3`);
  });
}

test('Vietnamese and French titles are found without their diacritics', { skip }, async () => {
  for (const lang of ['vi', 'fr']) {
    const notes = host.files().map((f) => f.path).filter((p) => p.startsWith(`${lang}/`) && /[\u00C0-\u024F\u1E00-\u1EFF]/.test(noteTitle(p))).sort().slice(0, 6);
    assert.ok(notes.length >= 3, `few accented ${lang} titles`);
    let ok = 0;
    for (const p of notes) {
      const bare = noteTitle(p).normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/g, 'd').replace(/Đ/g, 'D');
      const { hits } = await svc.search(bare.toUpperCase(), { accept: (x) => x.startsWith(`${lang}/`) });
      if (hits.slice(0, 3).some((h) => h.path === p)) ok++;
    }
    assert.ok(ok >= notes.length - 1, `${lang}: ${ok}/${notes.length}`);
  }
});
