// `npm run bench [name…]`: builds, then runs each benchmark in bench/*.bench.ts (or the named ones)
// in its own process, so one benchmark's memory does not colour the next one's RSS figures.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = join(fileURLToPath(import.meta.url), '../..');
buildIfNeeded(root);
const wanted = process.argv.slice(2);
const all = readdirSync(join(root, 'bench')).filter((f) => f.endsWith('.bench.ts')).sort();
const run = wanted.length ? all.filter((f) => wanted.some((w) => f.startsWith(w))) : all;
if (!run.length) { console.log(`no benchmarks match; have: ${all.join(', ')}`); process.exit(1); }
let failed = 0;
for (const f of run) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', join(root, 'bench', f)], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
