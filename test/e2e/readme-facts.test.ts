// The README's countable claims against the code: how many tools the source has and how many a fresh
// clone lists (with git, as examples/vault sits in the clone's work tree, and without), the tools table,
// the conformance table's fixture column, and that every file path it names exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, SAMPLE_VAULT } from '../helpers/paths.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect } from '../helpers/server.js';
import { copyVault } from '../helpers/vault.js';
import { allTools } from '../../src/mcp/tools/index.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

function figure(re: RegExp): number {
  const m = re.exec(README);
  assert.ok(m, `README has no sentence matching ${re}`);
  return Number(m[1]);
}

async function listed(vault: string): Promise<string[]> {
  const rt = await startTestRuntime(vault);
  try {
    const c = await connect(rt.url, rt.rwKey);
    const names = (await c.listTools()).tools.map((t) => t.name);
    await c.close();
    return names;
  } finally { await rt.stop(); }
}

test('README tool counts are what the code and a fresh clone list', async () => {
  const source = allTools().map((t) => t.name);
  assert.equal(figure(/The source has (\d+) tools/), source.length);
  const inClone = await listed(SAMPLE_VAULT);
  const outside = await listed(copyVault());
  assert.equal(figure(/a vault outside git lists (\d+)\)/), outside.length);
  assert.deepEqual(source.filter((n) => !outside.includes(n)).sort(), ['get_diff', 'get_history', 'summarize']);
  const gitHere = inClone.includes('get_history');
  if (!gitHere) console.log('# examples/vault is not in a git work tree here (or git is missing): the fresh-clone figure is checked as figure − 2');
  assert.equal(figure(/`npm start` on a fresh clone lists (\d+) of them/) - (gitHere ? 0 : 2), inClone.length);
  assert.equal(figure(/the Inspector CLI listed all (\d+) tools/), figure(/`npm start` on a fresh clone lists (\d+) of them/));

  // The tools table: one row per tool of the source.
  const section = README.slice(README.indexOf('\n## Tools\n'), README.indexOf('\n## ', README.indexOf('\n## Tools\n') + 5));
  const rows = [...section.matchAll(/^\| `([a-z_]+)\(/gm)].map((m) => m[1]);
  assert.deepEqual([...rows].sort(), [...source].sort());
});

test('README conformance table: 32 scenarios, the fixture column as scripts/conformance-table.mjs classifies them', async () => {
  const { FIXTURES } = (await import(join(REPO, 'scripts/conformance-table.mjs'))) as { FIXTURES: Record<string, string> };
  const rows = [...README.matchAll(/^\| ([a-z0-9-]+) \| (pass|FAIL) \| [^|]+ \| (yes|no) \|/gm)];
  assert.equal(rows.length, 32);
  for (const [, scenario, result, fixture] of rows) {
    assert.equal(fixture === 'yes', scenario in FIXTURES, scenario);
    if (fixture === 'no') assert.equal(result, 'pass', `${scenario} needs no fixture and must pass`);
  }
});

test('every repository path the README names exists', () => {
  const paths = new Set([...README.matchAll(/`((?:test|bench|scripts|src|docs|examples)\/[^`\s*]+?)`/g)].map((m) => m[1].replace(/[#:].*$/, '')));
  assert.ok(paths.size > 20);
  const missing = [...paths].filter((p) => ![p, `${p}.ts`, `${p}.test.ts`].some((c) => existsSync(join(REPO, c))));
  assert.deepEqual(missing, []);
});
