// Titles as people write them (issue 14): the file name without a date/id prefix, the frontmatter
// `title:`, aliases, a first-line H1, and the first line of an id-named note. Each is the note's title
// for ranking (a query that is the title finds the note first, above long notes repeating the words)
// and for display (keyword_search and hybrid_search rows over HTTP); both hosts build the same document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { noteTitles, splitIdPrefix } from '../../src/search/title.js';
import { buildDoc } from '../../src/search/document.js';
import { createAnalyzer } from '../../src/search/analyzer.js';
import { parseQuery } from '../../src/search/query.js';
import { InvertedIndex } from '../../src/search/invertedIndex.js';
import { runQuery } from '../../src/search/rank.js';
import { parseMarkdown } from '../../src/core/markdown/parse.js';
import type { NoteMetadata } from '../../src/core/markdown/metadata.js';
import { tempDir, removeDir } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call } from '../helpers/server.js';

const analyzer = createAnalyzer({ stemming: ['english'], stopWords: true });

test('id and date prefixes are split off the file name; plain numbers are part of the title', () => {
  assert.deepEqual(splitIdPrefix('202312011200 Zettel idea'), { id: '202312011200', rest: 'Zettel idea' });
  assert.deepEqual(splitIdPrefix('0001 Short title'), { id: '0001', rest: 'Short title' });
  assert.deepEqual(splitIdPrefix('2023-12-01 Meeting notes'), { id: '2023-12-01', rest: 'Meeting notes' });
  assert.deepEqual(splitIdPrefix('2023-12-01T10.30 Standup'), { id: '2023-12-01T10.30', rest: 'Standup' });
  assert.deepEqual(splitIdPrefix('0042'), { id: '0042', rest: '' });
  for (const name of ['2023 in review', '101 Dalmatians', 'Plain title', '1 Introduction']) assert.deepEqual(splitIdPrefix(name), { id: '', rest: name });
});

test('display title and title forms for each way of writing a title', () => {
  const t = (path: string, text: string) => {
    const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
    const fm = text.startsWith('---\n') ? parseYaml(text.slice(4, text.indexOf('\n---\n'))) as Record<string, unknown> : undefined;
    return noteTitles(path, body, fm);
  };
  assert.deepEqual(t('Notes/Plain title.md', 'Some text.\n').forms, ['Plain title']);
  const z = t('202312011200 Zettel idea.md', 'Some text.\n');
  assert.equal(z.display, 'Zettel idea');
  assert.equal(z.id, '202312011200');
  const h1 = t('0001 Short.md', '# The full title of the note\n\nBody.\n');
  assert.equal(h1.display, 'The full title of the note');
  assert.deepEqual(h1.forms, ['The full title of the note', 'Short']);
  assert.equal(h1.h1, 'The full title of the note');
  assert.equal(t('0001.md', '---\ntitle: From frontmatter\n---\nBody.\n').display, 'From frontmatter');
  const first = t('0001.md', 'A plain first line\n\nBody text.\n');
  assert.equal(first.display, 'A plain first line');
  assert.equal('A plain first line\n\nBody text.\n'.slice(first.titleLineLength).trimStart(), 'Body text.\n');
  // A note named by its title keeps that name; its matching H1 is the same title (not a second one).
  const same = t('My Note.md', '# My Note\ntext\n');
  assert.deepEqual([same.display, same.forms], ['My Note', ['My Note']]);
  // A different first-line H1 is another form of the title; the file name stays the display title.
  assert.deepEqual(t('Meeting 2023.md', '# Agenda\n- item\n').forms, ['Meeting 2023', 'Agenda']);
  // Markdown structure is not a title line; a daily note keeps its date.
  assert.equal(t('0042.md', '- [ ] a task\n').display, '0042');
  assert.equal(t('0042.md', '## Section\ntext\n').display, '0042');
  assert.equal(t('Daily/2023-12-01.md', 'Went to the park.\n').display, '2023-12-01');
  assert.equal(t('0007.md', `${'x'.repeat(300)}\n`).display, '0007');
  assert.equal(t('0007.md', '# **Bold** [[Link|shown]] title\n').display, 'Bold shown title');
});

test('the title line leaves the body and the headings, so every layout indexes the same title and body', () => {
  const body = 'The body mentions drag once.\n\n## Section\nMore.\n';
  const layouts = [
    ['Aero/Wing drag at low speed.md', body],
    ['0001 Wing drag.md', `# Wing drag at low speed\n\n${body}`],
    ['0001.md', `---\ntitle: Wing drag at low speed\n---\n${body}`],
    ['0001.md', `Wing drag at low speed\n\n${body}`],
  ];
  for (const [path, text] of layouts) {
    const d = buildDoc(path, text, parseMarkdown(text));
    assert.equal(d.titles.split('\n')[0], 'Wing drag at low speed', path);
    assert.equal(d.body.trim(), body.trim(), path);
    assert.equal(d.headings, 'Section', path);
  }
});

test('both hosts build the same document: Obsidian-shaped metadata, our parser, or no metadata', () => {
  const text = '---\ntitle: Shared title\naliases: [Other name]\ntags: [t1]\n---\n# Shared title\n\nBody #inline words.\n\n## Part\n';
  const ours = buildDoc('0003 x.md', text, parseMarkdown(text));
  // What Obsidian's metadata cache hands over: parsed frontmatter, headings and inline tags with positions.
  const pos = (line: number) => ({ start: { line, col: 0, offset: 0 }, end: { line, col: 1, offset: 1 } });
  const app: NoteMetadata = {
    frontmatter: { title: 'Shared title', aliases: ['Other name'], tags: ['t1'] },
    headings: [{ heading: 'Shared title', level: 1, position: pos(5) }, { heading: 'Part', level: 2, position: pos(9) }],
    tags: [{ tag: '#inline', position: pos(7) }],
  };
  assert.deepEqual(buildDoc('0003 x.md', text, app), ours);
  assert.equal(ours.titles.split('\n')[0], 'Shared title');
  assert.equal(ours.aliases, 'Other name');
  assert.equal(buildDoc('0003 x.md', text, null).titles, ours.titles);
});

test('a query that is the title finds the note first in every layout, above long notes repeating the words', async () => {
  const filler = (i: number) => `${'wing drag speed measurements and '.repeat(20)} note ${i}\n`;
  const layouts: Record<string, Record<string, string>> = {
    name: { 'Aero/Wing drag at low speed.md': 'A short note.\n' },
    h1: { '0001 Wing drag.md': '# Wing drag at low speed\n\nA short note.\n' },
    frontmatter: { '0001.md': '---\ntitle: Wing drag at low speed\n---\nA short note.\n' },
    firstLine: { '0001.md': 'Wing drag at low speed\n\nA short note.\n' },
    alias: { '0001.md': '---\naliases: [Wing drag at low speed]\n---\nA short note.\n' },
    zettel: { '202312011200 Wing drag at low speed.md': 'A short note.\n' },
  };
  for (const [name, target] of Object.entries(layouts)) {
    const ix = new InvertedIndex();
    const notes: Record<string, string> = { ...target };
    for (let i = 0; i < 12; i++) notes[`Other/Long ${i}.md`] = filler(i);
    notes['Other/Wing.md'] = `# Wing\n${filler(99)}`;
    for (const [p, t] of Object.entries(notes)) ix.add(buildDoc(p, t, parseMarkdown(t)), analyzer);
    const hits = await runQuery(ix, parseQuery('wing drag at low speed', analyzer), analyzer);
    assert.equal(hits[0].path, Object.keys(target)[0], `${name}: ${hits.slice(0, 3).map((h) => h.path).join(', ')}`);
    if (name !== 'alias') assert.equal(hits[0].title, 'Wing drag at low speed', name);
  }
});

test('keyword_search and hybrid_search show the display title over HTTP', async () => {
  const vault = join(tempDir('vmcp-titles-'), 'vault');
  const files: Record<string, string> = {
    '0001.md': '---\ntitle: Orbital mechanics primer\n---\nKepler and the two-body problem.\n',
    '0002 Short.md': '# Rocket staging explained\n\nWhy rockets drop stages.\n',
    '0003.md': 'Heat shields on reentry\n\nAblative materials.\n',
    '202401011200 Launch windows.md': 'Planning around orbital alignments.\n',
  };
  for (const [p, t] of Object.entries(files)) { mkdirSync(dirname(join(vault, p)), { recursive: true }); writeFileSync(join(vault, p), t); }
  const rt = await startTestRuntime(vault);
  try {
    const client = await connect(rt.url, rt.readKey);
    const titleOf = async (tool: string, query: string, path: string) => {
      const r = await call(client, tool, { query, ...(tool === 'keyword_search' ? { wait_for_pending_writes: true } : {}) });
      assert.ok(!r.isError, JSON.stringify(r.content));
      return (r.structuredContent!.results as { path: string; title: string }[]).find((x) => x.path === path)?.title;
    };
    assert.equal(await titleOf('keyword_search', 'orbital mechanics primer', '0001.md'), 'Orbital mechanics primer');
    assert.equal(await titleOf('keyword_search', 'rocket staging', '0002 Short.md'), 'Rocket staging explained');
    assert.equal(await titleOf('keyword_search', 'heat shields', '0003.md'), 'Heat shields on reentry');
    assert.equal(await titleOf('keyword_search', 'launch windows', '202401011200 Launch windows.md'), 'Launch windows');
    // hybrid_search without a model answers from the keyword arm, with the same titles.
    assert.equal(await titleOf('hybrid_search', 'rocket staging', '0002 Short.md'), 'Rocket staging explained');
    await client.close();
  } finally {
    await rt.stop();
    removeDir(join(vault, '..'));
  }
});
