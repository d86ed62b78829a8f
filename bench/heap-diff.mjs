// What a heap grew by, between two V8 heap snapshots (LONGTASKS_SNAPSHOT in longtasks.bench.ts writes
// the app alone and the app with the plugin): bytes and objects per kind of node, then the objects of
// the second snapshot that V8 keeps in dictionary mode or under a hidden class (map) of their own,
// grouped by their first property names. Both were the plugin's per-note records once (test/plugin/hidden-classes.test.ts).
//   node --max-old-space-size=8192 bench/heap-diff.mjs BARE.heapsnapshot PLUGIN.heapsnapshot [--top 30]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const [bareFile, mainFile] = args.filter((a) => a.endsWith('.heapsnapshot'));
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args[topAt + 1]) : 30;
if (!bareFile || !mainFile) { console.error('usage: node bench/heap-diff.mjs BARE.heapsnapshot PLUGIN.heapsnapshot [--top 30]'); process.exit(1); }

function read(file) {
  const s = JSON.parse(readFileSync(file, 'utf8'));
  const m = s.snapshot.meta;
  const N = m.node_fields.length, E = m.edge_fields.length;
  const f = (name) => m.node_fields.indexOf(name), e = (name) => m.edge_fields.indexOf(name);
  const count = s.nodes.length / N;
  const firstEdge = new Uint32Array(count + 1);
  for (let k = 0, at = 0; k < count; k++) { firstEdge[k] = at; at += s.nodes[k * N + f('edge_count')] * E; firstEdge[k + 1] = at; }
  return {
    count, type: (k) => m.node_types[0][s.nodes[k * N + f('type')]], name: (k) => s.strings[s.nodes[k * N + f('name')]] ?? '',
    size: (k) => s.nodes[k * N + f('self_size')],
    *edges(k) {
      for (let j = firstEdge[k]; j < firstEdge[k + 1]; j += E) {
        const type = m.edge_types[0][s.edges[j + e('type')]];
        const name = type === 'element' || type === 'hidden' ? s.edges[j + e('name_or_index')] : s.strings[s.edges[j + e('name_or_index')]];
        yield { type, name, to: s.edges[j + e('to_node')] / N };
      }
    },
  };
}

/** Bytes and objects per "type:name" (strings and numbers by type only). */
function kinds(h) {
  const out = new Map();
  for (let k = 0; k < h.count; k++) {
    const t = h.type(k);
    const key = /string|number/.test(t) ? t : `${t}:${h.name(k).slice(0, 40)}`;
    const v = out.get(key) ?? [0, 0];
    v[0] += h.size(k); v[1]++;
    out.set(key, v);
  }
  return out;
}

const bare = kinds(read(bareFile));
const h = read(mainFile);
const grown = [...kinds(h)].map(([key, [b, n]]) => [key, b - (bare.get(key)?.[0] ?? 0), n - (bare.get(key)?.[1] ?? 0)]);
const mb = (b) => (b / 1e6).toFixed(2).padStart(8);
console.log(`${mb(grown.reduce((a, r) => a + r[1], 0))} MB more in all\n\nby kind of node (MB, objects):`);
for (const [key, b, n] of grown.sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${mb(b)} ${String(n).padStart(9)}  ${key}`);

// Objects per map, and which objects hold a property dictionary.
const perMap = new Map(), about = new Map(), dict = new Map();
for (let k = 0; k < h.count; k++) {
  if (h.type(k) !== 'object') continue;
  const props = [];
  let map = -1, dictBytes = 0;
  for (const ed of h.edges(k)) {
    if (ed.type === 'property') props.push(ed.name);
    else if (ed.name === 'map') map = ed.to;
    else if (ed.name === 'properties' && h.name(ed.to) === '(object properties)') dictBytes = h.size(ed.to);
  }
  const what = `${h.name(k)} {${props.slice(0, 6).join(',').replace(/\d+/g, '#').slice(0, 70)}}`;
  perMap.set(map, (perMap.get(map) ?? 0) + 1);
  if (!about.has(map)) about.set(map, what);
  if (dictBytes) { const v = dict.get(what) ?? [0, 0]; v[0] += dictBytes; v[1]++; dict.set(what, v); }
}
const alone = new Map();
for (const [map, n] of perMap) if (n === 1) alone.set(about.get(map), (alone.get(about.get(map)) ?? 0) + 1);
console.log('\nobjects alone under their map, by first properties (many alike: a hidden class per object):');
for (const [what, n] of [...alone].sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${String(n).padStart(9)}  ${what}`);
console.log('\nobjects with a property dictionary or array out of line (MB of it, objects):');
for (const [what, [b, n]] of [...dict].sort((a, b) => b[1][0] - a[1][0]).slice(0, 10)) console.log(`${mb(b)} ${String(n).padStart(9)}  ${what}`);
