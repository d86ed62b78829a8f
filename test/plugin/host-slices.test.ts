// The in-app host and the graph, kept fast for the UI thread (issue 15, no task over 50 ms): the host's
// file list is maintained from vault events instead of walking the vault at every call, and must stay
// exactly what a fresh walk gives through creates, edits, deletes and file and folder renames; the graph
// builds in slices that yield (GraphService.prepare) and ends equal to a synchronous full build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/vault.js';
import * as fake from './fake-obsidian/index.js';
import { beforeRun } from '../../src/mcp/callGuard.js';
import { ObsidianHost } from '../../src/host/obsidian/obsidianHost.js';
import { GraphService } from '../../src/graph/service.js';
import { LinkGraph } from '../../src/graph/linkGraph.js';
import { TaskService } from '../../src/tasks/service.js';
import { FileList } from '../../src/host/obsidian/fileList.js';
import type { App } from 'obsidian';
import type { LinkRowMap } from '../../src/host/port.js';

function hostOn(vault: string, clock?: () => number) {
  const app = new fake.App(vault);
  const owner = new fake.Component();
  void owner.load();
  const host = new ObsidianHost({
    app: app as unknown as App,
    manifest: { id: 'vault-mcp-server', dir: '.obsidian/plugins/vault-mcp-server' },
    register: (ref) => owner.registerEvent(ref as unknown as fake.EventRef),
    classes: { TFile: fake.TFile as never, TFolder: fake.TFolder as never },
    clock,
  });
  return { app, host };
}

function vaultOf(n: number): string {
  const vault = join(tempDir('vmcp-slices-'), 'vault');
  for (let f = 0; f < 5; f++) mkdirSync(join(vault, `F${f}`), { recursive: true });
  mkdirSync(join(vault, '.obsidian'), { recursive: true });
  writeFileSync(join(vault, '.obsidian/app.json'), '{}');
  for (let i = 0; i < n; i++) writeFileSync(join(vault, `F${i % 5}`, `N${i}.md`), `# N${i}\n[[N${(i * 7) % n}]] [[N${(i * 3 + 1) % n}]] [[Missing ${i % 9}]]\n`);
  return vault;
}

/** What the host's files() must equal: a fresh walk of the vault (dot-folders out), stats as they are now. */
function walk(app: fake.App): string[] {
  return app.vault.getFiles().filter((f) => !f.path.split('/').some((c) => c.startsWith('.'))).map((f) => `${f.path}|${f.stat.size}|${f.stat.mtime}`).sort();
}
const listed = (host: ObsidianHost) => host.files().map((f) => `${f.path}|${f.size}|${f.mtime}`).sort();

/** A clock that runs 1 ms per reading: the host's event work is over its slice after a few events, so
 *  whatever the app reports in one task is applied and delivered in later slices (a real clock would
 *  only do that on a slow machine or a big vault). */
const fastClock = () => { let t = 0; return () => (t += 1); };

for (const [label, clock] of [['', undefined], [' (events applied and delivered in slices)', fastClock()]] as const) test(`host.files() and noteCount() kept from events equal a fresh walk through edits, creates, deletes and file and folder renames${label}`, async () => {
  const { app, host } = hostOn(vaultOf(60), clock);
  await host.ready();
  // noteCount() (what every status poll asks) must always equal the notes of a fresh walk.
  const notes = () => walk(app).filter((x) => /\.md\|/i.test(x)).length;
  const check = (what: string) => { assert.deepEqual(listed(host), walk(app), what); assert.equal(host.noteCount(), notes(), `noteCount: ${what}`); };
  check('at start');
  await app.vault.create('F1/data.txt', 'x');
  await app.vault.rename(app.vault.getFileByPath('F1/data.txt')!, 'F1/Data.md');
  await app.vault.rename(app.vault.getFileByPath('F1/N6.md')!, 'F1/N6.txt');
  check('a .txt renamed to .md and a note renamed to .txt');
  const a = host.files();
  a.pop();
  assert.equal(host.files().length, a.length + 1, 'callers get a copy they may change');

  const f = app.vault.getFileByPath('F1/N1.md')!;
  await app.vault.modify(f, '# N1 grown\n'.repeat(50));
  assert.deepEqual(listed(host), walk(app), 'a modify updates that file\'s size and time');
  await app.vault.create('F2/New.md', '# New\n');
  await app.vault.createFolder('G/H');
  await app.vault.create('G/H/Deep.md', '# Deep\n');
  await app.vault.create('.obsidian/hidden.md', '# hidden\n').catch(() => undefined);
  assert.deepEqual(listed(host), walk(app), 'creates, dot-folder files left out');
  await app.vault.rename(app.vault.getFileByPath('F2/New.md')!, 'F3/Renamed.md');
  await app.vault.delete(app.vault.getFileByPath('F4/N4.md')!);
  check('a file renamed and one deleted');
  await app.vault.rename(app.vault.getFolderByPath('F0')!, 'G/F0 moved');
  check('a folder renamed: every file under it moves');
  await app.vault.createFolder('K');
  await app.vault.rename(app.vault.getFolderByPath('G')!, 'K/G2');
  assert.deepEqual(listed(host), walk(app), 'a folder with folders in it renamed: the app reports each folder, the list moves once');
  await app.vault.rename(app.vault.getFolderByPath('K/G2')!, 'G');
  await app.vault.delete(app.vault.getFolderByPath('G')!);
  check('a folder deleted with everything in it');
  await app.vault.create('F3/Again.md', '# Again\n');
  await app.vault.delete(app.vault.getFileByPath('F3/N3.md')!);
  check('a create and a delete after the rebuild');
  assert.ok(!host.files().some((x) => x.path.startsWith('G/')));
});

const edges = (g: LinkGraph) => g.sources().flatMap((s) => [...g.outgoing(s)].map(([t, n]) => `${s}>${t}:${n}`)).sort();
const dangling = (g: LinkGraph) => g.unresolvedSources().flatMap((s) => [...g.unresolvedOf(s)].map(([t, n]) => `${s}>${t}:${n}`)).sort();

test('GraphService.prepare builds in slices that yield, and its graph equals a synchronous full build', async () => {
  const { app, host } = hostOn(vaultOf(800));
  await host.ready();
  await app.metadataCache.settled();
  // A clock that runs 1 ms per reading: every slice is over its budget after a few rows, so the build
  // yields many times (a real clock would yield only on a slow machine).
  let t = 0;
  const svc = new GraphService(host, () => (t += 1));
  let turns = 0;
  let spinning = true;
  const spin = () => { if (spinning) { turns++; setTimeout(spin, 0); } };
  setTimeout(spin, 0);
  await svc.prepare();
  spinning = false;
  assert.ok(turns > 5, `the event loop turned during the build (${turns} timer turns)`);
  const ref = LinkGraph.build(host.resolvedLinks(), host.unresolvedLinks());
  const g = svc.get();
  assert.equal(svc.get(), g, 'get() after prepare() does no more work: the same graph');
  assert.deepEqual(edges(g), edges(ref));
  assert.deepEqual(dangling(g), dangling(ref));
  assert.ok(edges(g).length > 800);

  // Edits (re-parsed rows) and a structural change, then prepare again: still equal to a full build.
  await app.vault.modify(app.vault.getFileByPath('F1/N1.md')!, '# N1\n[[N2]] [[N2]] [[Nowhere]]\n');
  await app.vault.rename(app.vault.getFileByPath('F2/N7.md')!, 'F3/N7 renamed.md');
  await app.metadataCache.settled();
  await svc.prepare();
  const after = LinkGraph.build(host.resolvedLinks(), host.unresolvedLinks());
  assert.deepEqual(edges(svc.get()), edges(after));
  assert.deepEqual(dangling(svc.get()), dangling(after));
  assert.ok(edges(after).includes('F1/N1.md>F2/N2.md:2'));

  // A confined view prepared in slices is what scoped(root) serves.
  await svc.prepare('F3');
  const scoped = svc.scoped('F3');
  assert.equal(svc.scoped('F3'), scoped, 'cached');
  // Every link of an F3 note leads out of F3 (vaultOf): inside the view none resolves, all dangle.
  assert.equal(scoped.graph.edgeCount(), 0);
  assert.deepEqual(scoped.graph.sources(), []);
  const f3 = scoped.graph.unresolvedSources();
  assert.equal(f3.length, 161, 'its 160 notes and the one renamed into it');
  assert.ok(f3.every((p) => p.startsWith('F3/')));
  assert.equal(scoped.graph.unresolvedOf('F3/N3.md').get('N21'), 1);
});

test('the app\'s link maps are read through views, not copied: a row changed after they were taken shows in them', async () => {
  const { app, host } = hostOn(vaultOf(300));
  await host.ready();
  await app.metadataCache.settled();
  const mc = app.metadataCache;
  const maps = host.linkRows();
  const asRecord = (m: LinkRowMap) => Object.fromEntries([...m.keys()].map((k) => [k, m.get(k)]));
  assert.deepEqual(asRecord(maps.resolved), mc.resolvedLinks);
  assert.deepEqual(asRecord(maps.unresolved), mc.unresolvedLinks);
  const first = Object.keys(mc.resolvedLinks)[0];
  assert.equal(maps.resolved.get(first), mc.resolvedLinks[first], 'an all-ASCII row is the app\'s own object');
  assert.deepEqual(host.resolvedLinks(), mc.resolvedLinks, 'the plain-object copy');
  assert.equal(host.resolvedLinks(), host.resolvedLinks(), 'kept until an event drops it');

  // A note's links change after the views were taken (a copy made before would still hold the old row).
  await app.vault.modify(app.vault.getFileByPath(first)!, '# changed\n[[N1]] [[N1]] [[N1]]\n');
  await mc.settled();
  assert.deepEqual(maps.resolved.get(first), { 'F1/N1.md': 3 }, 'the view reads the row as it is now');
  assert.deepEqual(host.resolvedLinks()[first], { 'F1/N1.md': 3 }, 'the plain-object copy was dropped by the change');
});

for (const [label, clock] of [['', undefined], [' (events delivered in slices)', fastClock()]] as const) test(`a folder rename moves the task rows with the notes, without reading a note again${label}`, async () => {
  const vault = vaultOf(40);
  for (let i = 0; i < 40; i += 4) writeFileSync(join(vault, `F${i % 5}`, `N${i}.md`), `# N${i}\n- [ ] task of ${i}\n- [x] done ${i}\n`);
  const { app, host } = hostOn(vault, clock);
  await host.ready();
  const tasks = new TaskService(host);
  await tasks.start();
  assert.equal(await tasks.settle(5000), true);
  const before = tasks.notesWithTasks();
  assert.ok(before >= 5);
  const rowsBefore = tasks.ofNote('F0/N0.md');
  let reads = 0;
  const readText = host.readText.bind(host);
  host.readText = (p: string) => { reads++; return readText(p); };
  await app.vault.rename(app.vault.getFolderByPath('F0')!, 'Moved');
  await app.metadataCache.settled();
  assert.equal(await tasks.settle(5000), true);
  assert.equal(reads, 0, 'no note was read again for a move');
  assert.equal(tasks.notesWithTasks(), before);
  const moved = tasks.ofNote('Moved/N0.md');
  assert.equal(moved.length, 2, 'both of its tasks moved with it');
  assert.equal(moved, rowsBefore, 'the rows moved as they were, not copied (a 100k-note move copied 40k rows)');
  assert.deepEqual(tasks.ofNote('F0/N0.md'), []);
  await tasks.stop();
});

/** Until the host has delivered every queued event (pendingCount counts them). */
/** The app then reports a folder moved or deleted under `folder` by the folder's event alone (none for
 *  what is under it); null reports everything again. */
function reportOnlyFolders(app: fake.App): (folder: string | null) => void {
  const trigger = app.vault.trigger.bind(app.vault);
  let dropUnder: string | null = null;
  app.vault.trigger = (name: string, ...data: unknown[]) => {
    const f = data[0] as fake.TAbstractFile;
    const old = name === 'rename' ? (data[1] as string) : f.path;
    if (dropUnder !== null && old.startsWith(`${dropUnder}/`)) return;
    trigger(name, ...data);
  };
  return (folder) => { dropUnder = folder; };
}

async function drained(host: ObsidianHost): Promise<void> {
  while (host.pendingCount() > 0) await new Promise((r) => setTimeout(r, 5));
}

test('a folder rename reported in one task of the app reaches listeners in later slices, in the app\'s order; pending until then, files() current at once', async () => {
  const { app, host } = hostOn(vaultOf(300), fastClock());
  await host.ready();
  await app.metadataCache.settled();
  await drained(host);
  // What the app reports, in its order (a listener on the app itself, registered before the rename).
  const expected: string[] = [];
  app.vault.on('rename', (f: fake.TAbstractFile, old: string) => { if (f instanceof fake.TFile) expected.push(`${old} > ${f.path}`); });
  const got: string[] = [];
  let task = 0;
  let open = false;
  const tasks = new Set<number>();
  host.subscribe((e) => {
    if (!open) { open = true; task++; queueMicrotask(() => { open = false; }); }
    tasks.add(task);
    if (e.type === 'rename') got.push(`${e.oldPath} > ${e.path}`);
  });
  await app.vault.createFolder('K');
  // In the app's own task, once its event slice is spent, the host only records each event (rawEvents.ts):
  // no file-list update is even queued for most of them until a later slice.
  const slices = (host as unknown as { slices: { op: (...a: unknown[]) => void } }).slices;
  const queue = slices.op.bind(slices);
  let opsInAppTask = 0;
  let inAppTask = true;
  slices.op = (...a: unknown[]) => { if (inAppTask) opsInAppTask++; queue(...a); };
  await app.vault.rename(app.vault.getFolderByPath('F0')!, 'K/F0 moved');
  inAppTask = false; // the rename's task is over (nothing the host scheduled has run yet: timers come later)
  assert.equal(expected.length, 60);
  assert.ok(opsInAppTask < 10, `file-list updates made inside the app's task: ${opsInAppTask} of 61 events`);
  assert.ok(got.length < expected.length, `not all delivered in the app's task (${got.length} of ${expected.length})`);
  assert.ok(host.pendingCount() > 0, 'queued events count as pending');
  assert.deepEqual(listed(host), walk(app), 'files() answers the app\'s state while events are still queued');
  await drained(host);
  assert.deepEqual(got, expected, 'every event, once, in the app\'s order');
  assert.ok(tasks.size > 1, `delivered over several tasks (${tasks.size})`);
  // A modify after the burst comes after it, not before.
  const f = app.vault.getFileByPath('K/F0 moved/N0.md')!;
  const after: string[] = [];
  host.subscribe((e) => { if (e.type === 'modify' || e.type === 'rename') after.push(`${e.type} ${e.path}`); });
  await app.vault.rename(app.vault.getFolderByPath('K')!, 'K2');
  await app.vault.modify(app.vault.getFileByPath('K2/F0 moved/N0.md')!, '# N0 edited\n');
  await drained(host);
  assert.equal(after.at(-1), 'modify K2/F0 moved/N0.md');
  assert.equal(after.filter((x) => x.startsWith('rename ')).length, 60);
  assert.equal(f.path, 'K2/F0 moved/N0.md');
  // Nothing asked for files() during that second move: the folder's closing scan waited for the files' own
  // events (recorded, then handled in later slices) and found nothing left to move.
  assert.equal((host as unknown as { fileList: FileList }).fileList.scanMoved, 0, 'the closing scans moved nothing');
  assert.deepEqual(listed(host), walk(app));
});

test('writes that land together, each reported in a callback of its own in one loop turn, share one slice: the rest wait for timer slices, in order', async () => {
  const { app, host } = hostOn(vaultOf(60), fastClock());
  await host.ready();
  await app.metadataCache.settled();
  await drained(host);
  const notes = app.vault.getMarkdownFiles().slice(0, 40);
  const got: string[] = [];
  host.subscribe((e) => { if (e.type === 'modify') got.push(e.path); });
  let timerRan = false;
  setTimeout(() => { timerRan = true; }, 0);
  // As a batch of file-system callbacks runs: one after another with a microtask checkpoint between
  // them (each a task of its own for the host), and no timer in between (that needs the next turn).
  // The files are written first (new content, so the metadata cache reports each change as the app would).
  const vault = app.vault as unknown as { trigger(name: string, ...data: unknown[]): void; refreshStat(f: fake.TFile): void };
  for (const f of notes) { writeFileSync(join(app.vault.basePath, f.path), `# ${f.basename}\nedited\n`); vault.refreshStat(f); }
  for (const f of notes) {
    vault.trigger('modify', f);
    await Promise.resolve();
  }
  assert.equal(timerRan, false, 'still in the same loop turn');
  // The clock runs 1 ms per reading: the turn's 8 ms slice holds a few events, not 40.
  assert.ok(got.length < 10, `delivered in the turn the writes landed in: ${got.length} of ${notes.length}`);
  await drained(host);
  assert.deepEqual(got, notes.map((f) => f.path), 'every event, once, in the app\'s order');
});

test('a tool call after a big move waits until the recorded events are handled in their slices: the files() it makes then has nothing left to handle at once', async () => {
  const { app, host } = hostOn(vaultOf(1000), (() => { let t = 0; return () => (t += 4); })());
  await host.ready();
  await app.metadataCache.settled();
  await drained(host);
  const raw = (host as unknown as { raw: { size: number; drain: (deadline?: number) => void } }).raw;
  const drain = raw.drain.bind(raw);
  let atOnce = 0;
  let sliced = 0;
  raw.drain = (deadline?: number) => { if (deadline === undefined) atOnce++; else sliced++; drain(deadline); };
  await app.vault.rename(app.vault.getFolderByPath('F0')!, 'F0 moved');
  assert.ok(raw.size > 0, 'the move\'s events were recorded');
  // What every tool call and protocol request runs first (mcp/callGuard.ts).
  await beforeRun({ middleware: [], host } as never, {} as never);
  assert.equal(raw.size, 0);
  assert.equal((host as unknown as { slices: { hasOps(): boolean } }).slices.hasOps(), false, 'the file-list updates behind them are applied too');
  assert.ok(sliced > 1, `handled in timer slices (${sliced})`);
  assert.deepEqual(listed(host), walk(app));
  assert.equal(atOnce, 0, 'files() found nothing to handle at once');
});

test('a folder moved or deleted without an event for each file under it: the list still equals a fresh walk', async () => {
  const { app, host } = hostOn(vaultOf(60));
  await host.ready();
  const notes = () => walk(app).filter((x) => /\.md\|/i.test(x)).length;
  host.files();
  // An app that reports only the folder: drop the events of the files and folders under it.
  const dropUnder = reportOnlyFolders(app);
  dropUnder('F1');
  await app.vault.rename(app.vault.getFolderByPath('F1')!, 'F1 moved');
  assert.deepEqual(listed(host), walk(app), 'moved with the folder');
  assert.equal(host.noteCount(), notes());
  dropUnder('F2');
  await app.vault.delete(app.vault.getFolderByPath('F2')!, true);
  assert.deepEqual(listed(host), walk(app), 'dropped with the folder');
  assert.equal(host.noteCount(), notes());
  assert.ok(!host.files().some((x) => x.path.startsWith('F2/')));
});

test('a folder move\'s closing scan of the kept list runs in slices (stops at its deadline, goes on later) and ends as the scan in one go', async () => {
  // 5,000 files under A (the app reports only the folder: the scan finds them all), 100 under B.
  const mk = (path: string) => Object.assign(new fake.TFile(), { path, stat: { size: path.length, mtime: 1, ctime: 1 } });
  const files = [...Array.from({ length: 5000 }, (_, i) => mk(`A/s${i % 7}/N${i}.md`)), ...Array.from({ length: 100 }, (_, i) => mk(`B/N${i}.md`))];
  const isFile = ((f: unknown) => f instanceof fake.TFile) as never;
  const moveA = (list: FileList) => list.apply({ kind: 'rename', file: Object.assign(new fake.TFolder(), { path: 'Z' }), path: 'Z', oldPath: 'A', task: 1 } as never);
  let t = 0;
  const sliced = new FileList(() => files as never, isFile, () => (t += 1));
  const whole = new FileList(() => files as never, isFile, () => 0);
  await Promise.all([sliced.build(), whole.build()]);
  moveA(sliced);
  moveA(whole);
  assert.equal(whole.flushHeld(), true, 'without a deadline it finishes');
  let calls = 1;
  const first = sliced.flushHeld(t);
  assert.equal(first, false, 'a scan of 5,100 entries stops at its deadline');
  assert.ok([...sliced.map().keys()].some((k) => k.startsWith('A/')), 'nothing moved before the scan is over');
  while (!sliced.flushHeld(t + 1)) calls++;
  assert.ok(calls > 2, `went on over several calls (${calls})`);
  const keys = (l: FileList) => [...l.map().keys()].sort();
  assert.deepEqual(keys(sliced), keys(whole));
  assert.equal(keys(sliced).filter((k) => k.startsWith('Z/')).length, 5000);
  assert.equal(sliced.noteCount(), whole.noteCount());
});

test('updates that come while a folder move\'s closing scan is still going on wait for it (a file created at the old path is not moved along)', async () => {
  // 5 ms per clock reading: the scan (a reading per 1,024 entries) passes its slice's deadline.
  let t = 0;
  const { app, host } = hostOn(vaultOf(3000), () => (t += 5));
  await host.ready();
  host.files();
  const dropUnder = reportOnlyFolders(app);
  // The host's closing scan (3,000 entries) must stop at its slice's deadline at least once.
  const list = (host as unknown as { fileList: FileList }).fileList;
  const scan = list.flushHeld.bind(list);
  let stopped = 0;
  list.flushHeld = (deadline?: number) => { const done = scan(deadline); if (!done) stopped++; return done; };
  dropUnder('F1');
  await app.vault.rename(app.vault.getFolderByPath('F1')!, 'F1 moved');
  dropUnder(null);
  await app.vault.createFolder('F1');
  await app.vault.create('F1/New.md', '# New\n');
  await drained(host);
  assert.deepEqual(listed(host), walk(app));
  assert.ok(listed(host).some((x) => x.startsWith('F1/New.md|')), 'the new file stays where it was created');
  assert.equal(listed(host).filter((x) => x.startsWith('F1 moved/')).length, 600);
  assert.ok(stopped > 0, 'the scan went on over several slices');
});

test('close() drops the events still queued: no listener runs after it', async () => {
  const { app, host } = hostOn(vaultOf(100), fastClock());
  await host.ready();
  await drained(host);
  let seen = 0;
  host.subscribe(() => { seen++; });
  await app.vault.rename(app.vault.getFolderByPath('F3')!, 'F3 moved');
  const atClose = seen;
  assert.ok(atClose < 20, `most of the folder's events were queued (${atClose} delivered)`);
  await host.close();
  await new Promise((r) => setTimeout(r, 30));
  assert.equal(seen, atClose);
});

test('a moved file link keeps its judged real location; a moved plain note needs no judgment', async () => {
  const vault = vaultOf(10);
  // A file link inside the vault to a note inside it (absolute target, so it still resolves once moved).
  symlinkSync(join(vault, 'F1/N1.md'), join(vault, 'F2/link.md'));
  const { app, host } = hostOn(vault);
  await host.ready();
  assert.equal(host.realPathOf('F2/link.md'), 'F1/N1.md', 'the survey judged the link');
  await app.vault.rename(app.vault.getFileByPath('F2/link.md')!, 'F3/link moved.md');
  await host.sync('F3/link moved.md');
  assert.equal(host.realPathOf('F3/link moved.md'), 'F1/N1.md', 'the moved link is judged again where it went');
  // A plain note moved while the gate holds a link: still a plain note.
  await app.vault.rename(app.vault.getFileByPath('F4/N4.md')!, 'F3/N4.md');
  assert.equal(host.realPathOf('F3/N4.md'), undefined);
  assert.ok(host.stat('F3/N4.md'));
});

test('isFile (what search filters ask of every candidate) answers exactly as stat does: notes, folders, dot-folders, refused links, gone files', async () => {
  const vault = vaultOf(10);
  mkdirSync(join(vault, '.hidden'), { recursive: true });
  writeFileSync(join(vault, '.hidden/secret.md'), 'x');
  symlinkSync('/etc/passwd', join(vault, 'F2/outside.md'));
  const { app, host } = hostOn(vault);
  await host.ready();
  await app.vault.delete(app.vault.getFileByPath('F3/N3.md')!);
  const paths = ['F1/N1.md', 'F1', '', 'F2/outside.md', '.hidden/secret.md', '.obsidian/app.json', 'F3/N3.md', 'F1/nope.md', 'F1/N1.MD'];
  for (const p of paths) assert.equal(host.isFile(p), host.stat(p) !== null, p);
  assert.equal(host.isFile('F1/N1.md'), true);
  assert.equal(host.isFile('F2/outside.md'), false, 'a link out of the vault is not a file of it');
});

test('the kept file list is built in slices at start; a vault event during the build is not lost; counts meanwhile grow with the build', async () => {
  const { app, host } = hostOn(vaultOf(3000), fastClock());
  await app.metadataCache.settled();
  const ready = host.ready();
  let turns = 0;
  // The build yields to timers: a change lands in the middle of it.
  await new Promise<void>((resolve) => { const spin = () => { if (++turns === 3) resolve(); else setTimeout(spin, 0); }; setTimeout(spin, 0); });
  const during = host.noteCount();
  assert.ok(during > 0 && during < 3000, `while building: the notes the build has seen (${during})`);
  await app.vault.create('F1/arrived during the build.md', 'x');
  await app.vault.delete(app.vault.getFileByPath('F2/N2.md')!);
  await ready;
  // A path created before the start-up survey is done stays hidden until the symlink rule has judged it
  // (realPaths.ts observe), an async check that ready() does not wait for: on a loaded machine it was
  // still pending here. sync() waits for that judgment; it does not touch the file list.
  await host.sync('F1/arrived during the build.md');
  assert.deepEqual(listed(host), walk(app));
  assert.ok(listed(host).some((x) => x.startsWith('F1/arrived during the build.md|')));
  assert.equal(host.noteCount(), 3000);
});

test('events all through the kept file list\'s first build do not restart it: one pass in slices, then their updates in order', async () => {
  // Every clock reading spends a slice's budget, so the build takes a turn per 32 files (about 94): the
  // changes below, each awaiting the fake app's own writes, all land while it runs. With fastClock the
  // build took 7–19 turns depending on how long those writes took, and a loaded CI machine saw it done by the 7th.
  const sliceClock = () => { let t = 0; return () => (t += 8); };
  const { app, host } = hostOn(vaultOf(3000), sliceClock());
  await app.metadataCache.settled();
  const list = (host as unknown as { fileList: FileList }).fileList;
  const collect = (list as unknown as { collect: () => Generator<void, unknown, void> }).collect.bind(list);
  let passes = 0;
  (list as unknown as { collect: () => Generator<void, unknown, void> }).collect = function* () { passes++; const r = yield* collect(); return r; };
  const keptAt: boolean[] = [];
  const ready = host.ready();
  // A change in every timer turn while the build runs: creates, edits, a rename, deletes, a folder move.
  let turn = 0;
  await new Promise<void>((resolve) => {
    const spin = async () => {
      turn++;
      keptAt.push(list.kept);
      if (turn === 2) await app.vault.create(`F1/during ${turn}.md`, 'x');
      if (turn === 3) await app.vault.modify(app.vault.getFileByPath('F3/N3.md')!, 'edited during the build');
      if (turn === 4) await app.vault.rename(app.vault.getFileByPath('F4/N4.md')!, 'F4/N4 renamed.md');
      if (turn === 5) await app.vault.delete(app.vault.getFileByPath('F2/N2.md')!);
      if (turn === 6) await app.vault.rename(app.vault.getFolderByPath('F0')!, 'F0 moved');
      if (turn === 7) await app.vault.create(`F0 moved/during ${turn}.md`, 'y');
      if (turn < 8) setTimeout(() => void spin(), 0); else resolve();
    };
    setTimeout(() => void spin(), 0);
  });
  await ready;
  assert.deepEqual(keptAt.slice(0, 7), [false, false, false, false, false, false, false], 'every change came while the list was being built');
  assert.equal(passes, 1, `one pass over the app's files (${passes})`);
  assert.deepEqual(listed(host), walk(app));
  assert.ok(listed(host).some((x) => x.startsWith('F0 moved/N0.md|')));
  assert.equal(passes, 1, 'files() did not build the list again at once');
});

test('reads: small files read directly from the checked real path, large ones through the app; both equal the disk; a link swapped in refuses', async () => {
  const vault = vaultOf(5);
  const big = `# Big\n${'word '.repeat(70_000)}\n`; // over 256 KB: read through vault.read
  writeFileSync(join(vault, 'F1/big.md'), big);
  const { app, host } = hostOn(vault);
  await host.ready();
  assert.equal(await host.readText('F1/big.md'), big);
  assert.deepEqual(Buffer.from(await host.readBytes('F1/big.md')), Buffer.from(big));
  // Changed on disk behind the app's back: the read sees the disk, not a cached copy.
  writeFileSync(join(vault, 'F1/N1.md'), 'changed outside\n');
  assert.equal(await host.readText('F1/N1.md'), 'changed outside\n');
  assert.deepEqual(Buffer.from(await host.readBytes('F1/N1.md')), Buffer.from('changed outside\n'));
  // The note replaced by a link out of the vault: refused as missing, nothing of the target read.
  const { rmSync } = await import('node:fs');
  rmSync(join(vault, 'F2/N2.md'));
  symlinkSync('/etc/passwd', join(vault, 'F2/N2.md'));
  await assert.rejects(host.readText('F2/N2.md'), /ENOENT/);
  await assert.rejects(host.readBytes('F2/N2.md'), /ENOENT/);
  assert.ok(app.vault.getFileByPath('F2/N2.md'), 'the app still lists it (its watcher has not reported the swap)');
});

test('the first passes at start walk the app\'s folder tree, not its whole file list; a delete inside the folder being walked skips nothing', async () => {
  // getFiles()/getMarkdownFiles() build their whole array in one call: at 100k files a 12-31 ms task of
  // the UI thread (bench/longtasks.bench.ts). The walk copies each folder's children as it enters it: the
  // app may remove a child in place (the fake does), and a walk holding the live array would skip the entry after it.
  const sliceClock = () => { let t = 0; return () => (t += 8); };
  const vault = vaultOf(3000);
  // Folders inside folders: the walk goes down every level.
  mkdirSync(join(vault, 'F1/Deep/Deeper'), { recursive: true });
  writeFileSync(join(vault, 'F1/Deep/Deeper/Deepest note.md'), '# deep\n');
  writeFileSync(join(vault, 'F1/Deep/attachment.txt'), 'x');
  const { app, host } = hostOn(vault, sliceClock());
  await app.metadataCache.settled();
  const whole: string[] = [];
  for (const name of ['getFiles', 'getMarkdownFiles', 'getAllLoadedFiles'] as const) {
    const own = app.vault[name].bind(app.vault);
    // The fake app's own link resolution calls them too: only calls from the plugin's code count.
    app.vault[name] = (() => { if (/[\\/]src[\\/]/.test(new Error().stack ?? '')) whole.push(name); return own(); }) as never;
  }
  const ready = host.ready();
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
  // Each folder's first child, whichever folder the walks are in now (they have passed its first entry).
  const gone = app.vault.getRoot().children.flatMap((c) => (c instanceof fake.TFolder ? [c.children.find((f) => f instanceof fake.TFile)!] : []));
  for (const f of gone) await app.vault.delete(f);
  await ready;
  assert.deepEqual(whole, [], 'no call for the whole list');
  whole.length = 0;
  assert.deepEqual(listed(host), walk(app));
  assert.ok(listed(host).some((x) => x.startsWith('F1/Deep/Deeper/Deepest note.md|')) && listed(host).some((x) => x.startsWith('F1/Deep/attachment.txt|')));
  assert.equal(host.noteCount(), 3001 - gone.length);
  assert.equal(host.pendingCount(), 0);
});
