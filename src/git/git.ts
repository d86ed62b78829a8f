// Running git for the history tools: execFile (no shell), `-C <vault>`, no pager, no colour, no
// external diff or textconv drivers, no fsmonitor hook, no optional locks (so a running obsidian-git
// is not disturbed), a time limit and an output cap. Output over the cap comes back cut, with
// `capped: true`, instead of failing.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { dirname, resolve, delimiter } from 'node:path';

export interface GitOutput { stdout: string; capped: boolean }

export interface GitRunner {
  /** The vault folder git runs in. */
  readonly cwd: string;
  run(args: string[], opts?: { maxBytes?: number; timeoutMs?: number; allowFail?: boolean }): Promise<GitOutput>;
}

const SAFE_CONFIG = [
  '-c', 'core.quotePath=false', '-c', 'core.fsmonitor=false', '-c', 'core.pager=cat', '-c', 'color.ui=false',
  '-c', 'diff.external=', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'log.showSignature=false',
  '-c', 'diff.relative=false', '-c', 'log.follow=false',
];

export class GitError extends Error {
  constructor(message: string, readonly stderr: string) { super(message); this.name = 'GitError'; }
}

export function gitRunner(cwd: string, binary = 'git'): GitRunner {
  return {
    cwd,
    run(args, opts = {}) {
      const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
      return new Promise((resolve, reject) => {
        execFile(binary, ['-C', cwd, '--no-pager', ...SAFE_CONFIG, ...args], {
          encoding: 'utf8', maxBuffer: maxBytes, timeout: opts.timeoutMs ?? 15_000, windowsHide: true,
          env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0', GIT_PAGER: 'cat', PAGER: 'cat', LC_ALL: 'C' },
        }, (err, stdout, stderr) => {
          if (!err) return resolve({ stdout, capped: false });
          const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
          if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return resolve({ stdout: String(stdout ?? ''), capped: true });
          if (opts.allowFail) return resolve({ stdout: '', capped: false });
          reject(new GitError(e.killed ? `git ${args[0]} took too long` : `git ${args[0]} failed: ${String(stderr || e.message).trim().split('\n')[0]}`, String(stderr ?? '')));
        });
      });
    },
  };
}

/** Is there a `.git` (folder, or file as in worktrees and submodules) in `start` or a folder above,
 *  as git's own discovery looks (stopping at GIT_CEILING_DIRECTORIES; GIT_DIR set means yes)? A cheap
 *  check before spawning git at all: on a Mac without developer tools, running `git` pops up Apple's
 *  install dialog, at every start. */
export async function hasGitAbove(start: string, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (env.GIT_DIR) return true;
  const ceilings = new Set((env.GIT_CEILING_DIRECTORIES ?? '').split(delimiter).filter(Boolean).map((d) => resolve(d)));
  let dir = resolve(start);
  for (;;) {
    try { await fs.stat(`${dir}/.git`); return true; } catch { /* not here */ }
    const up = dirname(dir);
    if (up === dir || ceilings.has(up)) return false;
    dir = up;
  }
}

/** The runner for a vault that is a git work tree with git on the PATH, else null. */
export async function detectGit(vaultPath: string | null, binary = 'git'): Promise<GitRunner | null> {
  if (!vaultPath || !(await hasGitAbove(vaultPath))) return null;
  const git = gitRunner(vaultPath, binary);
  try {
    const r = await git.run(['rev-parse', '--is-inside-work-tree'], { timeoutMs: 5000 });
    return r.stdout.trim() === 'true' ? git : null;
  } catch {
    return null; // no git binary, not a repository, or a repository git refuses (safe.directory)
  }
}
