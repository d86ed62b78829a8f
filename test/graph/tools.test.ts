// Every graph, task and time tool over real HTTP through the SDK client, on a copy of the sample vault
// plus a few notes that exercise self-links, markdown links with anchors, embeds and dangling links;
// with their refusals, paging, a root-confined key, and the index following a change on disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { addGraphFixtures } from './fixtures.js';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf, type ToolResult } from '../helpers/server.js';

let rt: TestRuntime;
let c: Client;
let confined: Client;
let vault: string;

const ok = (r: ToolResult, what: string) => { assert.ok(!r.isError, `${what}: ${textOf(r)}`); return r.structuredContent!; };
async function refused(client: Client, name: string, args: Record<string, unknown>, code: string): Promise<string> {
  const r = await call(client, name, args);
  assert.equal(refusalCode(r), code, `${name} ${JSON.stringify(args)}: ${textOf(r)}`);
  return textOf(r);
}

before(async () => {
  vault = copyVault();
  addGraphFixtures(vault);
  rt = await startTestRuntime(vault);
  c = await connect(rt.url, rt.rwKey);
  const { raw } = await rt.rt.keys.add({ name: 'projects-only', scope: 'read', root: 'Projects' });
  confined = await connect(rt.url, raw);
});

after(async () => {
  await c?.close().catch(() => undefined);
  await confined?.close().catch(() => undefined);
  await rt?.stop();
});

test('the tools are listed with output schemas and read-only annotations', async () => {
  const { tools } = await c.listTools();
  for (const name of ['get_backlinks', 'get_links', 'get_broken_links', 'find_orphans', 'get_most_linked', 'get_neighborhood', 'get_connection_path', 'get_toc', 'get_context', 'list_tasks', 'get_recent', 'get_changes']) {
    const t = tools.find((x) => x.name === name);
    assert.ok(t, name);
    assert.ok(t.outputSchema, `${name} has an output schema`);
    assert.equal(t.annotations?.readOnlyHint, true);
  }
});

test('get_backlinks: linking notes, most links first, each with its first lines; counts only; capped lines', async () => {
  const s = ok(await call(c, 'get_backlinks', { path: 'People/Ada Lovelace' }), 'backlinks');
  assert.equal(s.path, 'People/Ada Lovelace.md');
  assert.deepEqual(s.backlinks.map((b: { path: string }) => b.path), ['Daily/2026-11-30.md', 'Projects/Garden Redesign.md', 'Projects/Links.md', 'Welcome.md']);
  const links = s.backlinks.find((b: { path: string }) => b.path === 'Projects/Links.md').links;
  assert.deepEqual(links, ['L5: See [[Welcome#Welcome|the start]] and [md link](<../People/Ada Lovelace.md#Ada Lovelace>).']);
  const fm = s.backlinks.find((b: { path: string }) => b.path === 'Projects/Garden Redesign.md').links;
  assert.deepEqual(fm, ['[owner] Ada Lovelace']);
  // Counts only: no lines at all.
  const counts = ok(await call(c, 'get_backlinks', { path: 'People/Ada Lovelace', max_links_per_note: 0 }), 'counts');
  assert.deepEqual(counts.backlinks.map((b: Record<string, unknown>) => Object.keys(b).sort()), counts.backlinks.map(() => ['count', 'path']));
  // Welcome is linked twice from Links.md (frontmatter + body): one line shown, the cap said in the hint.
  const capped = ok(await call(c, 'get_backlinks', { path: 'Welcome', max_links_per_note: 1 }), 'capped');
  const fromLinks = capped.backlinks.find((b: { path: string }) => b.path === 'Projects/Links.md');
  assert.deepEqual([fromLinks.count, fromLinks.links.length], [2, 1]);
  assert.equal(capped.backlinks[0].path, 'Projects/Links.md', 'most links first');
  assert.match(capped.hint, /max_links_per_note/);
  // Attachments have backlinks too; pages chain.
  const logo = ok(await call(c, 'get_backlinks', { path: 'Attachments/logo.png', limit: 1 }), 'logo');
  assert.equal(logo.total_notes, 2);
  assert.match(logo.backlinks[0].links[0], /^L\d+: .*logo\.png/);
  assert.match(logo.hint, /1 of 2 shown; pass next_cursor/);
  const p2 = ok(await call(c, 'get_backlinks', { path: 'Attachments/logo.png', limit: 1, cursor: logo.next_cursor }), 'page 2');
  assert.notEqual(p2.backlinks[0].path, logo.backlinks[0].path);
  assert.equal(p2.next_cursor, undefined);
  assert.equal(p2.hint, undefined);
  // A self-link is not a backlink.
  assert.equal(ok(await call(c, 'get_backlinks', { path: 'Orphan' }), 'orphan').total_notes, 0);
  await refused(c, 'get_backlinks', { path: 'Nope' }, 'not_found');
  await refused(c, 'get_backlinks', { path: '../etc/passwd' }, 'invalid_path');
  await refused(c, 'get_backlinks', { path: '.obsidian/app.json' }, 'invalid_path');
  await refused(c, 'get_backlinks', { path: 'Welcome', limit: 0 }, 'invalid_argument');
  await refused(c, 'get_backlinks', { path: 'Welcome', cursor: 'forged' }, 'invalid_argument');
  await refused(c, 'get_backlinks', { path: 'Welcome', extra: 1 }, 'invalid_argument');
});

test('get_links: resolved and dangling, kinds, anchors, frontmatter first', async () => {
  const s = ok(await call(c, 'get_links', { path: 'Projects/Links.md' }), 'links');
  assert.deepEqual(s.links.map((l: { kind?: string; target?: string; link: string; line?: number }) => [l.kind, l.target, l.link, l.line]), [
    ['frontmatter', 'Welcome.md', 'Welcome', undefined],
    [undefined, 'Welcome.md', 'Welcome#Welcome', 5],
    ['markdown', 'People/Ada Lovelace.md', '../People/Ada Lovelace.md#Ada Lovelace', 5],
    ['embed', 'Attachments/logo.png', '../Attachments/logo.png', 6],
    [undefined, undefined, 'Nowhere', 7],
    ['embed', undefined, 'Missing.png', 7],
  ]);
  assert.equal(s.links[0].property, 'related');
  assert.equal(s.links[1].display, 'the start');
  assert.deepEqual([s.total, s.links.filter((l: { target?: string }) => !l.target).length], [6, 2]);
  const page = ok(await call(c, 'get_links', { path: 'Projects/Links.md', limit: 4 }), 'page');
  const rest = ok(await call(c, 'get_links', { path: 'Projects/Links.md', limit: 4, cursor: page.next_cursor }), 'rest');
  assert.deepEqual([...page.links, ...rest.links], s.links);
  await refused(c, 'get_links', { path: 'Projects' }, 'invalid_argument');
  await refused(c, 'get_links', { path: 'Attachments/logo.png' }, 'invalid_argument');
});

test('get_broken_links and find_orphans, with folder filters', async () => {
  const b = ok(await call(c, 'get_broken_links', {}), 'broken');
  // Grouped by the note holding them: its path is said once.
  assert.deepEqual(b.broken.map((g: { source: string; links: string[] }) => [g.source, g.links]), [
    ['Projects/Links.md', ['L7: Nowhere', 'L7: Missing.png']], ['Projects/_conventions.md', ['L4: People']], ['Welcome.md', ['L12: Someday Maybe']],
  ]);
  assert.deepEqual([b.total, b.notes], [4, 3]);
  assert.equal(ok(await call(c, 'get_broken_links', { folder: '' }), 'root').total, 1);
  const paged = ok(await call(c, 'get_broken_links', { limit: 3 }), 'paged');
  assert.equal(ok(await call(c, 'get_broken_links', { limit: 3, cursor: paged.next_cursor }), 'p2').broken[0].links[0], 'L12: Someday Maybe');
  await refused(c, 'get_broken_links', { folder: 'Nope' }, 'not_found');
  const o = ok(await call(c, 'find_orphans', {}), 'orphans');
  assert.deepEqual(o.orphans, ['CLAUDE.md', 'Orphan.md', 'Projects/_conventions.md']);
  assert.deepEqual(ok(await call(c, 'find_orphans', { folder: 'Projects/' }), 'f').orphans, ['Projects/_conventions.md']);
});

test('get_most_linked: ranked by distinct linking notes; attachments on request', async () => {
  const s = ok(await call(c, 'get_most_linked', { limit: 3 }), 'most');
  assert.deepEqual(s.notes.map((n: { path: string; backlinks: number }) => [n.path, n.backlinks]), [['People/Ada Lovelace.md', 4], ['Projects/Garden Redesign.md', 3], ['Projects/Website Relaunch.md', 3]]);
  const w = ok(await call(c, 'get_most_linked', { limit: 50 }), 'all').notes.find((n: { path: string }) => n.path === 'Welcome.md');
  assert.deepEqual([w.backlinks, w.links], [2, 3], 'Links.md links Welcome twice (frontmatter + body)');
  const att = ok(await call(c, 'get_most_linked', { limit: 50, include_attachments: true }), 'att');
  assert.ok(att.notes.some((n: { path: string }) => n.path === 'Attachments/logo.png'));
  assert.ok(!s.notes.some((n: { path: string }) => n.path === 'Attachments/logo.png'));
});

test('get_neighborhood: undirected BFS with distances, via and direction; depth and limit bounds', async () => {
  const one = ok(await call(c, 'get_neighborhood', { path: 'Daily/2026-11-30' }), 'n1');
  assert.deepEqual(one.notes.map((n: { path: string; distance: number; direction: string }) => [n.path, n.distance, n.direction]), [
    ['People/Ada Lovelace.md', 1, 'both'], ['Projects/Garden Redesign.md', 1, 'out'], ['Reference/Obsidian syntax.md', 1, 'out'], ['Welcome.md', 1, 'in'],
  ]);
  const two = ok(await call(c, 'get_neighborhood', { path: 'Daily/2026-11-30', depth: 2 }), 'n2');
  assert.ok(two.notes.some((n: { path: string; distance: number }) => n.path === 'Vault MCP Server.md' && n.distance === 2));
  assert.ok(!two.notes.some((n: { path: string }) => n.path === 'Attachments/logo.png'));
  assert.ok(two.notes.every((n: { path: string }) => n.path !== 'Daily/2026-11-30.md'), 'the start is not listed');
  const withAtt = ok(await call(c, 'get_neighborhood', { path: 'Daily/2026-11-30', depth: 2, include_attachments: true }), 'att');
  assert.ok(withAtt.notes.some((n: { path: string }) => n.path === 'Attachments/logo.png'));
  const p1 = ok(await call(c, 'get_neighborhood', { path: 'Daily/2026-11-30', depth: 2, limit: 3 }), 'p1');
  const p2 = ok(await call(c, 'get_neighborhood', { path: 'Daily/2026-11-30', depth: 2, limit: 200, cursor: p1.next_cursor }), 'p2');
  assert.deepEqual([...p1.notes, ...p2.notes], two.notes);
  assert.equal(ok(await call(c, 'get_neighborhood', { path: 'Orphan' }), 'orphan').total, 0);
  await refused(c, 'get_neighborhood', { path: 'Welcome', depth: 6 }, 'invalid_argument');
  await refused(c, 'get_neighborhood', { path: 'Welcome', limit: 201 }, 'invalid_argument');
});

test('get_connection_path: shortest chain, direction, and a plain "not connected"', async () => {
  const s = ok(await call(c, 'get_connection_path', { source: 'People/Grace Hopper', target: 'Daily/2026-11-30' }), 'path');
  assert.equal(s.connected, true);
  assert.equal(s.hops, 2);
  assert.deepEqual(s.path.map((x: { path: string; step: string }) => [x.path, x.step]), [['People/Grace Hopper.md', 'start'], ['Welcome.md', 'linked_from'], ['Daily/2026-11-30.md', 'links_to']]);
  assert.equal(s.path[0].path, 'People/Grace Hopper.md');
  assert.equal(s.path.at(-1).path, 'Daily/2026-11-30.md');
  const fwd = ok(await call(c, 'get_connection_path', { source: 'Daily/2026-11-30', target: 'Welcome', direction: 'forward' }), 'fwd');
  assert.ok(fwd.path.slice(1).every((x: { step: string }) => x.step === 'links_to'));
  const none = await call(c, 'get_connection_path', { source: 'Orphan', target: 'Welcome' });
  const ns = ok(none, 'none');
  assert.deepEqual([ns.connected, ns.hops, ns.path], [false, undefined, []]);
  assert.match(textOf(none), /^Not connected/);
  assert.equal(ok(await call(c, 'get_connection_path', { source: 'Welcome', target: 'Welcome' }), 'self').hops, 0);
  assert.equal(ok(await call(c, 'get_connection_path', { source: 'Daily/2026-11-30', target: 'Vault MCP Server', max_hops: 1 }), 'short').connected, false);
  await refused(c, 'get_connection_path', { source: 'Welcome', target: 'Nope' }, 'not_found');
  await refused(c, 'get_connection_path', { source: 'Welcome', target: 'Orphan', max_hops: 11 }, 'invalid_argument');
});

test('get_toc: one note with ordinals, lines and sizes; a folder paged; max_level', async () => {
  const s = ok(await call(c, 'get_toc', { path: 'Projects/Garden Redesign' }), 'toc');
  assert.deepEqual([s.total_notes, s.notes.length, s.notes[0].path], [1, 1, 'Projects/Garden Redesign.md']);
  const hs: string[] = s.notes[0].headings;
  assert.deepEqual(hs.map((h) => h.replace(/, \d+ chars\)$/, ')')), ['#1 Garden Redesign (h1, L9)', '#2 Plan (h2, L13)', '#3 Tasks (h2, L19)', '#4 Notes (h2, L27)']);
  assert.ok(hs.every((h) => /, [1-9]\d* chars\)$/.test(h)), 'each section with its size');
  // The label before the parenthesis is what read_note(section=…) takes.
  assert.match(ok(await call(c, 'read_note', { path: 'Projects/Garden Redesign', section: hs[2].replace(/ \(.*$/, '') }), 'section').content, /Test the soil pH/);
  const top = ok(await call(c, 'get_toc', { path: 'Projects/Garden Redesign', max_level: 1 }), 'lvl');
  assert.deepEqual(top.notes[0].headings.map((h: string) => h.split(' (')[0]), ['#1 Garden Redesign']);
  const f = ok(await call(c, 'get_toc', { path: 'Projects', limit: 2 }), 'folder');
  assert.equal(f.total_notes, 4);
  assert.deepEqual(f.notes.map((n: { path: string }) => n.path), ['Projects/Garden Redesign.md', 'Projects/Links.md']);
  assert.ok(f.next_cursor);
  const all = ok(await call(c, 'get_toc', { path: '', limit: 200 }), 'vault');
  assert.equal(all.total_notes, 12);
  await refused(c, 'get_toc', { path: 'Nope/None' }, 'not_found');
});

test('get_context: the dossier', async () => {
  const s = ok(await call(c, 'get_context', { path: 'Projects/Garden Redesign' }), 'ctx');
  assert.equal(s.path, 'Projects/Garden Redesign.md');
  assert.equal(s.frontmatter.status, 'active');
  assert.deepEqual(s.tags, ['#project', '#garden', '#garden/soil']);
  assert.match(s.content_hash, /^sha256:[0-9a-f]{64}$/);
  assert.equal(s.open_tasks, 3);
  assert.deepEqual([...s.backlinks].sort(), ['Daily/2026-11-30.md', 'People/Ada Lovelace.md', 'Welcome.md']);
  assert.equal(s.backlinks_total, 3);
  assert.deepEqual(s.links, ['People/Ada Lovelace.md', 'Projects/Website Relaunch.md']);
  assert.deepEqual([...s.folder_peers].sort(), ['Projects/Links.md', 'Projects/Website Relaunch.md', 'Projects/_conventions.md']);
  assert.deepEqual(Object.keys(s.conventions), ['Projects/_conventions.md']);
  assert.ok(s.outline.every((h: string) => /^#\d+ /.test(h)));
  assert.equal(s.related, undefined);
  assert.match(s.hint, /No related notes: .*semantic/);
  const o = ok(await call(c, 'get_context', { path: 'Orphan' }), 'orphan');
  assert.deepEqual([o.backlinks, o.backlinks_total, o.links, o.conventions], [undefined, 0, undefined, undefined]);
  await refused(c, 'get_context', { path: 'Nope' }, 'not_found');
});

test('list_tasks: statuses, fields, ordering, filters, paging and refusals', async () => {
  const open = ok(await call(c, 'list_tasks', {}), 'open');
  assert.equal(open.hint, undefined, 'every note scanned, one page');
  assert.deepEqual(open.tasks.map((t: { text: string; due?: string }) => [t.text, t.due ?? null]), [
    ['Urgent #garden', '2026-12-01'], ['Send Ada the seed catalogue', '2026-12-05'], ['Compare Hugo and Eleventy', '2026-12-10'],
    ['Test the soil pH #garden/soil', '2026-12-15'], ['Order wildflower seeds', '2027-01-31'], ['Export the old posts', null], ['Check image links', null],
  ]);
  const urgent = open.tasks[0];
  assert.deepEqual([urgent.path, urgent.line, urgent.heading_path, urgent.priority, urgent.dates?.scheduled, urgent.tags], ['Projects/Links.md', 10, ['Links', 'Tasks'], 'highest', '2026-11-25', ['#garden']]);
  const any = ok(await call(c, 'list_tasks', { status: 'any', limit: 500 }), 'any');
  assert.equal(any.total, 12);
  assert.deepEqual(ok(await call(c, 'list_tasks', { status: 'done' }), 'done').tasks.map((t: { text: string }) => t.text).sort(), ['Book the meeting room', 'Sketch the layout']);
  const sketch = any.tasks.find((t: { text: string }) => t.text === 'Sketch the layout');
  assert.equal(sketch.dates.done, '2026-11-20');
  assert.deepEqual(ok(await call(c, 'list_tasks', { status: 'cancelled' }), 'c').tasks.map((t: { text: string }) => t.text), ['Hire a landscaper']);
  const ip = ok(await call(c, 'list_tasks', { status: 'in_progress' }), 'ip').tasks;
  assert.deepEqual(ip.map((t: { text: string; due: string }) => [t.text, t.due]), [['Clear the old shed', '2026-12-20']]);
  assert.deepEqual(ok(await call(c, 'list_tasks', { status: '>' }), '>').tasks.map((t: { status: string }) => t.status), ['>']);
  assert.deepEqual(ok(await call(c, 'list_tasks', { due_by: '2026-12-10' }), 'due').tasks.map((t: { due: string }) => t.due), ['2026-12-01', '2026-12-05', '2026-12-10']);
  assert.deepEqual(ok(await call(c, 'list_tasks', { scheduled_by: '2027-01-10' }), 'sched').tasks.map((t: { text: string }) => t.text), ['Urgent #garden', 'Order wildflower seeds']);
  assert.deepEqual(ok(await call(c, 'list_tasks', { tags: ['garden'] }), 'tags').tasks.map((t: { line: number }) => t.line), [10, 21]);
  assert.deepEqual(ok(await call(c, 'list_tasks', { tags: ['#garden/soil'] }), 'tags2').tasks.map((t: { line: number }) => t.line), [21]);
  assert.equal(ok(await call(c, 'list_tasks', { folder: 'Daily' }), 'folder').total, 1);
  const p1 = ok(await call(c, 'list_tasks', { status: 'any', limit: 5 }), 'p1');
  const p2 = ok(await call(c, 'list_tasks', { status: 'any', limit: 5, cursor: p1.next_cursor }), 'p2');
  const p3 = ok(await call(c, 'list_tasks', { status: 'any', limit: 5, cursor: p2.next_cursor }), 'p3');
  assert.deepEqual([...p1.tasks, ...p2.tasks, ...p3.tasks], any.tasks);
  assert.equal(p3.next_cursor, undefined);
  await refused(c, 'list_tasks', { status: 'xx' }, 'invalid_argument');
  await refused(c, 'list_tasks', { due_by: 'tomorrow' }, 'invalid_argument');
  await refused(c, 'list_tasks', { folder: 'Nope' }, 'not_found');
  await refused(c, 'list_tasks', { cursor: 'garbage' }, 'invalid_argument');
  // A cursor of the right kind whose key is not a task's place: refused, not read as a page start.
  const forged = (after: unknown) => Buffer.from(JSON.stringify({ k: 'list_tasks', after }), 'utf8').toString('base64url');
  for (const after of ['2026-12-01', `2026-12-01\u0000Daily.md\u00007`, 42]) await refused(c, 'list_tasks', { cursor: forged(after) }, 'invalid_argument');
  // Its own cursor, made again from its parts, still resumes where the page ended.
  const [due, path, line] = (JSON.parse(Buffer.from(p1.next_cursor, 'base64url').toString('utf8')) as { after: string }).after.split('\u0000');
  assert.deepEqual(ok(await call(c, 'list_tasks', { status: 'any', limit: 5, cursor: forged(`${due}\u0000${path}\u0000${line}`) }), 'p2 again').tasks, p2.tasks);
});

test('get_recent: newest first, UTC, since/until, content_changed', async () => {
  const s = ok(await call(c, 'get_recent', { limit: 500 }), 'recent');
  assert.equal(s.total, 12);
  assert.ok(s.notes.every((n: { modified: string }) => n.modified.endsWith('Z')));
  const times = s.notes.map((n: { modified: string }) => Date.parse(n.modified));
  assert.deepEqual(times, [...times].sort((a, b) => b - a));
  assert.equal(ok(await call(c, 'get_recent', { since: '2999-01-01' }), 'future').total, 0);
  assert.equal(ok(await call(c, 'get_recent', { until: '2000-01-01' }), 'past').total, 0);
  const cc = ok(await call(c, 'get_recent', { order_by: 'content_changed', folder: 'People' }), 'cc');
  assert.deepEqual(cc.notes.map((n: { path: string }) => n.path).sort(), ['People/Ada Lovelace.md', 'People/Grace Hopper.md']);
  await refused(c, 'get_recent', { since: 'yesterday-ish' }, 'invalid_argument');
  await refused(c, 'get_recent', { order_by: 'size' }, 'invalid_argument');
});

test('get_changes: refusals for bad cursors', async () => {
  await refused(c, 'get_changes', { since: 'ev:abc' }, 'invalid_argument');
  await refused(c, 'get_changes', { since: 'not a date' }, 'invalid_argument');
  await refused(c, 'get_changes', {}, 'invalid_argument');
  await refused(c, 'get_changes', { since: 'ev:0', folder: 'Nope' }, 'not_found');
});

test('a root-confined key sees only its part of the graph', async () => {
  const b = ok(await call(confined, 'get_backlinks', { path: 'Projects/Garden Redesign' }), 'cb');
  assert.equal(b.total_notes, 0, 'Welcome, Daily and People are outside Projects/');
  await refused(confined, 'get_backlinks', { path: 'Welcome' }, 'not_found');
  const l = ok(await call(confined, 'get_links', { path: 'Projects/Garden Redesign' }), 'cl');
  assert.deepEqual(l.links.map((x: { target?: string }) => x.target), [undefined, 'Projects/Website Relaunch.md']);
  const broken = ok(await call(confined, 'get_broken_links', {}), 'cbr');
  assert.ok(broken.broken.every((x: { source: string }) => x.source.startsWith('Projects/')));
  assert.ok(broken.broken.some((x: { links: string[] }) => x.links.some((l) => / Ada Lovelace$/.test(l))), 'a link leaving the root answers like a dangling one');
  const most = ok(await call(confined, 'get_most_linked', { limit: 50 }), 'cm');
  assert.ok(most.notes.every((n: { path: string }) => n.path.startsWith('Projects/')));
  const nb = ok(await call(confined, 'get_neighborhood', { path: 'Projects/Garden Redesign', depth: 5 }), 'cn');
  assert.deepEqual(nb.notes.map((n: { path: string }) => n.path), ['Projects/Website Relaunch.md']);
  const none = ok(await call(confined, 'get_connection_path', { source: 'Projects/Garden Redesign', target: 'Projects/Links' }), 'cp');
  assert.equal(none.connected, false, 'the only chain runs through notes outside the root');
  const tasks = ok(await call(confined, 'list_tasks', { status: 'any', limit: 500 }), 'ct');
  assert.ok(tasks.tasks.length > 0 && tasks.tasks.every((t: { path: string }) => t.path.startsWith('Projects/')));
  const ctx = ok(await call(confined, 'get_context', { path: 'Projects/Links' }), 'cc');
  assert.equal(ctx.links, undefined, 'links leaving the root are dangling for this key');
  assert.match(ctx.hint, /open no note/);
  const toc = ok(await call(confined, 'get_toc', { path: '', limit: 200 }), 'ctoc');
  assert.ok(toc.notes.every((n: { path: string }) => n.path.startsWith('Projects/')));
  const recent = ok(await call(confined, 'get_recent', { limit: 500 }), 'cr');
  assert.ok(recent.notes.every((n: { path: string }) => n.path.startsWith('Projects/')));
  const orphans = ok(await call(confined, 'find_orphans', {}), 'co');
  assert.ok(orphans.orphans.every((p: string) => p.startsWith('Projects/')));
});

test('a new note on disk shows up in backlinks, links and tasks at once', async () => {
  writeFileSync(join(vault, 'Daily/2026-12-01.md'), '# 2026-12-01\n\nCall [[Grace Hopper]].\n\n- [ ] Follow up with Grace 📅 2026-11-01\n');
  await rt.host.refresh('Daily/2026-12-01.md');
  const b = ok(await call(c, 'get_backlinks', { path: 'People/Grace Hopper' }), 'b');
  assert.ok(b.backlinks.some((x: { path: string }) => x.path === 'Daily/2026-12-01.md'));
  const t = ok(await call(c, 'list_tasks', {}), 't');
  assert.equal(t.tasks[0].text, 'Follow up with Grace');
  assert.ok(ok(await call(c, 'get_neighborhood', { path: 'People/Grace Hopper' }), 'n').notes.some((x: { path: string }) => x.path === 'Daily/2026-12-01.md'));
  const ch = ok(await call(c, 'get_changes', { since: 'ev:0' }), 'changes');
  assert.ok(ch.changes.some((x: { kind: string; path?: string; by: string }) => x.kind === 'created' && x.path === 'Daily/2026-12-01.md' && x.by === 'human'));
});
