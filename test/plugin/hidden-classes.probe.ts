// Run by hidden-classes.test.ts in a Node started with --allow-natives-syntax: the plugin (built
// main.js, fake app) on the vault given, then V8's own view of the records it keeps per note: are they
// fast-mode objects, and how many hidden classes (maps) do they spread over? Prints one JSON line.
import { indexesSettled, startPlugin, unloadAll } from './harness.js';
import { VectorStore } from '../../src/semantic/store.js';
import type { ServerDeps } from '../../src/mcp/tool.js';

const isFast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many of `objs` are in fast mode, and how many maps they use (counted up to 10). */
function shapes(objs: object[]): { count: number; fast: number; maps: number } {
  const maps: object[] = [];
  for (const o of objs) if (maps.length < 10 && !maps.some((m) => sameMap(m, o))) maps.push(o);
  return { count: objs.length, fast: objs.filter(isFast).length, maps: maps.length };
}

// Layout ready at load (the plugin enabled in a running app): the host builds its file list in one pass,
// the path whose object literal made dictionary-mode objects.
const { plugin } = await startPlugin(process.argv[2], {}, { layoutReady: true });
const deps = (plugin as unknown as { runtime: { deps: ServerDeps } }).runtime.deps;
const changes = deps.services.changes!;
await changes.baselineDone();
for (let i = 0; i < 600 && !indexesSettled(deps); i++) await new Promise((r) => setTimeout(r, 50));
const fileStats = [...(deps.host as unknown as { fileList: { map(): { values(): Iterable<object> } } }).fileList.map().values()];
const noteStates = [...(changes as unknown as { state: { entries(): Iterable<[string, object]> } }).state.entries()].map(([, s]) => s);
const tasks = [...(deps.services.tasks as unknown as { byNote: Map<string, object[]> }).byNote.values()].flat();
// The semantic store's entries, through its own upsert (the plugin's needs a model to fill it).
const store = new VectorStore({ model: 'm#1', dims: 4, chunking: 'heading-v1:max256:ov32' }, 1, { simd: false });
for (let i = 0; i < 500; i++) store.upsert({ path: `n${i}.md`, hash: `sha256:${i}`, mtime: 1.7e12 + i + 0.5, size: 100 + i, chunks: [{ ordinal: null, heading: '', start: 0, end: 10 }] }, new Float32Array([1, 0, 0, 0]));
const vectors = [...store.notes.values()];
console.log(JSON.stringify({ fileStats: shapes(fileStats), noteStates: shapes(noteStates), tasks: shapes(tasks), vectors: shapes(vectors) }));
await plugin.unload();
await unloadAll();
process.exit(0);
