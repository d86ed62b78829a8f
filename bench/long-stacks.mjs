// Who made the long tasks: reads a V8 .cpuprofile (node --cpu-prof …), finds every stretch where the
// main thread was busy without an idle sample for longer than --ms (default 50), and prints, per
// stretch, the functions with the most inclusive time (the src/ frames first), so a block found by
// bench/longtasks.bench.ts can be traced to its code.
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/longtasks.bench.ts --only hub
//   node bench/long-stacks.mjs /tmp/prof/*.cpuprofile [--ms 50] [--top 8]
// With the blocks the loop probe measured in the same run (LONGTASKS_BLOCKS=/tmp/blocks.json on the
// benchmark), it reads exactly those windows instead of guessing task boundaries from idle samples:
//   node bench/long-stacks.mjs /tmp/prof/X.cpuprofile --blocks /tmp/blocks.json
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? Number(args[i + 1]) : d; };
const LIMIT = opt('--ms', 50);
const TOP = opt('--top', 8);
const file = args.find((a) => a.endsWith('.cpuprofile'));
const blocksAt = args.indexOf('--blocks');
const blocks = blocksAt >= 0 ? JSON.parse(readFileSync(args[blocksAt + 1], 'utf8')) : null;
if (!file) { console.error('usage: node bench/long-stacks.mjs PROFILE.cpuprofile [--ms 50] [--top 8]'); process.exit(1); }
const prof = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const idle = (id) => { const f = nodes.get(id).callFrame.functionName; return f === '(idle)' || f === '(program)' || f === '(garbage collector)' && false; };
const label = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^file:\/\//, '').replace(/.*\/(src|test|bench|node_modules)\//, '$1/');
  return `${f.functionName || '(anonymous)'} ${url}:${f.lineNumber + 1}`;
};

// Busy stretches: consecutive non-idle samples, or (--blocks) the probe's windows.
const runs = [];
let t = prof.startTime;
let cur = null;
const times = [];
for (let i = 0; i < prof.samples.length; i++) {
  t += prof.timeDeltas[i];
  times.push(t);
  const id = prof.samples[i];
  if (blocks) continue;
  if (idle(id)) { if (cur) { runs.push(cur); cur = null; } continue; }
  cur ??= { start: t, end: t, samples: [] };
  cur.end = t;
  cur.samples.push([id, prof.timeDeltas[i + 1] ?? 0]);
}
if (cur) runs.push(cur);
if (blocks) {
  for (const b of blocks) {
    if (b.endUs < prof.startTime || b.startUs > t) continue;
    const r = { start: b.startUs, end: b.endUs, samples: [], what: `${b.vault} / ${b.phase}` };
    for (let i = 0; i < times.length; i++) if (times[i] >= b.startUs && times[i] <= b.endUs && !idle(prof.samples[i])) r.samples.push([prof.samples[i], prof.timeDeltas[i + 1] ?? 0]);
    runs.push(r);
  }
}
// The plugin's share of a stretch: samples with a frame of the plugin bundle (main.js) or src/ on the stack.
const PLUGIN = /\/(main|server(-[a-z0-9]+)?)\.js:/;
for (const r of runs) {
  r.incl = new Map();
  r.other = new Map();
  r.plugin = 0;
  for (const [id, dt] of r.samples) {
    const seen = new Set();
    let mine = false;
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const l = label(nodes.get(n));
      if (seen.has(l)) continue;
      seen.add(l);
      if (PLUGIN.test(l)) { mine = true; r.incl.set(l, (r.incl.get(l) ?? 0) + dt); }
    }
    if (mine) r.plugin += dt;
    else { const l = label(nodes.get(id)); r.other.set(l, (r.other.get(l) ?? 0) + dt); }
  }
}
const long = (blocks ? runs : runs.filter((r) => r.plugin / 1000 > LIMIT)).sort((a, b) => b.plugin - a.plugin);
console.log(blocks ? `${runs.length} of the probe's ${blocks.length} long blocks fall in this profile; most plugin time first:` : `${long.length} busy stretches with over ${LIMIT} ms of plugin code (of ${runs.length}); most plugin time first:`);
for (const r of long.slice(0, 25)) {
  const rows = [...r.incl.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
  console.log(`\n${(r.plugin / 1000).toFixed(0)} ms of plugin code in a ${((r.end - r.start) / 1000).toFixed(0)} ms ${r.what ? `block (${r.what})` : 'stretch'} at +${((r.start - prof.startTime) / 1e6).toFixed(2)} s`);
  for (const [l, us] of rows) console.log(`  ${(us / 1000).toFixed(0).padStart(6)} ms  ${l}`);
  // Outside the plugin (no main.js / server.js frame on the stack): the functions that were running.
  const others = [...r.other.entries()].sort((a, b) => b[1] - a[1]).slice(0, 4).filter(([, us]) => us >= 2000);
  if (others.length) console.log(`  not the plugin's: ${others.map(([l, us]) => `${l} ${(us / 1000).toFixed(0)} ms`).join('; ')}`);
}
