// The change feed: attribution (recordOwn), touches that keep the bytes, persistence across restarts,
// reconciliation of changes made while stopped (gap line, moves by hash), reset lines, retention gaps,
// cursors ahead of the feed, and get_changes filters and paging over HTTP.
import { decodeState, emitState, type StateHeader } from '../../src/changes/stateFile.js';
import { decodeUtf8Lines, utf8LinePieces } from '../../src/services/utf8Slices.js';
import { feedPartsInTurns, feedText, noteState, parseFeedParts } from '../../src/changes/feed.js';
import { Slicer } from '../../src/services/slicer.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { ChangeService, FEED_FILE, STATE_FILE } from '../../src/changes/service.js';
import type { ChangeEvent, NoteState } from '../../src/changes/feed.js';
import type { WriteBody } from '../../src/host/port.js';
import { copyVault, tempDir } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, refusalCode, textOf } from '../helpers/server.js';

/** The state file's text in parts, all at once, as the save writes them one by one. */
async function encodeState(header: StateHeader, files: Iterable<[string, NoteState]>): Promise<string[]> {
  const parts: string[] = [];
  await emitState(header, files, (part) => { parts.push(part); });
  return parts;
}

interface Env { vault: string; dataDir: string; host: NodeHost; svc: ChangeService }

async function open(vault: string, dataDir: string, settings: Partial<Settings> = {}): Promise<Env> {
  const host = new NodeHost(vault, { dataDir, watch: false });
  await host.ready();
  const svc = new ChangeService({ host, settings: () => withDefaults(settings), saveDelayMs: 10 });
  await svc.start();
  return { vault, dataDir, host, svc };
}

async function close(e: Env): Promise<void> {
  await e.svc.stop();
  await e.host.close();
}

async function lines(e: Env, since = 'ev:0', limit = 500): Promise<ChangeEvent[]> {
  const r = await e.svc.query({ since, accept: () => true, visible: () => true, limit });
  return r.rows.map((x) => x.event);
}
const brief = (evs: ChangeEvent[]) => evs.map((e) => [e.kind, e.path ?? null, e.by, ...(e.from ? [e.from] : [])]);

test('live events: reset on first start, attribution, touches, moves and deletions with reasons', async () => {
  const e = await open(copyVault(), join(tempDir('vmcp-ch-'), 'data'));
  try {
    await e.svc.baselineDone();
    const first = await lines(e);
    assert.deepEqual(brief(first), [['reset', null, 'server']]);
    assert.match(first[0].reason!, /first start/);

    // A touch (same bytes, new mtime) adds nothing and keeps content_changed.
    const p = 'People/Ada Lovelace.md';
    const before = e.svc.contentChanged(p);
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(e.vault, p), future, future);
    await e.host.refresh(p);
    await e.svc.settle();
    assert.equal((await lines(e, 'ev:1')).length, 0, 'a touch is not a change');
    assert.equal(e.svc.contentChanged(p), before);

    // A human edit, then key-attributed create, modify, move and delete.
    writeFileSync(join(e.vault, p), readFileSync(join(e.vault, p), 'utf8') + '\nMore.\n');
    await e.host.refresh(p);
    e.svc.recordOwn('Inbox.md', 'created', 'agent-a');
    writeFileSync(join(e.vault, 'Inbox.md'), '# Inbox\n');
    await e.host.refresh('Inbox.md');
    const withdraw = e.svc.recordOwn('Welcome.md', 'modified', 'agent-b');
    withdraw(); // the write failed: the record is withdrawn
    writeFileSync(join(e.vault, 'Welcome.md'), '# changed\n');
    await e.host.refresh('Welcome.md');
    e.svc.recordOwn('Archive/Inbox.md', 'moved', 'agent-a', { from: 'Inbox.md' });
    mkdirSync(join(e.vault, 'Archive'));
    renameSync(join(e.vault, 'Inbox.md'), join(e.vault, 'Archive/Inbox.md'));
    await e.host.renamed('Inbox.md', 'Archive/Inbox.md');
    e.svc.recordOwn('CLAUDE.md', 'deleted', 'agent-a', { reason: 'moved to the trash by delete_note' });
    rmSync(join(e.vault, 'CLAUDE.md'));
    await e.host.refresh('CLAUDE.md');
    rmSync(join(e.vault, 'Reference/Obsidian syntax.md'));
    await e.host.refresh('Reference/Obsidian syntax.md');
    // Attachments are not in the feed.
    writeFileSync(join(e.vault, 'Attachments/new.bin'), 'x');
    await e.host.refresh('Attachments/new.bin');
    await e.svc.settle();
    const evs = await lines(e, 'ev:1');
    assert.deepEqual(brief(evs), [
      ['modified', p, 'human'],
      ['created', 'Inbox.md', 'agent-a'],
      ['modified', 'Welcome.md', 'human'],
      ['moved', 'Archive/Inbox.md', 'agent-a', 'Inbox.md'],
      ['deleted', 'CLAUDE.md', 'agent-a'],
      ['deleted', 'Reference/Obsidian syntax.md', 'human'],
    ]);
    assert.equal(evs[4].reason, 'moved to the trash by delete_note');
    assert.match(evs[5].reason!, /outside the server/);
    assert.ok(e.svc.contentChanged(p)! > before!);
    assert.deepEqual(evs.map((x) => x.n), [2, 3, 4, 5, 6, 7]);
    // Paging: next_since resumes exactly; a cursor ahead of the feed answers with a reset line.
    const page = await e.svc.query({ since: 'ev:1', accept: () => true, visible: () => true, limit: 2 });
    assert.deepEqual([page.next_since, page.more], ['ev:3', true]);
    const rest = await e.svc.query({ since: page.next_since, accept: () => true, visible: () => true, limit: 50 });
    assert.deepEqual(rest.rows.map((r) => r.event.n), [4, 5, 6, 7]);
    assert.deepEqual([rest.next_since, rest.more], ['ev:7', false]);
    const ahead = await e.svc.query({ since: 'ev:99', accept: () => true, visible: () => true, limit: 50 });
    assert.deepEqual(ahead.rows.map((r) => [r.event.kind, r.synthetic]), [['reset', true]]);
    assert.equal(ahead.next_since, 'ev:7');
    // A date cursor.
    assert.equal((await lines(e, new Date(Date.now() + 3_600_000).toISOString())).length, 0);
    assert.equal((await lines(e, '2000-01-01')).length, 7);
  } finally {
    await close(e);
  }
});

test('persistence and reconciliation: changes while stopped come back as human lines after a gap', async () => {
  const vault = copyVault();
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  let e = await open(vault, dataDir);
  await e.svc.baselineDone();
  writeFileSync(join(vault, 'Welcome.md'), '# Welcome, edited live\n');
  await e.host.refresh('Welcome.md');
  // A touch (no line): the note's mtime moves on, the time its bytes last changed does not.
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(vault, 'Reference/Obsidian syntax.md'), later, later);
  await e.host.refresh('Reference/Obsidian syntax.md');
  await e.svc.settle();
  const head = e.svc.head();
  assert.equal(head, 2);
  await close(e);
  const before = (await decodeState(readFileSync(join(dataDir, STATE_FILE), 'utf8'))).state!.files.get('Reference/Obsidian syntax.md')!;
  assert.notEqual(before.c, before.m, 'the touch kept the time of the last change');
  assert.ok(readFileSync(join(dataDir, FEED_FILE), 'utf8').split('\n').filter(Boolean).length === 2);

  // While stopped: one edit, one touch, one creation, one deletion, one move (same bytes elsewhere).
  writeFileSync(join(vault, 'People/Grace Hopper.md'), '# Grace, edited offline\n');
  const future = new Date(Date.now() + 120_000);
  utimesSync(join(vault, 'Vault MCP Server.md'), future, future);
  writeFileSync(join(vault, 'New offline.md'), '# new\n');
  rmSync(join(vault, 'CLAUDE.md'));
  renameSync(join(vault, 'Reference/Obsidian syntax.md'), join(vault, 'Obsidian syntax.md'));

  e = await open(vault, dataDir);
  try {
    const evs = await lines(e, `ev:${head}`);
    assert.deepEqual(brief(evs), [
      ['gap', null, 'server'],
      ['moved', 'Obsidian syntax.md', 'human', 'Reference/Obsidian syntax.md'],
      ['created', 'New offline.md', 'human'],
      ['modified', 'People/Grace Hopper.md', 'human'],
      ['deleted', 'CLAUDE.md', 'human'],
    ]);
    assert.match(evs[0].reason!, /not watching/);
    assert.ok(evs[0].gap_from! < evs[0].gap_until!);
    assert.match(evs[4].reason!, /missing at start/);
    assert.equal(evs[0].n, head + 1, 'sequence numbers continue across restarts');

    // The old lines are still there.
    assert.deepEqual(brief(await lines(e, 'ev:0')).slice(0, 2), [['reset', null, 'server'], ['modified', 'Welcome.md', 'human']]);
  } finally {
    await close(e);
  }
  // The moved note keeps the time its bytes last changed (from its old entry), not its mtime.
  const moved = (await decodeState(readFileSync(join(dataDir, STATE_FILE), 'utf8'))).state!.files.get('Obsidian syntax.md')!;
  assert.deepEqual([moved.m, moved.c], [before.m, before.c]);

  // A restart with nothing changed adds no lines.
  e = await open(vault, dataDir);
  const h2 = e.svc.head();
  await close(e);
  e = await open(vault, dataDir);
  try {
    assert.equal(e.svc.head(), h2);
  } finally {
    await close(e);
  }

  // Losing the state file: a reset line, history kept.
  rmSync(join(dataDir, STATE_FILE));
  e = await open(vault, dataDir);
  try {
    const last = (await lines(e, `ev:${h2}`));
    assert.deepEqual(brief(last), [['reset', null, 'server']]);
    assert.match(last[0].reason!, /missing/);
  } finally {
    await close(e);
  }
  // A corrupt state file: also a reset.
  writeFileSync(join(dataDir, STATE_FILE), '{broken');
  e = await open(vault, dataDir);
  try {
    const last = await lines(e, `ev:${h2 + 1}`);
    assert.deepEqual(brief(last), [['reset', null, 'server']]);
    assert.match(last[0].reason!, /corrupt/);
  } finally {
    await close(e);
  }
});

test('retention by count: old lines are dropped and a cursor before them gets a gap line', async () => {
  const vault = copyVault();
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  const settings = { changesMaxEvents: 5 };
  let e = await open(vault, dataDir, settings);
  for (let i = 0; i < 12; i++) {
    // Each version has its own size: two same-size writes within one mtime tick look unchanged to the host.
    writeFileSync(join(vault, 'Welcome.md'), `# v${'i'.repeat(i + 1)}\n`);
    await e.host.refresh('Welcome.md');
    // Wait for the feed to handle this version before writing the next: it hashes the file when it
    // handles the event, and a newer version already on disk would make that event and the next one
    // read as one change.
    await e.svc.settle();
  }
  await e.svc.settle();
  await close(e);
  e = await open(vault, dataDir, settings);
  try {
    assert.equal(e.svc.eventCount(), 5);
    const r = await e.svc.query({ since: 'ev:0', accept: () => true, visible: () => true, limit: 50 });
    assert.equal(r.rows[0].synthetic, true);
    assert.equal(r.rows[0].event.kind, 'gap');
    assert.match(r.rows[0].event.reason!, /ev:1…ev:8 were dropped by retention/);
    assert.deepEqual(r.rows.slice(1).map((x) => x.event.n), [9, 10, 11, 12, 13]);
    const ok = await e.svc.query({ since: 'ev:8', accept: () => true, visible: () => true, limit: 50 });
    assert.ok(!ok.rows.some((x) => x.synthetic), 'a cursor right before the oldest kept line has no gap');
    const byDate = await e.svc.query({ since: '2000-01-01', accept: () => true, visible: () => true, limit: 50 });
    assert.equal(byDate.rows[0].event.kind, 'gap');
    assert.equal(readFileSync(join(dataDir, FEED_FILE), 'utf8').split('\n').filter(Boolean).length, 5);
  } finally {
    await close(e);
  }
});

test('get_changes over HTTP: by me/agents/human, kinds, folder, paging, confined keys', async () => {
  const vault = copyVault();
  const rt = await startTestRuntime(vault);
  const c = await connect(rt.url, rt.rwKey);
  const { raw } = await rt.rt.keys.add({ name: 'people-only', scope: 'read', root: 'People' });
  const confined = await connect(rt.url, raw);
  try {
    const svc = rt.rt.deps.services.changes as ChangeService;
    await svc.settle();
    svc.recordOwn('People/Ada Lovelace.md', 'modified', 'test-rw');
    writeFileSync(join(vault, 'People/Ada Lovelace.md'), '# Ada, by the key\n');
    await rt.host.refresh('People/Ada Lovelace.md');
    svc.recordOwn('People/New.md', 'created', 'other-agent');
    writeFileSync(join(vault, 'People/New.md'), '# new\n');
    await rt.host.refresh('People/New.md');
    writeFileSync(join(vault, 'Welcome.md'), '# human edit\n');
    await rt.host.refresh('Welcome.md');
    mkdirSync(join(vault, 'Archive'));
    renameSync(join(vault, 'People/Grace Hopper.md'), join(vault, 'Archive/Grace Hopper.md'));
    await rt.host.renamed('People/Grace Hopper.md', 'Archive/Grace Hopper.md');

    const all = (await call(c, 'get_changes', { since: 'ev:0' })).structuredContent!;
    assert.deepEqual(all.changes.map((x: { kind: string; by: string; cursor: string }) => [x.cursor, x.kind, x.by]), [
      ['ev:1', 'reset', 'server'], ['ev:2', 'modified', 'test-rw'], ['ev:3', 'created', 'other-agent'], ['ev:4', 'modified', 'human'], ['ev:5', 'moved', 'human'],
    ]);
    assert.equal(all.next_since, 'ev:5');
    const q = async (args: Record<string, unknown>) => (await call(c, 'get_changes', { since: 'ev:1', ...args })).structuredContent!.changes.map((x: { cursor: string }) => x.cursor);
    assert.deepEqual(await q({ by: 'me' }), ['ev:2']);
    assert.deepEqual(await q({ by: 'agents' }), ['ev:2', 'ev:3']);
    assert.deepEqual(await q({ by: 'human' }), ['ev:4', 'ev:5']);
    assert.deepEqual(await q({ kinds: ['created', 'moved'] }), ['ev:3', 'ev:5']);
    assert.deepEqual(await q({ folder: 'Archive' }), ['ev:5'], 'a move matches by either end');
    assert.deepEqual(await q({ folder: 'People' }), ['ev:2', 'ev:3', 'ev:5']);
    const p1 = (await call(c, 'get_changes', { since: 'ev:0', limit: 2 })).structuredContent!;
    assert.deepEqual([p1.next_since, p1.more], ['ev:2', true]);
    const p2 = (await call(c, 'get_changes', { since: p1.next_since, limit: 2, by: 'human' })).structuredContent!;
    assert.deepEqual(p2.changes.map((x: { cursor: string }) => x.cursor), ['ev:4', 'ev:5']);
    assert.match(textOf(await call(c, 'get_changes', { since: 'ev:0' })), /next_since: ev:5/);
    // The confined key: the move out of People/ reads as a deletion; Welcome is invisible.
    const seen = (await call(confined, 'get_changes', { since: 'ev:0' })).structuredContent!.changes;
    assert.deepEqual(seen.map((x: { kind: string; path?: string }) => [x.kind, x.path ?? null]), [
      ['reset', null], ['modified', 'People/Ada Lovelace.md'], ['created', 'People/New.md'], ['deleted', 'People/Grace Hopper.md'],
    ]);
    const ahead = await call(c, 'get_changes', { since: 'ev:500' });
    assert.equal(ahead.structuredContent!.changes[0].kind, 'reset');
    assert.equal(ahead.structuredContent!.changes[0].cursor, undefined);
    assert.equal(refusalCode(await call(c, 'get_changes', { since: 'ev:1', kinds: ['gap'] })), 'invalid_argument');
  } finally {
    await c.close();
    await confined.close();
    await rt.stop();
  }
});

test('write tools attribute their changes over MCP: me / agents / human, moves with from, failed writes leave nothing', async () => {
  const vault = copyVault();
  const rt = await startTestRuntime(vault, { requireHashForDestructive: false });
  const a = await connect(rt.url, rt.rwKey); // key "test-rw"
  const { raw } = await rt.rt.keys.add({ name: 'agent-b', scope: 'readwrite' });
  const b = await connect(rt.url, raw);
  type Row = { cursor: string | null; kind: string; path?: string; from?: string; by: string; reason?: string };
  const feed = async (client: typeof a, by: string) => ((await call(client, 'get_changes', { since: 'ev:1', by, limit: 200 })).structuredContent!.changes as Row[])
    .map((x) => [x.kind, x.path ?? null, x.by, ...(x.from ? [x.from] : [])]);
  try {
    const svc = rt.rt.deps.services.changes as ChangeService;
    await svc.settle();
    const ok = (r: Awaited<ReturnType<typeof call>>) => { assert.ok(!r.isError, textOf(r)); return r.structuredContent!; };
    // Key A: create, edit (append), a move that rewrites links in two other notes.
    ok(await call(a, 'create_note', { path: 'Inbox.md', content: '# Inbox\n' }));
    ok(await call(a, 'edit_note', { path: 'Inbox.md', content: 'first item', append: true }));
    const mv = ok(await call(a, 'move_note', { from_path: 'People/Grace Hopper.md', to_path: 'Archive/Grace B Hopper.md', rewrite_links: true }));
    assert.deepEqual([...mv.links.notes].sort(), ['Projects/Website Relaunch.md', 'Welcome.md']);
    // Key B: properties, a binary file (not a note: not in the feed), a delete to the trash.
    ok(await call(b, 'set_frontmatter', { path: 'People/Ada Lovelace.md', updates: { reviewed: true } }));
    ok(await call(b, 'write_file', { path: 'Attachments/b.txt', content: 'hello', encoding: 'text' }));
    ok(await call(b, 'delete_note', { path: 'CLAUDE.md' }));
    // Failed and empty writes withdraw their record: the human edits right after are the human's.
    const stale = await call(a, 'edit_note', { path: 'Daily/2026-11-30.md', content: 'x', expected_hash: `sha256:${'0'.repeat(64)}` });
    assert.equal(refusalCode(stale), 'stale_precondition');
    writeFileSync(join(vault, 'Daily/2026-11-30.md'), '# Daily, edited by hand\n');
    await rt.host.refresh('Daily/2026-11-30.md');
    const same = ok(await call(b, 'set_frontmatter', { path: 'People/Ada Lovelace.md', updates: { reviewed: true } }));
    assert.equal(same.changed, false);
    writeFileSync(join(vault, 'People/Ada Lovelace.md'), '# Ada, edited by hand\n');
    await rt.host.refresh('People/Ada Lovelace.md');
    await svc.settle();

    const all = (await call(a, 'get_changes', { since: 'ev:1', limit: 200 })).structuredContent!.changes as Row[];
    const rows = all.map((x) => [x.kind, x.path ?? null, x.by, ...(x.from ? [x.from] : [])]);
    // The two link rewrites come in the order the notes were visited; compare them as a set.
    const rewrites = rows.slice(3, 5).sort();
    assert.deepEqual([...rows.slice(0, 3), ...rewrites, ...rows.slice(5)], [
      ['created', 'Inbox.md', 'test-rw'],
      ['modified', 'Inbox.md', 'test-rw'],
      ['moved', 'Archive/Grace B Hopper.md', 'test-rw', 'People/Grace Hopper.md'],
      ['modified', 'Projects/Website Relaunch.md', 'test-rw'],
      ['modified', 'Welcome.md', 'test-rw'],
      ['modified', 'People/Ada Lovelace.md', 'agent-b'],
      ['deleted', 'CLAUDE.md', 'agent-b'],
      ['modified', 'Daily/2026-11-30.md', 'human'],
      ['modified', 'People/Ada Lovelace.md', 'human'],
    ]);
    assert.match(all.find((x) => x.path === 'Welcome.md')!.reason!, /links rewritten after moving "People\/Grace Hopper\.md"/);
    assert.match(all.find((x) => x.kind === 'deleted')!.reason!, /moved to the trash by the key "agent-b"/);
    // The same feed through each key's filters.
    const mine = await feed(a, 'me');
    assert.equal(mine.length, 5);
    assert.ok(mine.every((r) => r[2] === 'test-rw'));
    assert.deepEqual(await feed(b, 'me'), [['modified', 'People/Ada Lovelace.md', 'agent-b'], ['deleted', 'CLAUDE.md', 'agent-b']]);
    const agents = await feed(b, 'agents');
    assert.equal(agents.length, 7, 'key B sees key A\'s writes as agents');
    assert.ok(agents.some((r) => r[2] === 'test-rw') && !agents.some((r) => r[2] === 'human'));
    assert.deepEqual(await feed(a, 'human'), [['modified', 'Daily/2026-11-30.md', 'human'], ['modified', 'People/Ada Lovelace.md', 'human']]);
  } finally {
    await a.close();
    await b.close();
    await rt.stop();
  }
});

test('state saves land in order: an older snapshot never overwrites a newer one (the restart-flake root cause)', async () => {
  const vault = copyVault();
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  const host = new NodeHost(vault, { dataDir, watch: false });
  await host.ready();
  // Long save delay: only the explicit saves below write the state file.
  const svc = new ChangeService({ host, settings: () => withDefaults({}), saveDelayMs: 3_600_000 });
  await svc.start();
  await svc.baselineDone();
  // Hold the next state write until released, as a slow fsync would.
  const store = host.data as { write: (n: string, b: Uint8Array | string | readonly string[]) => Promise<void> };
  const realWrite = store.write.bind(store);
  let release!: () => void;
  const gate = new Promise<void>((r) => { release = r; });
  let hold = true;
  store.write = async (name, bytes) => {
    if (name === STATE_FILE && hold) { hold = false; await gate; }
    return realWrite(name, bytes);
  };
  const save = () => (svc as unknown as { saveState(): Promise<void> }).saveState();
  try {
    const first = save(); // snapshot before the edit; its write is held
    writeFileSync(join(vault, 'Welcome.md'), '# Welcome, a new size\n');
    await host.refresh('Welcome.md');
    await svc.settle();
    const second = save(); // must land after the first, with the edit in it
    release();
    await Promise.all([first, second]);
    const st = (await decodeState(readFileSync(join(dataDir, STATE_FILE), 'utf8'))).state!;
    assert.equal(st.files.get('Welcome.md')!.s, host.stat('Welcome.md')!.size, 'the state file holds the newest snapshot');
  } finally {
    store.write = realWrite;
    await svc.stop();
    await host.close();
  }
});

test('the saved state: v2 lines round-trip in slices; a v1 file is still read (then rewritten as v2); damage is refused', async () => {
  const files = new Map<string, NoteState>();
  for (let i = 0; i < 20000; i++) files.set(`F${i % 7}/Note "${i}" ünï.md`, noteState(1700000000000 + i, i * 3, i % 2 ? `sha256:${i}` : null, 1600000000000 + i));
  const header = { seq: 42, saved: 1700000000999, pruned_before_t: 5, pruned_before_n: 6 };
  const parts = await encodeState(header, files);
  // The save hands each part on as it is made, before it reads the next notes (not all made first).
  let read = 0;
  const counted = { *[Symbol.iterator]() { for (const e of files) { read++; yield e; } } };
  const readAtEmit: number[] = [];
  const emitted: string[] = [];
  await emitState(header, counted, async (part) => { readAtEmit.push(read); emitted.push(part); await Promise.resolve(); });
  assert.equal(emitted.join(''), parts.join(''));
  assert.equal(readAtEmit[1], 2048, `the first part of notes was handed on after ${readAtEmit[1]} of ${files.size} notes`);
  assert.ok(parts.length > 2 && parts.every((x) => x.endsWith('\n') && x.length < 1 << 20), 'parts of whole lines, none of them the whole file');
  const text = parts.join('');
  assert.ok(text.startsWith('{"v":2,'));
  assert.equal(text.split('\n').length, files.size + 2, 'a header line, one line per note, a final newline');
  const back = (await decodeState(text)).state!;
  assert.deepEqual({ ...back, files: undefined }, { ...header, files: undefined });
  assert.deepEqual(new Map(back.files), files); // the state is sharded: its order is not the file's
  // As the service reads it: decoded in parts that end at line ends, never joined into one string.
  const inParts = await decodeUtf8Lines(new TextEncoder().encode(text));
  assert.ok(inParts.length > 1, 'the file is read in parts');
  const back2 = (await decodeState(inParts)).state!;
  assert.deepEqual({ ...back2, files: undefined }, { ...header, files: undefined });
  assert.deepEqual(new Map(back2.files), files);
  // And as it reads it since: each part decoded when the reader gets to it.
  const back3 = (await decodeState(utf8LinePieces(new TextEncoder().encode(text)))).state!;
  assert.deepEqual({ ...back3, files: undefined }, { ...header, files: undefined });
  assert.deepEqual(new Map(back3.files), files);
  assert.match((await decodeState(utf8LinePieces(new TextEncoder().encode(text.slice(0, text.length - 40))))).problem ?? '', /corrupt/);
  // The key kept for each path is the one `keyOf` gives (the service's: the host's own string).
  const keyed = (await decodeState(text, (p) => `kept:${p}`)).state!;
  assert.deepEqual([...keyed.files.keys()].sort(), [...files.keys()].map((p) => `kept:${p}`).sort());
  assert.match((await decodeState(await decodeUtf8Lines(new TextEncoder().encode(text.slice(0, text.length - 40))))).problem ?? '', /corrupt/);
  // The change feed the same way: its parts parse to what the whole text parses to, bad lines counted.
  const events: ChangeEvent[] = Array.from({ length: 15000 }, (_, i) => ({ n: i + 1, t: 1700000000000 + i, kind: 'modified', path: `F/ü ${i}.md`, by: 'human' }) as unknown as ChangeEvent);
  const feed = feedText(events) + 'not json\n' + feedText([events[3]]);
  const feedParts = await decodeUtf8Lines(new TextEncoder().encode(feed));
  assert.ok(feedParts.length > 1);
  assert.deepEqual(await parseFeedParts(feedParts, async () => undefined), await parseFeedParts([feed], async () => undefined));
  // And as the service reads it: each piece decoded when the parse gets to it.
  assert.deepEqual(await parseFeedParts(utf8LinePieces(new TextEncoder().encode(feed)), async () => undefined), await parseFeedParts([feed], async () => undefined));
  const v1 = JSON.stringify({ v: 1, ...header, files: Object.fromEntries([...files].map(([p, s]) => [p, [s.m, s.s, s.h, s.c]])) });
  assert.deepEqual(new Map((await decodeState(v1)).state!.files), files);
  assert.match((await decodeState(text.slice(0, text.length - 40))).problem ?? '', /corrupt/);
  assert.match((await decodeState('{"v":3,"seq":1}')).problem ?? '', /unknown format/);
  assert.match((await decodeState('not json')).problem ?? '', /corrupt/);
});

test('a state save asked for while the start is still filling the state (in slices) writes nothing partial', async () => {
  const vault = join(tempDir('vmcp-ch-big-'), 'vault');
  for (let f = 0; f < 3; f++) mkdirSync(join(vault, `F${f}`), { recursive: true });
  const N = 9000;
  for (let i = 0; i < N; i++) writeFileSync(join(vault, `F${i % 3}`, `N${i}.md`), `# N${i}\n`);
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  for (const round of ['first start', 'restart']) {
    const host = new NodeHost(vault, { dataDir, watch: false });
    await host.ready();
    const svc = new ChangeService({ host, settings: () => withDefaults({}), saveDelayMs: 3_600_000 });
    const store = host.data as { write: (n: string, b: WriteBody) => Promise<void> };
    const realWrite = store.write.bind(store);
    const written: number[] = [];
    store.write = async (name, body) => {
      if (name !== STATE_FILE) return realWrite(name, body);
      const bytes = await bodyBytes(body);
      written.push((await decodeState(new TextDecoder().decode(bytes))).state!.files.size);
      return realWrite(name, bytes);
    };
    // Saves asked for at every timer turn while the start runs (as the save timer could fire).
    let starting = true;
    const save = () => (svc as unknown as { saveState(): Promise<void> }).saveState();
    const poke = () => { if (!starting) return; void save(); setTimeout(poke, 0); };
    setTimeout(poke, 0);
    await svc.start();
    starting = false;
    // A start that found nothing changed saves later (when the vault is quiet): saved here instead.
    if (round === 'restart') { assert.equal(written.length, 0, 'an unchanged vault\'s state is not rewritten at start'); await save(); }
    assert.ok(written.length >= 1, `${round}: the state was saved`);
    assert.deepEqual(written.filter((n) => n !== N), [], `${round}: every state written holds all ${N} notes (${written.join(', ')})`);
    await svc.stop();
    await host.close();
  }
});

/** The bytes a DataStore.write body stands for (a writer function is run into a buffer). */
async function bodyBytes(body: WriteBody): Promise<Uint8Array> {
  if (typeof body === 'string') return new TextEncoder().encode(body);
  if (body instanceof Uint8Array) return body;
  if (typeof body !== 'function') return new TextEncoder().encode(body.join(''));
  const pieces: Uint8Array[] = [];
  await body(async (piece) => { pieces.push(piece.slice()); });
  return Buffer.concat(pieces);
}

test('a start that finds the vault as saved rewrites the state later, when quiet; one that finds a change saves at once', async () => {
  const vault = join(tempDir('vmcp-ch-quiet-'), 'vault');
  mkdirSync(vault, { recursive: true });
  writeFileSync(join(vault, 'a.md'), 'alpha\n');
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  const first = await open(vault, dataDir);
  await close(first);
  const savedAt = (bytes: Uint8Array | null) => JSON.parse(new TextDecoder().decode(bytes!).split('\n')[0]).saved as number;
  const before = savedAt(readFileSync(join(dataDir, STATE_FILE)));
  await new Promise((r) => setTimeout(r, 20));
  for (const changed of [false, true]) {
    if (changed) writeFileSync(join(vault, 'b.md'), 'beta\n');
    const host = new NodeHost(vault, { dataDir, watch: false });
    await host.ready();
    const svc = new ChangeService({ host, settings: () => withDefaults({}), saveDelayMs: changed ? 3_600_000 : 50 });
    const store = host.data as { write: (n: string, b: WriteBody) => Promise<void> };
    const realWrite = store.write.bind(store);
    let writes = 0;
    store.write = (name, body) => { if (name === STATE_FILE) writes++; return realWrite(name, body); };
    await svc.start();
    if (changed) {
      assert.equal(writes, 1, 'a start that found a change saves the state before it is done');
      assert.ok(savedAt(await host.data.read(STATE_FILE)) > before);
    } else {
      assert.equal(writes, 0, 'an unchanged vault\'s state is not rewritten during the start');
      assert.equal(savedAt(await host.data.read(STATE_FILE)), before);
      const end = Date.now() + 10_000;
      while (savedAt(await host.data.read(STATE_FILE)) === before && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      assert.equal(writes, 1, 'the state is rewritten once the save delay has passed');
      assert.ok(savedAt(await host.data.read(STATE_FILE)) > before, 'with its new time');
    }
    await svc.stop();
    await host.close();
  }
});

/** Moves the vault's one note between a.md and b.md `times` times (a line each); returns where it is. */
async function moveBackAndForth(e: Env, at: string, times: number): Promise<string> {
  for (let i = 0; i < times; i++) {
    const to = at === 'a.md' ? 'b.md' : 'a.md';
    renameSync(join(e.vault, at), join(e.vault, to));
    await e.host.renamed(at, to);
    at = to;
  }
  return at;
}

test('retention by count in a flood: the list is trimmed at 10 % over the limit, the file rewritten only at twice the limit', async () => {
  const vault = tempDir('vmcp-ch-flood-');
  writeFileSync(join(vault, 'a.md'), '# A note moved back and forth\n');
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  const settings = { changesMaxEvents: 100 };
  let e = await open(vault, dataDir, settings);
  let rewrites = 0;
  const write = e.host.data.write.bind(e.host.data);
  e.host.data.write = (name, ...rest) => { if (name === FEED_FILE) rewrites++; return write(name, ...rest); };
  // The feed's own flush, as its 20 ms timer runs it: called here so each batch is one append.
  const flush = () => (e.svc as unknown as { flushLines(): Promise<void> }).flushLines();
  let at = 'a.md';
  try {
    await e.svc.baselineDone();
    await flush();
    for (let batch = 0; batch < 20; batch++) {
      at = await moveBackAndForth(e, at, 50);
      await e.svc.settle();
      await flush();
      assert.ok(e.svc.eventCount() <= 100 * 1.1 + 50, `batch ${batch}: ${e.svc.eventCount()} lines listed`);
    }
    // 1,000 lines in batches of 50: rewritten at 10 % over the limit (+50), the file was made again every
    // other batch (9 times); at twice the limit (+50), every fourth.
    assert.ok(rewrites >= 1 && rewrites <= 5, `${rewrites} rewrites of the feed file`);
    const listed = await lines(e, 'ev:0', 500);
    assert.equal(listed[0].kind, 'gap', 'the dropped lines are reported');
    const ns = listed.slice(1).map((x) => x.n);
    assert.deepEqual(ns, ns.map((_, i) => ns[0] + i), 'the newest lines, none missing');
    assert.equal(ns.at(-1), e.svc.head());
  } finally {
    await close(e);
  }
  const fileLines = readFileSync(join(dataDir, FEED_FILE), 'utf8').split('\n').filter(Boolean).length;
  assert.ok(fileLines >= 100 && fileLines <= 2 * 100 + 50 + 50, `${fileLines} lines in the file before the restart`);
  e = await open(vault, dataDir, settings);
  try {
    assert.equal(e.svc.eventCount(), 100, 'a start keeps the newest 100');
    const kept = await lines(e, 'ev:0', 500);
    assert.equal(kept.at(-1)!.kind, 'moved');
    assert.equal(kept.at(-1)!.path, at);
    assert.equal(readFileSync(join(dataDir, FEED_FILE), 'utf8').split('\n').filter(Boolean).length, 100);
  } finally {
    await close(e);
  }
});

test('feed lines for an append or a rewrite are made in slices of the app\'s thread, and equal the lines made in one go', async () => {
  const evs: ChangeEvent[] = Array.from({ length: 1500 }, (_, i) => ({ n: i + 1, t: 1_700_000_000_000 + i, kind: 'moved', path: `New/N${i}.md`, from: `Old/N${i}.md`, by: 'human' }));
  assert.equal((await feedPartsInTurns(evs)).join(''), feedText(evs));
  // A part ends when its slice's time is spent, however few lines that is (the clock is read every 32
  // lines): on a clock where each reading is 3 ms later, a slice of 8 ms ends at the third reading.
  // The lines of 40k events waiting for one append were made in one go: 61 ms in a profiled 100k-note rename.
  let timerRan = false;
  setTimeout(() => { timerRan = true; }, 0);
  let now = 0;
  const slow = await feedPartsInTurns(evs, new Slicer(() => (now += 3)));
  assert.equal(slow.join(''), feedText(evs));
  assert.ok(timerRan, 'other work ran between the parts');
  // (The turn's shared budget, on the real clock, may end one sooner on a loaded machine.)
  const sizes = slow.map((p) => p.split('\n').length - 1);
  assert.ok(sizes.every((n) => n <= 96) && sizes.filter((n) => n === 96).length >= 10, `parts of ${sizes.join(', ')} lines`);
});

test('lines dropped from the list but still in the file (it is rewritten only at twice the limit) stay dropped after a restart', async () => {
  const vault = tempDir('vmcp-ch-pruned-');
  writeFileSync(join(vault, 'a.md'), '# A note moved back and forth\n');
  const dataDir = join(tempDir('vmcp-ch-'), 'data');
  let e = await open(vault, dataDir, { changesMaxEvents: 1000 });
  let at = 'a.md';
  try {
    await e.svc.baselineDone();
    at = await moveBackAndForth(e, at, 30);
    await e.svc.settle();
  } finally {
    await close(e);
  }
  const head = e.svc.head();
  // As a run leaves it after trimming its list in memory: the saved state says where the list starts,
  // and the file still holds the lines before it.
  const state = (await decodeState(readFileSync(join(dataDir, STATE_FILE), 'utf8'))).state!;
  const from = head - 9;
  writeFileSync(join(dataDir, STATE_FILE), (await encodeState({ ...state, pruned_before_n: from }, state.files)).join(''));
  assert.ok(readFileSync(join(dataDir, FEED_FILE), 'utf8').split('\n').filter(Boolean).length > 20);
  e = await open(vault, dataDir, { changesMaxEvents: 1000 });
  try {
    const listed = await lines(e, 'ev:0', 500);
    assert.equal(listed[0].kind, 'gap');
    assert.deepEqual(listed.slice(1).map((x) => x.n), Array.from({ length: 10 }, (_, i) => from + i), 'only the lines the last run still listed');
    assert.equal(readFileSync(join(dataDir, FEED_FILE), 'utf8').split('\n').filter(Boolean).length, 10, 'the file rewritten without them');
  } finally {
    await close(e);
  }
});
