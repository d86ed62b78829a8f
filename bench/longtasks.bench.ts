// Long tasks through the plugin path (`npm run bench longtasks`): the BUILT main.js with the fake obsidian
// (test/plugin/harness.ts) on the Obsidian Hub vault and on a generated vault of 100k notes, with
// bench/loop-probe.ts measuring every event-loop block while the plugin does:
//   first build   load on a vault without plugin data, until every index is ready and one query of each
//                 kind has answered (keyword: a word, two words, a phrase; backlinks, tasks, orphans, changes)
//   warm load     unload, then load again on the data the first run left
//   save          one note modified as the editor saves it, until indexes are fresh and a search sees it
//   burst         1,000 notes modified back to back (a sync client, a git pull), until fresh again
//   rename        the biggest top-level folder renamed (Hub: 54 % of the notes; generated: all of them)
// Target: no block over 50 ms (the browser's long-task line). The fake app's own work (its link
// resolution, parsing, stats and handlers: the real app's work, not the plugin's) and the bench's own
// start of the burst's writes are excluded from the blocks they fall in; each phase prints how much.
// Flags: --only hub|generated, --notes N (generated vault size, default 100000).
// LONGTASKS_SNAPSHOT=DIR writes heap snapshots of the app alone and of the app with the plugin's
// indexes built (first build); `node bench/heap-diff.mjs BARE PLUGIN` says what the plugin added.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { writeHeapSnapshot } from 'node:v8';
import { performance } from 'node:perf_hooks';
import * as fake from '../test/plugin/fake-obsidian/index.js';
import { indexesSettled, installPlugin, loadPluginClass, PLUGIN_DIR, type LoadedPlugin } from '../test/plugin/harness.js';
import { Worker } from 'node:worker_threads';
import { indexStatuses } from '../src/services/indexReport.js';
import type { ServerDeps } from '../src/mcp/tool.js';
import { LoopProbe, formatPauses, formatStats, type BlockStats } from './loop-probe.js';

const argv = process.argv.slice(2);
const arg = (n: string) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : undefined; };
const ONLY = arg('--only') ?? process.env.LONGTASKS_ONLY;
const NOTES = Number(arg('--notes') ?? process.env.LONGTASKS_NOTES) || 100_000;
const SHARED = join(import.meta.dirname, '../../shared');

type Plugin = LoadedPlugin & { runtime: { deps: ServerDeps; server: { url: string } } | null; createKey(n: string, s: string): Promise<string> };

// ---- vaults ----

function hubSource(): string | null {
  const archive = join(SHARED, 'fixtures/vaults/obsidian-hub.tar.gz');
  if (!existsSync(archive)) return null;
  const dir = join(tmpdir(), 'vmcp-longtasks-hub-src');
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', archive, '-C', dir]);
    writeFileSync(join(dir, '.complete'), '');
  }
  return join(dir, 'obsidian-hub');
}

/** N notes under Notes/ in 100 folders: prose from a fixed vocabulary, ~6 links, tags, frontmatter, tasks. */
function generatedSource(n: number): string {
  const dir = join(tmpdir(), `vmcp-longtasks-gen-${n}`);
  if (existsSync(join(dir, '.complete'))) return join(dir, 'vault');
  rmSync(dir, { recursive: true, force: true });
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const words = 'vault note link graph search index task project meeting plan draft review garden recipe travel budget reading book paper idea daily weekly archive client design server query token model embed chunk folder tag alias heading section river mountain city coffee music film sport health code build test deploy release bug feature'.split(' ');
  const text = (k: number) => Array.from({ length: k }, () => words[Math.floor(Math.pow(rnd(), 1.7) * words.length)]).join(' ');
  for (let f = 0; f < 100; f++) mkdirSync(join(dir, 'vault/Notes', `F${f}`), { recursive: true });
  for (let i = 0; i < n; i++) {
    const links = Array.from({ length: 6 }, (_, k) => { const t = Math.floor(Math.pow(rnd(), 2.5) * n); return k === 5 && rnd() < 0.3 ? `[[Missing ${t}]]` : `[[Note ${t}]]`; });
    const tasks = i % 5 === 0 ? `\n## Tasks\n- [ ] ${text(5)} 📅 2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}\n- [x] ${text(4)} ✅ 2026-01-01\n` : '';
    writeFileSync(join(dir, 'vault/Notes', `F${i % 100}`, `Note ${i}.md`), `---\ntags: [t${i % 50}]\nstatus: ${i % 3 ? 'open' : 'done'}\n---\n# Note ${i}\n\n${text(40)} ${links.join(' ')} #topic${i % 30}\n\n## Details\n${text(60)}\n${tasks}`);
  }
  writeFileSync(join(dir, '.complete'), '');
  return join(dir, 'vault');
}

function freshCopy(src: string, label: string): string {
  const dst = join(tmpdir(), `vmcp-longtasks-run-${label}`);
  rmSync(dst, { recursive: true, force: true });
  cpSync(src, dst, { recursive: true });
  return dst;
}

// ---- the plugin ----

/**
 * The fake app on `vault`, with its own work reported to the probe as not the plugin's: its link
 * resolution, its parsing (the real app parses in a worker), a write's stat and the handlers it
 * registered itself, and a rename's moves. The plugin's listeners, which the app calls inside those
 * tasks, stay counted (timed at each call: a listener the app did not register itself).
 */
function makeApp(vault: string, probe: LoopProbe): fake.App {
  const app = new fake.App(vault);
  type Emitter = { _handlers: Map<string, unknown[]>; tryTrigger(ref: unknown, args: unknown[]): void };
  const emitters = [app.vault, app.metadataCache, app.workspace] as unknown as Emitter[];
  const appsOwn = new Set(emitters.flatMap((e) => [...e._handlers.values()].flat()));
  let pluginMs = 0;
  // Only the outermost piece of the app's work is reported (a nested one is inside its interval).
  let inAppWork = 0;
  const appWork = <T>(fn: () => T): T => {
    if (inAppWork) return fn();
    const t = performance.now();
    const p = pluginMs;
    inAppWork++;
    try { return fn(); } finally {
      inAppWork--;
      const end = performance.now();
      probe.exclude(t, end, end - t - (pluginMs - p));
    }
  };
  for (const e of emitters) {
    const call = e.tryTrigger.bind(e);
    e.tryTrigger = (ref, args) => {
      if (appsOwn.has(ref)) { appWork(() => call(ref, args)); return; }
      const t = performance.now();
      call(ref, args);
      const end = performance.now();
      pluginMs += end - t;
      probe.listener(t, end);
    };
  }
  // Private in the fake's types; replaced at run time like the listeners above.
  type Methods = Record<string, (...a: unknown[]) => unknown>;
  for (const [obj, name] of [[app.metadataCache, 'computeLinks'], [app.metadataCache, 'parse'], [app.vault, 'refreshStat']] as const) {
    const m = obj as unknown as Methods;
    const own = m[name].bind(obj);
    m[name] = (...a) => appWork(() => own(...a));
  }
  const rename = app.vault.rename.bind(app.vault);
  app.vault.rename = async (f, to) => {
    const p = pluginMs;
    inAppWork++; // the whole task is reported below
    try { await rename(f, to); } finally { inAppWork--; }
    const [t, end] = app.vault.lastRenameTask!;
    probe.exclude(t, end, end - t - (pluginMs - p));
    console.log(`  the app's rename task: ${(end - t).toFixed(0)} ms, of it the plugin's listeners ${(pluginMs - p).toFixed(1)} ms`);
  };
  return app;
}

/** Starts the bench's own writes (a sync client's, not the plugin's work): that loop is reported as not the plugin's. */
function startWrites(probe: LoopProbe, writes: () => Promise<void>[]): Promise<void[]> {
  const t = performance.now();
  const all = writes();
  probe.exclude(t, performance.now());
  return Promise.all(all);
}

async function loadPlugin(vault: string, app: fake.App): Promise<Plugin> {
  const dir = join(vault, PLUGIN_DIR);
  const Cls = loadPluginClass(dir);
  const manifest = { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), dir: PLUGIN_DIR } as fake.PluginManifest;
  const plugin = new Cls(app, manifest) as Plugin;
  await plugin.load();
  await plugin.ready;
  if (plugin.state.kind !== 'on') throw new Error(`plugin did not start: ${JSON.stringify(plugin.state)}`);
  return plugin;
}

/** Until the host has every note's metadata and every index reports ready with nothing pending. */
async function settled(app: fake.App, plugin: Plugin, what: string): Promise<void> {
  const end = Date.now() + 30 * 60_000;
  let told = Date.now();
  for (;;) {
    await app.metadataCache.settled();
    const deps = plugin.runtime!.deps;
    if (indexesSettled(deps)) return;
    const st = indexStatuses(deps);
    if (Date.now() > end) throw new Error(`${what}: not settled: ${JSON.stringify(st)}`);
    if (Date.now() - told > 15_000) { told = Date.now(); console.log(`  (${what}: waiting; host pending ${deps.host.pendingCount()}; ${st.map((s) => `${s.name} ${s.state} ${s.indexed}/${s.pending}`).join(', ')})`); }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One query of each index kind (a lazily built index is built by its first query). */
async function queries(plugin: Plugin, key: string, note: string, word: string): Promise<void> {
  try { await queriesOrThrow(plugin, key, note, word); } catch (e) { problems.push(String((e as Error).message).slice(0, 400)); console.log(`  PROBLEM: ${problems.at(-1)}`); }
}

const problems: string[] = [];

/** V8's full collection (--expose-gc), when exposed. */
const gc = (globalThis as { gc?: () => void }).gc;

/** A full (major) collection's pause and the heap it leaves: median of five forced ones (--expose-gc). */
function fullCollection(): { ms: number; mb: number } | null {
  if (!gc) return null;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) { const t = performance.now(); gc(); times.push(performance.now() - t); }
  times.sort((a, b) => a - b);
  return { ms: times[2], mb: process.memoryUsage().heapUsed / 2 ** 20 };
}
const heaps: { vault: string; bare: { ms: number; mb: number }; withPlugin: { ms: number; mb: number } }[] = [];

/** With LONGTASKS_STALL_MS, the stacks bench/stall-stacks.ts took of blocks longer than that. */
async function printStalls(label: string, probe: LoopProbe): Promise<void> {
  if (!probe.stall) return;
  const stacks = await probe.stall.stacks();
  console.log(`\n${label}: stacks of blocks over ${process.env.LONGTASKS_STALL_MS} ms:`);
  const phaseOf = (t: number) => probe.phases.filter(([, start]) => start <= t).at(-1) ?? ['?', t];
  for (const s of stacks) console.log(`  ${phaseOf(s.blockStartedAt)[0]}, block from ${((s.blockStartedAt - phaseOf(s.blockStartedAt)[1]) / 1000).toFixed(2)} s, stack at +${s.stalledMs} ms:\n${s.frames.map((f) => `    ${f}`).join('\n')}`);
  if (!stacks.length) console.log('  (none)');
  await probe.stall.close();
}

/**
 * With LONGTASKS_HEAP_SAMPLE=DIR, V8's sampling heap profiler over the rename phase, counting what a
 * minor collection would have freed out: what is left is what reached the old generation (promoted or
 * allocated there) and was collected by a major collection or is still alive. Written to DIR as a
 * .heapprofile (DevTools' Memory tab, or bench/heap-sites.mjs). LONGTASKS_HEAP_LIVE=1 counts only what is
 * still alive when sampling stops: the difference from a run without it is what was promoted and died.
 */
async function heapSampling(what: string): Promise<((name: string) => Promise<void>) | null> {
  const dir = process.env.LONGTASKS_HEAP_SAMPLE;
  if (!dir) return null;
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024, includeObjectsCollectedByMajorGC: !process.env.LONGTASKS_HEAP_LIVE, includeObjectsCollectedByMinorGC: false } as never);
  return async (name) => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.heapprofile`), JSON.stringify(profile));
    session.disconnect();
    console.log(`  ${what}: heap sampling written to ${join(dir, `${name}.heapprofile`)}`);
  };
}

/** With LONGTASKS_HEAP_PHASE set to this phase, heap sampling over its first LONGTASKS_HEAP_SECONDS
 *  (default 3): where the early long blocks of a build or a load are. */
async function sampleEarly(phase: string, label: string): Promise<void> {
  if (process.env.LONGTASKS_HEAP_PHASE !== phase) return;
  const stop = await heapSampling(phase);
  if (stop) setTimeout(() => void stop(`${label}-${phase.replace(' ', '-')}`), 1000 * Number(process.env.LONGTASKS_HEAP_SECONDS ?? 3));
}

/** The MCP client's thread (bench/mcp-client-worker.mjs), started at the first query. */
let clientThread: Worker | null = null;

async function queriesOrThrow(plugin: Plugin, key: string, note: string, word: string): Promise<void> {
  if (!clientThread) { clientThread = new Worker(new URL('./mcp-client-worker.mjs', import.meta.url)); clientThread.unref(); }
  const calls: [string, Record<string, unknown>][] = [
    ['keyword_search', { query: word, limit: 5 }],
    // Two words in most notes (and in every title of the generated vault), and the same as a phrase: the
    // query's passes over every candidate (title bonus, phrase checks) are in the blocks measured too.
    ['keyword_search', { query: 'vault note', limit: 5 }],
    ['keyword_search', { query: '"vault note"', limit: 5 }],
    ['get_backlinks', { path: note, limit: 5 }],
    ['list_tasks', { limit: 5 }],
    ['find_orphans', { limit: 5 }],
    ['get_changes', { since: '2000-01-01', limit: 5 }],
  ];
  const thread = clientThread;
  const answer = await new Promise<{ ok: boolean; error?: string; results?: { tool: string; isError: boolean; found: number | null; text: string }[] }>((resolve, reject) => {
    thread.once('message', (m) => { thread.off('error', reject); resolve(m); });
    thread.once('error', reject);
    thread.postMessage({ url: plugin.runtime!.server.url, key, calls });
  });
  if (!answer.ok) throw new Error(answer.error);
  for (const r of answer.results!) if (r.isError) throw new Error(`${r.tool}: ${r.text}`);
  if (!answer.results![0].found) throw new Error(`keyword_search "${word}" found nothing`);
}

/** The vault's notes outside dot-folders. */
const notesOf = (app: fake.App) => app.vault.getMarkdownFiles().filter((f) => !f.path.startsWith('.'));
/** The path of the middle note by path order: the note each phase edits and queries. */
function middleNote(app: fake.App): string {
  const paths = notesOf(app).map((f) => f.path).sort();
  return paths[Math.floor(paths.length / 2)];
}

async function runVault(label: string, src: string, bigFolder: string): Promise<BlockStats[]> {
  const vault = freshCopy(src, label);
  installPlugin(vault, { port: 0, serverEnabled: true });
  const out: BlockStats[] = [];
  const probe = new LoopProbe();
  console.log(`\n${label}: ${readdirSync(vault).length} top-level entries; building the fake app's metadata cache (not measured)…`);

  let app = makeApp(vault, probe);
  // Only the path is kept: a TFile held across the warm load kept the first app (650 MB at 100k notes)
  // alive through every later phase, so their collections ran over a heap the app never has.
  const note = middleNote(app);
  const word = 'vault';

  const bare = fullCollection();
  if (process.env.LONGTASKS_SNAPSHOT) writeHeapSnapshot(join(process.env.LONGTASKS_SNAPSHOT, `${label}-bare.heapsnapshot`));
  await sampleEarly('first build', label);
  probe.begin('first build');
  let plugin = await loadPlugin(vault, app);
  const key = await plugin.createKey('bench', 'readwrite');
  await settled(app, plugin, 'first build');
  await queries(plugin, key, note, word);
  out.push(probe.end());
  console.log(formatStats(out.at(-1)!));
  const withPlugin = fullCollection();
  if (process.env.LONGTASKS_SNAPSHOT) writeHeapSnapshot(join(process.env.LONGTASKS_SNAPSHOT, `${label}-plugin.heapsnapshot`));
  if (bare && withPlugin) {
    heaps.push({ vault: label, bare, withPlugin });
    console.log(`  full collection (gc(), median of 5): the fake app alone ${bare.ms.toFixed(0)} ms over ${bare.mb.toFixed(0)} MB; with the plugin's indexes ${withPlugin.ms.toFixed(0)} ms over ${withPlugin.mb.toFixed(0)} MB`);
  }

  // As the app does: unload() returns at once; the plugin's stop (the indexes' last saves) finishes later.
  // A warm load is the next launch, so it starts once that stop is done (else it rebuilds what was not saved yet).
  plugin.unload();
  await plugin.unloaded;
  const firstApp = new WeakRef(app);
  // Let go of the first plugin before the next one loads (it holds the first app; the real app keeps
  // neither once a plugin is unloaded): held until the assignment below, it kept 650 MB more heap at
  // 100k notes through the warm load, and with it the external memory that starts V8's marking.
  plugin = undefined as unknown as Plugin;
  // A warm load is an app launch: a fresh process, with none of the first instance's garbage to collect
  // (its typed arrays freed by V8's sweeper in the warm load's first allocations). Collected here, unmeasured.
  gc?.();
  await new Promise((r) => setTimeout(r, 200));
  app = makeApp(vault, probe);
  await sampleEarly('warm load', label);
  probe.begin('warm load');
  plugin = await loadPlugin(vault, app);
  await settled(app, plugin, 'warm load');
  await queries(plugin, key, note, word);
  out.push(probe.end());
  console.log(formatStats(out.at(-1)!));

  out.push(...await changePhases({
    app, probe, note, bigFolder,
    settle: (what) => settled(app, plugin, what),
    ask: (path, w) => queries(plugin, key, path, w),
    sampleRename: (process.env.LONGTASKS_HEAP_PHASE ?? 'folder rename') === 'folder rename' ? () => heapSampling('folder rename') : undefined,
    label,
  }));

  plugin.unload();
  await plugin.unloaded;
  // Nothing may keep the first app (neither the bench nor the plugin): the phases after the warm load
  // would collect over both heaps (650 MB more at 100k notes), which the app never has.
  gc?.();
  if (firstApp.deref()) problems.push(`${label}: the first app was still reachable after the warm load`);
  rmSync(vault, { recursive: true, force: true });
  await printStalls(label, probe);
  return out;
}

/**
 * The phases that change the vault: save, burst, rename. `settle` waits for what they started, `ask`
 * queries after each (the plugin run: one query of each kind; the app alone: nothing).
 */
async function changePhases(c: {
  app: fake.App; probe: LoopProbe; note: string; bigFolder: string; label: string;
  settle(what: string): Promise<void>; ask(path: string, word: string): Promise<void>;
  sampleRename?: () => Promise<((name: string) => Promise<void>) | null>;
}): Promise<BlockStats[]> {
  const { app, probe, note, bigFolder } = c;
  const out: BlockStats[] = [];
  const notes = () => notesOf(app);
  const file = app.vault.getFileByPath(note)!;
  probe.begin('save');
  await app.vault.modify(file, `${await app.vault.read(file)}\nEdited with zanzibarword.\n`);
  await c.settle('save');
  await c.ask(note, 'zanzibarword');
  out.push(probe.end());
  console.log(formatStats(out.at(-1)!));

  const current = notes().sort((a, b) => (a.path < b.path ? -1 : 1));
  const burst = current.filter((_, i) => i % Math.max(1, Math.floor(current.length / 1000)) === 0).slice(0, 1000);
  const texts = await Promise.all(burst.map((f) => app.vault.read(f)));
  probe.begin('1,000-note burst');
  // All at once, as a sync client or a git pull lands them: the app sees 1,000 modify events in a row.
  await startWrites(probe, () => burst.map((f, i) => app.vault.modify(f, `${texts[i]}\nBurst edit ${i} quokkaword.\n`)));
  await c.settle('burst');
  await c.ask(note, 'quokkaword');
  out.push(probe.end());
  console.log(formatStats(out.at(-1)!));

  const folder = app.vault.getFolderByPath(bigFolder)!;
  const moved = notes().filter((f) => f.path.startsWith(`${bigFolder}/`)).length;
  const sampling = (await c.sampleRename?.()) ?? null;
  probe.begin('folder rename');
  await app.vault.rename(folder, `${bigFolder} (renamed)`);
  await c.settle('rename');
  await sampling?.(`${c.label}-rename`);
  const movedNote = note.startsWith(`${bigFolder}/`) ? `${bigFolder} (renamed)/${note.slice(bigFolder.length + 1)}` : note;
  await c.ask(movedNote, 'vault');
  out.push(probe.end());
  console.log(formatStats(out.at(-1)!), `(${moved} notes moved)`);
  return out;
}

/**
 * The reference: the same save, burst and rename on the fake app with no plugin, so the collection
 * pauses the app's own heap and work cause are measured in the same run as the plugin's.
 */
async function runAppAlone(label: string, src: string, bigFolder: string): Promise<BlockStats[]> {
  const vault = freshCopy(src, `${label}-alone`);
  const probe = new LoopProbe();
  console.log(`\n${label}, the app alone (reference; no plugin): building the fake app's metadata cache (not measured)…`);
  const app = makeApp(vault, probe);
  await app.metadataCache.settled();
  const out = await changePhases({ app, probe, note: middleNote(app), bigFolder, label: `${label}-alone`, settle: () => app.metadataCache.settled(), ask: async () => undefined });
  rmSync(vault, { recursive: true, force: true });
  return out;
}

async function main(): Promise<void> {
  const all: Record<string, BlockStats[]> = {};
  const alone: Record<string, BlockStats[]> = {};
  if (ONLY !== 'generated') {
    const hub = hubSource();
    if (!hub) console.log('Hub vault: skipped (../shared/fixtures/vaults/obsidian-hub.tar.gz is not present)');
    else {
      alone['Hub (6,571 notes)'] = await runAppAlone('hub', hub, '02 - Community Expansions');
      gc?.();
      all['Hub (6,571 notes)'] = await runVault('hub', hub, '02 - Community Expansions');
    }
  }
  if (ONLY !== 'hub') {
    const t = performance.now();
    const gen = generatedSource(NOTES);
    console.log(`(generated vault of ${NOTES} notes ready in ${Math.round(performance.now() - t)} ms)`);
    const v = `generated (${NOTES.toLocaleString('en-US')} notes)`;
    alone[v] = await runAppAlone(`gen${NOTES}`, gen, 'Notes');
    gc?.();
    all[v] = await runVault(`gen${NOTES}`, gen, 'Notes');
  }
  // Wall: how long the loop could not turn. CPU: of that, the main thread's own time on a CPU (the rest
  // is the OS running other processes; on a busy shared machine wall figures are inflated).
  // Without GC: the longest block's CPU less the collections V8 reported in it (they collect the whole
  // heap, the app's objects with ours; at 100k notes one can take 50–150 ms).
  console.log('\n| vault | phase | longest block, wall / main-thread CPU (of it GC) | longest block without GC | p99 loop delay | blocks > 50 ms, wall / CPU | total |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [v, rows] of Object.entries(all)) {
    for (const r of rows) console.log(`| ${v} | ${r.label} | ${r.longestMs.toFixed(0)} / ${r.longestCpuMs.toFixed(0)} ms (${r.gcInLongestMs.toFixed(0)}) | ${r.longestCpuLessGcMs.toFixed(0)} ms | ${r.eldP99Ms.toFixed(0)} ms | ${r.over50} / ${r.over50Cpu} | ${(r.totalMs / 1000).toFixed(2)} s |`);
  }
  // A collection's pause grows with the live heap: the app's objects and the plugin's indexes alike.
  for (const h of heaps) console.log(`\n${h.vault}: a forced full collection pauses ${h.bare.ms.toFixed(0)} ms over the fake app's ${h.bare.mb.toFixed(0)} MB heap alone, ${h.withPlugin.ms.toFixed(0)} ms once the plugin's indexes are built (${h.withPlugin.mb.toFixed(0)} MB)`);
  if (process.env.LONGTASKS_BLOCKS) {
    // For bench/long-stacks.mjs --blocks: each long block's window, to read a CPU profile of the same run.
    writeFileSync(process.env.LONGTASKS_BLOCKS, JSON.stringify(Object.entries(all).flatMap(([v, rows]) => rows.flatMap((r) => r.longUs.map(([a, b]) => ({ vault: v, phase: r.label, startUs: a, endUs: b }))))));
  }
  // Which long collections the app's own heap and work make: the same phases with no plugin, same run.
  console.log('\ncollection pauses per phase (perf_hooks gc, wall), the app alone (reference) | with the plugin:');
  for (const [v, rows] of Object.entries(all)) {
    for (const r of rows) {
      const ref = alone[v]?.find((a) => a.label === r.label);
      console.log(`  ${v} / ${r.label}: ${ref ? formatPauses(ref.pauses) : '(no reference: the app alone does nothing here)'} | ${formatPauses(r.pauses)}`);
    }
  }
  console.log('\nblocks over 50 ms of CPU, with the collections in them:');
  for (const [v, rows] of Object.entries(all)) for (const r of rows) for (const g of r.longGcs) console.log(`  ${v} / ${r.label} at ${g}`);
  console.log('\nworst blocks per phase (ms after the phase began → length):');
  for (const [v, rows] of Object.entries(all)) for (const r of rows) console.log(`  ${v} / ${r.label}: ${r.worst.map(([a, l]) => `${(a / 1000).toFixed(2)} s → ${l.toFixed(0)} ms`).join(', ')}`);
  if (problems.length) throw new Error(`problems (the figures above are not valid):\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
