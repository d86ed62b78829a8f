// Graph / task benchmark (standalone: `node --expose-gc --import tsx bench/graph.ts`; also run by
// `npm run bench graph` through bench/graph.bench.ts).
// For the Obsidian Hub vault (../shared/fixtures/vaults/obsidian-hub.tar.gz) and a generated vault
// of --notes N notes (default 100 000; cached in the OS temp folder):
//   host ready (scan + parse, for reference), host link resolution (resolvedLinks), graph build time
//   and heap growth, task index build, and tool latency (median / p95, in-process dispatch, no HTTP)
//   of get_backlinks, get_neighborhood(depth=2) and list_tasks.
// Flags: --notes N, --only hub|synthetic, --calls N (latency samples, default 50).
import { existsSync, mkdirSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { NodeHost } from '../src/host/node/nodeHost.js';
import { withDefaults } from '../src/settings.js';
import { GraphService } from '../src/graph/service.js';
import { TaskService } from '../src/tasks/service.js';
import { dispatch } from '../src/mcp/server.js';
import { allTools } from '../src/mcp/tools/index.js';
import type { ServerDeps } from '../src/mcp/tool.js';
import type { Caller } from '../src/mcp/tool.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SHARED = resolve(ROOT, '../shared');
const argv = process.argv.slice(2);
const arg = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const NOTES = Number(arg('--notes')) || 100_000;
const ONLY = arg('--only');
const CALLS = Number(arg('--calls')) || 50;

const gc = () => (globalThis as { gc?: () => void }).gc?.();
const heap = () => { gc(); return process.memoryUsage().heapUsed; };
const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`;
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

/** A deterministic vault: N notes in 100 folders, ~6 links each (power-law targets), tasks in 1 of 5. */
function syntheticVault(n: number): string {
  const dir = join(tmpdir(), `vmcp-bench-graph-${n}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const folders = 100;
  for (let f = 0; f < folders; f++) mkdirSync(join(dir, `f${f}`), { recursive: true });
  const name = (i: number) => `Note ${i}`;
  for (let i = 0; i < n; i++) {
    const links: string[] = [];
    for (let k = 0; k < 6; k++) {
      const t = Math.floor(Math.pow(rnd(), 2.5) * n); // popular notes get most links
      links.push(k === 5 && rnd() < 0.3 ? `[[Missing ${t}]]` : `[[${name(t)}]]`);
    }
    const tasks = i % 5 === 0 ? `\n## Tasks\n\n- [ ] Do thing ${i} 📅 2026-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')} #t${i % 7}\n- [x] Done thing ${i} ✅ 2026-01-01\n` : '';
    writeFileSync(join(dir, `f${i % folders}`, `${name(i)}.md`), `---\ntags: [bench]\n---\n# ${name(i)}\n\nSee ${links.join(', ')}.\n${tasks}`);
  }
  writeFileSync(join(dir, '.complete'), '');
  return dir;
}

function hubVault(): string | null {
  const archive = join(SHARED, 'fixtures/vaults/obsidian-hub.tar.gz');
  if (!existsSync(archive)) return null;
  const dir = join(tmpdir(), 'vmcp-bench-hub');
  if (!existsSync(join(dir, '.complete'))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', archive, '-C', dir]);
    writeFileSync(join(dir, '.complete'), '');
  }
  const top = readdirSync(dir).filter((f) => !f.startsWith('.'));
  return top.length === 1 ? join(dir, top[0]) : dir;
}

async function run(label: string, vault: string): Promise<void> {
  console.log(`\n## ${label}  (${vault})`);
  const h0 = heap();
  let t = performance.now();
  const host = new NodeHost(vault, { watch: false, dataDir: join(tmpdir(), `vmcp-bench-data-${process.pid}`) });
  await host.ready();
  const notes = host.files().filter((f) => f.path.endsWith('.md'));
  console.log(`notes: ${notes.length}; host ready (scan + parse, reference): ${ms(performance.now() - t)}; host heap ${mb(heap() - h0)}`);
  t = performance.now();
  host.resolvedLinks();
  console.log(`host link resolution (resolvedLinks/unresolvedLinks): ${ms(performance.now() - t)}`);
  const before = heap();
  const graph = new GraphService(host);
  t = performance.now();
  const g = graph.get();
  const buildMs = performance.now() - t;
  console.log(`graph build: ${ms(buildMs)}; ${g.sources().length} sources, ${g.edgeCount()} edges, ${g.unresolvedSources().length} with dangling links; heap +${mb(heap() - before)}`);
  const tasks = new TaskService(host);
  const tb = heap();
  t = performance.now();
  await tasks.start();
  await tasks.settle(600_000);
  console.log(`task index: ${ms(performance.now() - t)}; ${tasks.notesWithTasks()} notes with tasks; heap +${mb(heap() - tb)}`);

  const deps: ServerDeps = { host, settings: () => withDefaults({}), version: 'bench', now: Date.now, middleware: [], services: { graph, tasks } };
  const caller: Caller = { keyId: 'bench', keyName: 'bench', scope: 'read', root: '', disabledFamilies: [] };
  const tools = allTools();
  // Sample start notes from the most-linked half so answers are not trivially empty.
  const targets = g.linkedTargets().filter((p) => p.endsWith('.md')).map((p) => [p, g.incoming(p).size] as const).sort((a, b) => b[1] - a[1]).slice(0, 2000).map(([p]) => p);
  let seed = 7;
  const pick = () => targets[(seed = (seed * 48271) % 2147483647) % targets.length];
  const lat = async (label: string, args: () => Record<string, unknown>) => {
    const name = label.split(' ')[0];
    const xs: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const a = args();
      const s = performance.now();
      const r = await dispatch(deps, caller, tools, name, a, new AbortController().signal);
      xs.push(performance.now() - s);
      if (r.isError) throw new Error(`${name} ${JSON.stringify(a)}: ${JSON.stringify(r.content)}`);
    }
    console.log(`${label.padEnd(36)} median ${ms(pct(xs, 0.5))}  p95 ${ms(pct(xs, 0.95))}  (${CALLS} calls)`);
  };
  await lat('get_backlinks', () => ({ path: pick() }));
  await lat('get_neighborhood depth=2', () => ({ path: pick(), depth: 2 }));
  await lat('list_tasks', () => ({}));
  await lat('list_tasks due_by + tag', () => ({ due_by: '2026-06-30', tags: ['t3'] }));
  // A real structural change (a new note whose name other links may resolve to): host rows and the
  // graph update incrementally; then a forced full rebuild for comparison.
  const added = `bench-new-${process.pid}.md`;
  await host.writer.create(added, `# New\n\n[[${pick().replace(/\.md$/, '')}]]\n`);
  t = performance.now();
  graph.get();
  console.log(`graph update after creating a note (incremental): ${ms(performance.now() - t)}`);
  graph.invalidate();
  t = performance.now();
  graph.get();
  console.log(`graph full rebuild (forced): ${ms(performance.now() - t)}`);
  await host.writer.remove(added); // the bench vaults are cached between runs: leave them as found
  await tasks.stop();
  graph.stop();
  await host.close();
}

if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc for heap figures that mean something)');
if (ONLY !== 'synthetic') {
  const hub = hubVault();
  if (hub) await run('Obsidian Hub vault', hub); else console.log('\n## Obsidian Hub vault: skipped (../shared/fixtures/vaults/obsidian-hub.tar.gz is absent)');
}
if (ONLY !== 'hub') {
  const t = performance.now();
  const dir = syntheticVault(NOTES);
  console.log(`\n(generated vault ready in ${ms(performance.now() - t)})`);
  await run(`generated vault, ${NOTES} notes`, dir);
}
