// The lint `npm test` runs (eslint.config.mjs) is the reviewers' own: eslint-plugin-obsidianmd's
// recommended config, type-checked, over src/ and package.json, and its validate-manifest rule on
// manifest.json. `npm run lint` reporting nothing proves little if the config stopped applying the
// rules, so here the config must catch what Obsidian's review catches: a TFile cast, Vault.delete,
// fetch, a bare timer, console logging and a hard-coded config folder in a src/ file; a banned
// dependency in package.json; and the manifest description the validator refused before (a colon).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { REPO } from '../helpers/paths.js';

const PROBE = 'src/zz-lint-probe.ts';
// The probe file exists only in memory; the type-checked parser is told it may use a default project.
const eslint = new ESLint({ cwd: REPO, overrideConfig: [{ files: [PROBE], languageOptions: { parserOptions: { projectService: { allowDefaultProject: [PROBE] } } } }] });
const rules = (r: ESLint.LintResult) => r.messages.map((m) => m.ruleId ?? `parse: ${m.message}`);

test('src/: the recommended obsidianmd rules apply, type-checked', { timeout: 180_000 }, async () => {
  const code = [
    "import { TFile, type App } from 'obsidian';",
    'export async function probe(app: App, path: string): Promise<void> {',
    '  const file = app.vault.getAbstractFileByPath(path) as TFile;',
    '  await app.vault.delete(file);',
    "  const res = await fetch('https://example.com');",
    '  void res;',
    '  setTimeout(() => undefined, 5);',
    "  console.log(app.vault.getName(), '.obsidian/plugins');",
    '}',
    '',
  ].join('\n');
  const [r] = await eslint.lintText(code, { filePath: join(REPO, PROBE) });
  const got = rules(r);
  for (const want of ['obsidianmd/no-tfile-tfolder-cast', 'obsidianmd/prefer-file-manager-trash-file', 'no-restricted-globals', 'obsidianmd/prefer-window-timers', 'obsidianmd/hardcoded-config-path']) {
    assert.ok(got.includes(want), `${want} not reported; got ${got.join(', ')}`);
  }
  assert.ok(got.some((g) => /console/.test(g) || g === 'obsidianmd/rule-custom-message'), `console logging not reported; got ${got.join(', ')}`);
});

test('manifest.json: validate-manifest refuses what review refuses, and passes the real one', { timeout: 180_000 }, async () => {
  const real = JSON.parse(readFileSync(join(REPO, 'manifest.json'), 'utf8')) as Record<string, unknown>;
  const [bad] = await eslint.lintText(JSON.stringify({ ...real, description: 'Vault MCP Server: serve your vault to MCP clients.' }, null, 2), { filePath: join(REPO, 'manifest.json') });
  assert.ok(rules(bad).includes('obsidianmd/validate-manifest'), `a description with a colon passed: ${rules(bad).join(', ')}`);
  const [good] = await eslint.lintText(readFileSync(join(REPO, 'manifest.json'), 'utf8'), { filePath: join(REPO, 'manifest.json') });
  assert.deepEqual(rules(good), []);
});

test('package.json: the dependency rules of the recommended config apply', { timeout: 180_000 }, async () => {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const [r] = await eslint.lintText(JSON.stringify({ ...pkg, dependencies: { ...pkg.dependencies, moment: '^2.30.1' } }, null, 2), { filePath: join(REPO, 'package.json') });
  assert.ok(rules(r).includes('depend/ban-dependencies'), `a banned dependency passed: ${rules(r).join(', ')}`);
});
