// `npm test`: build, type-check, lint (eslint-plugin-obsidianmd, the reviewers' linter: nothing may be
// reported), then run every test/**/*.test.ts with node's test runner (via tsx).
// Tests needing ../shared skip themselves with a printed reason when it is absent.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = join(fileURLToPath(import.meta.url), '../..');
buildIfNeeded(root);
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', root], { stdio: 'inherit' });
if (tsc.status !== 0) { console.error('type check failed'); process.exit(1); }
const only = process.argv.slice(2);
// The full run lints; a run of named test files (iterating) skips it: `npm run lint` does it alone.
if (!only.length) {
  const lint = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--max-warnings', '0', 'src', 'package.json', 'manifest.json'], { stdio: 'inherit', cwd: root });
  if (lint.status !== 0) { console.error('lint failed: fix what eslint reports above (npm run lint)'); process.exit(1); }
}

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : find(p);
    return e.name.endsWith('.test.ts') ? [p] : [];
  });
}
const files = (only.length ? only : find(join(root, 'test')).map((f) => relative(root, f))).sort();
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], { stdio: 'inherit', cwd: root, env: { ...process.env, VAULT_MCP_REPO: root } });
process.exit(r.status ?? 1);
