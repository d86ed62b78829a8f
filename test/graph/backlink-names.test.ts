// get_backlinks resolves only the links named like the target (a hub note's backlinks used to resolve
// every link of every linking note). Every spelling that leads to the note must still be listed with its
// line (case, .md, folders, relative paths, anchors and aliases, embeds, markdown links, NFD text,
// frontmatter), and a host that resolves by another name gets every link resolved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { refsOf, type LinkRef } from '../../src/graph/service.js';
import { refsTo } from '../../src/mcp/tools/graph/links.js';
import type { VaultHost } from '../../src/host/port.js';
import type { NoteMetadata } from '../../src/core/markdown/metadata.js';

const TARGET = 'Projects/Ünïcode Target.md';

test('get_backlinks lists the line of every link that leads to the note, however it is spelled', async () => {
  const vault = join(tempDir('vmcp-bl-'), 'vault');
  const write = (p: string, text: string) => { mkdirSync(join(vault, p, '..'), { recursive: true }); writeFileSync(join(vault, p), text); };
  write(TARGET, '# Target\n\n## Heading\n');
  write('Projects/Other.md', '# Other\n');
  write('Projects/Same folder.md', 'a [[Ünïcode Target]] b\nc [[ünïcode target]] d\ne [[Other]] f\n');
  write('Notes/Paths.md', [
    'p1 [[Projects/Ünïcode Target.md]]',
    'p2 [[../Projects/Ünïcode Target]]',
    'p3 [[Ünïcode Target#Heading|an alias]]',
    'p4 ![[Ünïcode Target]]',
    'p5 [md](<../Projects/Ünïcode Target.md>)',
    `p6 [[${'Ünïcode Target'.normalize('NFD')}]]`,
    'p7 [[Other]] [[Missing]]',
  ].join('\n') + '\n');
  write('Notes/Front.md', '---\nrelated: "[[Ünïcode Target]]"\n---\nbody [[Other]]\n');
  const rt = await startTestRuntime(vault);
  try {
    const c = await connect(rt.url, rt.rwKey);
    await call(c, 'get_backlinks', { path: TARGET, max_links_per_note: 0 }); // the graph is built (it resolves everything once)
    const asked: string[] = [];
    const own = rt.host.resolveLink.bind(rt.host);
    rt.host.resolveLink = (lp, src) => { asked.push(lp); return own(lp, src); };
    const r = await call(c, 'get_backlinks', { path: TARGET, max_links_per_note: 20 });
    assert.deepEqual(asked.filter((lp) => /Other|Missing/.test(lp)), [], 'links named otherwise were not resolved (no fallback was needed)');
    assert.ok(!r.isError, textOf(r));
    const rows = r.structuredContent!.backlinks as { path: string; count: number; links: string[] }[];
    const by = Object.fromEntries(rows.map((b) => [b.path, b]));
    assert.deepEqual(Object.keys(by).sort(), ['Notes/Front.md', 'Notes/Paths.md', 'Projects/Same folder.md']);
    for (const b of rows) assert.equal(b.links.length, b.count, `${b.path}: a line for each of its ${b.count} links: ${JSON.stringify(b.links)}`);
    assert.deepEqual(by['Notes/Paths.md'].links.map((l) => l.slice(0, 6)), ['L1: p1', 'L2: p2', 'L3: p3', 'L4: p4', 'L5: p5', 'L6: p6']);
    assert.deepEqual(by['Notes/Front.md'].links, ['[related] Ünïcode Target']);
    await c.close();
  } finally { await rt.stop(); }
});

test('refsOf with a target resolves only links named like it; refsTo falls back to every link when that finds fewer than counted', () => {
  const meta = { links: ['Target', 'Elsewhere', 'Nickname', 'dir/target.md'].map((link, i) => ({ link, original: `[[${link}]]`, position: { start: { line: i, col: 0, offset: i * 20 }, end: { line: i, col: 10, offset: i * 20 + 10 } } })) } as unknown as NoteMetadata;
  const asked: string[] = [];
  // A host that (unlike name-based resolution) also sends "Nickname" to the target.
  const resolver = (lp: string) => { asked.push(lp); return lp === 'Elsewhere' ? 'Elsewhere.md' : 'dir/Target.md'; };
  const host = {} as VaultHost;
  const named = refsOf(host, 'src.md', meta, resolver, 'dir/Target.md');
  assert.deepEqual(asked, ['Target', 'dir/target.md'], 'only the links named like the target were resolved');
  assert.deepEqual(named.map((r) => r.target), ['dir/Target.md', null, null, 'dir/Target.md']);
  const view = { refs: (_: string, onlyTo?: string): LinkRef[] => refsOf(host, 'src.md', meta, resolver, onlyTo) };
  assert.equal(refsTo(view, 'src.md', 'dir/Target.md', 2).length, 2, 'as many as counted: the named ones');
  assert.deepEqual(refsTo(view, 'src.md', 'dir/Target.md', 3).map((r) => r.link), ['Target', 'Nickname', 'dir/target.md'], 'fewer than counted: every link resolved');
});
