// git is spawned only when a `.git` exists at the vault root or in a folder above (as git itself
// discovers a repository): on a Mac without developer tools, running git at all pops up Apple's
// install dialog. A stand-in git records every invocation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectGit, hasGitAbove } from '../../src/git/git.js';
import { tempDir } from '../helpers/vault.js';

function recordingGit(): { bin: string; calls: () => string[] } {
  const dir = tempDir('vmcp-fakegit-');
  const log = join(dir, 'calls.log');
  const bin = join(dir, 'git');
  writeFileSync(bin, `#!/bin/sh\necho "$@" >> "${log}"\necho true\n`);
  chmodSync(bin, 0o755);
  return { bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

const noCeiling = { ...process.env, GIT_DIR: undefined, GIT_CEILING_DIRECTORIES: undefined };

test('no .git at the vault or above: git is never run', async () => {
  const vault = join(tempDir('vmcp-nogit-'), 'vault');
  mkdirSync(vault, { recursive: true });
  if (await hasGitAbove(vault, noCeiling)) { console.log('# skipped: the temp folder is inside a git repository'); return; }
  const git = recordingGit();
  assert.equal(await detectGit(vault, git.bin), null);
  assert.deepEqual(git.calls(), []);
});

test('.git at the vault root, or in a parent folder (the vault inside a repository), or a .git file: git is asked', async () => {
  const root = tempDir('vmcp-gitabove-');
  const vault = join(root, 'notes', 'vault');
  mkdirSync(vault, { recursive: true });
  mkdirSync(join(root, '.git'));
  assert.equal(await hasGitAbove(vault, noCeiling), true);
  const git = recordingGit();
  assert.ok(await detectGit(vault, git.bin));
  assert.equal(git.calls().length, 1);
  assert.match(git.calls()[0], /rev-parse --is-inside-work-tree/);
  // GIT_CEILING_DIRECTORIES stops the walk below the repository, as it stops git.
  assert.equal(await hasGitAbove(vault, { ...noCeiling, GIT_CEILING_DIRECTORIES: join(root, 'notes') }), false);
  const wt = join(tempDir('vmcp-gitfile-'), 'vault');
  mkdirSync(wt, { recursive: true });
  writeFileSync(join(wt, '.git'), 'gitdir: /elsewhere/.git/worktrees/vault\n');
  assert.equal(await hasGitAbove(wt, noCeiling), true);
});
