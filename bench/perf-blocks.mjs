// What filled each long block, native frames included: reads `perf script` output of a longtasks run and
// the blocks its loop probe measured (LONGTASKS_BLOCKS), and splits each block's main-thread samples into
// V8's collector (atomic pauses: scavenges and mark-compacts; incremental marking steps, with what set
// them off; other heap work) and code (the plugin's, the fake app's, Node's, the rest). perf_hooks only
// reports the atomic pauses: a marking step runs inside whatever JS allocated, so the bench's "without
// GC" figures still hold them. Linux only; perf from Debian's linux-perf.
//   VAULT_MCP_NO_MINIFY=1 npm run build    # names in the plugin's frames (rebuild minified after)
//   LONGTASKS_BLOCKS=/tmp/blocks.json LONGTASKS_MS=40 perf record -k CLOCK_MONOTONIC -e cpu-clock -F 997 -g \
//     -o /tmp/lt.perf -- node --perf-basic-prof --expose-gc --max-old-space-size=8192 --import tsx \
//     bench/longtasks.bench.ts --only generated
//   perf script -i /tmp/lt.perf -F tid,time,ip,sym > /tmp/lt.script
//   node bench/perf-blocks.mjs /tmp/lt.script /tmp/blocks.json [--hz 997] [--top 6]
// The probe's windows are in process.hrtime's clock (CLOCK_MONOTONIC), which `-k CLOCK_MONOTONIC` gives perf.
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? Number(args[i + 1]) : d; };
const [scriptFile, blocksFile] = args.filter((a) => !a.startsWith('--') && Number.isNaN(Number(a)));
if (!scriptFile || !blocksFile) { console.error('usage: node bench/perf-blocks.mjs PERF_SCRIPT.txt BLOCKS.json [--hz 997] [--top 6]'); process.exit(1); }
const MS = 1000 / opt('--hz', 997);
const TOP = opt('--top', 6);
const blocks = JSON.parse(readFileSync(blocksFile, 'utf8')).map((b) => ({ ...b, a: b.startUs / 1e6, e: b.endUs / 1e6, n: 0, kinds: new Map(), code: new Map(), steps: new Map() }));

/** A sample's kind: the collector's part it was in, else whose code ran (innermost known frame). */
function kindOf(frames) {
  const has = (s) => frames.some((f) => f.includes(s));
  if (has('Heap::PerformGarbageCollection')) return has('MarkCompactCollector') ? 'collector: mark-compact pause' : 'collector: scavenge pause';
  if (has('IncrementalMarking::') || has('IncrementalMarkingJob') || has('ConcurrentMarking::Join')) {
    const why = has('ReportExternalMemoryPressure') ? 'external memory (an ArrayBuffer allocated)' : has('InvokeAllocationObservers') ? 'allocation' : has('IncrementalMarkingJob') ? 'its own task' : 'other';
    return `collector: marking step, set off by ${why}`;
  }
  if (has('v8::internal::Heap::') || has('Sweeper::') || has('MemoryAllocator::')) return 'collector: other heap work';
  return 'code';
}
const owner = (f) => (f.includes('vault-mcp-server/') ? 'plugin' : f.includes('fake-obsidian/') ? 'fake app' : f.includes('/bench/') ? 'bench' : / node:/.test(f) ? 'node' : null);
const nameOf = (f) => f.replace(/^[0-9a-f]+ /, '').replace(/ \/.*| file:.*| node:.*/, '').replace(/^(LazyCompile|Function|JS): ?[*~^]?/, '').slice(0, 60) || '(anonymous)';
/** Code samples are the plugin's when a plugin frame is on the stack (what it called, Node's loader or
 *  fs included: named by its innermost plugin frame), else the innermost frame whose owner is known. */
function codeOf(frames) {
  const mine = frames.find((f) => owner(f) === 'plugin');
  if (mine) return `plugin: ${nameOf(mine)}`;
  for (const f of frames) { const who = owner(f); if (who) return `${who}: ${nameOf(f)}`; }
  return 'other (runtime, kernel, unnamed)';
}

// perf script: a header line "TID TIME:" then one frame per line, a blank line between samples.
const counts = new Map();
const samples = [];
let cur = null;
for await (const line of createInterface({ input: createReadStream(scriptFile) })) {
  if (!line.trim()) { if (cur) samples.push(cur); cur = null; continue; }
  if (!/^\s/.test(line)) {
    const [tid, time] = line.trim().split(/\s+/);
    counts.set(tid, (counts.get(tid) ?? 0) + 1);
    cur = { tid, t: Number.parseFloat(time), frames: [] };
    continue;
  }
  if (cur) cur.frames.push(line.trim());
}
if (cur) samples.push(cur);
// The main thread: the one with most samples (the bench keeps it busiest).
const main = [...counts.entries()].sort((x, y) => y[1] - x[1])[0]?.[0];
for (const s of samples) {
  if (s.tid !== main) continue;
  const b = blocks.find((x) => s.t >= x.a && s.t <= x.e);
  if (!b) continue;
  b.n++;
  const k = kindOf(s.frames);
  b.kinds.set(k, (b.kinds.get(k) ?? 0) + 1);
  const c = codeOf(s.frames);
  if (k === 'code') b.code.set(c, (b.code.get(c) ?? 0) + 1);
  // A marking step runs inside the code that allocated: whose code that was.
  else if (k.includes('marking step')) b.steps.set(c, (b.steps.get(c) ?? 0) + 1);
}
const ms = (n) => `${(n * MS).toFixed(0)} ms`;
let within = 0;
for (const b of blocks) {
  // Windows that held the fake app's own long work (excluded by the probe) are not the plugin's blocks.
  if (b.e - b.a > 0.4) continue;
  within++;
  const plugin = [...b.code.entries()].filter(([c]) => c.startsWith('plugin')).reduce((s, [, n]) => s + n, 0);
  console.log(`\n${b.vault} / ${b.phase}: ${((b.e - b.a) * 1000).toFixed(0)} ms of wall time, ${ms(b.n)} on the CPU; the plugin's own code ${ms(plugin)}`);
  for (const [k, n] of [...b.kinds.entries()].sort((x, y) => y[1] - x[1])) console.log(`  ${ms(n).padStart(7)}  ${k}`);
  for (const [c, n] of [...b.code.entries()].sort((x, y) => y[1] - x[1]).slice(0, TOP)) console.log(`  ${ms(n).padStart(7)}    ${c}`);
  const steps = [...b.steps.entries()].sort((x, y) => y[1] - x[1]).slice(0, 3);
  if (steps.length) console.log(`  marking steps ran inside: ${steps.map(([c, n]) => `${c} ${ms(n)}`).join('; ')}`);
}
console.log(`\n${within} blocks read (windows over 400 ms, the fake app's excluded work, left out); main thread ${main}, ${MS.toFixed(2)} ms a sample`);
