// History and diffs of vault paths from git. Parsing is pure (parseLog, parseNumstat); queries go
// through a GitRunner. Paths handed to git are `:(literal)` pathspecs relative to the vault folder;
// paths coming back are vault-relative (`--relative`), and anything in a dot-folder (.obsidian,
// .trash…) or outside the caller's root is dropped, like every other tool.
import type { GitRunner } from './git.js';

export const FIELD = '\x1f';
export const RECORD = '\x1e';
const LOG_FORMAT = `--format=${'%x1e'}%H%x1f%P%x1f%aI%x1f%an%x1f%ae%x1f%cI%x1f%B%x1f`;
export const MAX_MESSAGE_CHARS = 4000;
export const MAX_FILES_PER_COMMIT = 200;

export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type_changed' | 'unmerged' | 'unknown';

export interface ChangedFile { path: string; status: FileStatus; from?: string }

export interface Commit {
  sha: string;
  parents: string[];
  date: string; // author date, ISO with offset as git gives it
  author: string;
  email: string;
  committed: string;
  message: string;
  files: ChangedFile[];
}

const STATUS: Record<string, FileStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type_changed', U: 'unmerged' };

/** Parses `git log -z --name-status` output in LOG_FORMAT. */
export function parseLog(out: string): Commit[] {
  const commits: Commit[] = [];
  for (const rec of out.split(RECORD)) {
    if (!rec.trim()) continue;
    const end = rec.lastIndexOf(FIELD);
    if (end < 0) continue;
    const head = rec.slice(0, end).split(FIELD);
    if (head.length < 7) continue;
    const [sha, parents, date, author, email, committed, ...msg] = head;
    const tokens = rec.slice(end + 1).replace(/^[\0\n]+/, '').split('\0');
    const files: ChangedFile[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i].replace(/^\n+/, '');
      if (!t) continue;
      const code = t[0];
      if (code === 'R' || code === 'C') {
        const from = tokens[++i];
        const to = tokens[++i];
        if (to !== undefined) files.push({ path: to, status: STATUS[code], from });
      } else {
        const p = tokens[++i];
        if (p !== undefined) files.push({ path: p, status: STATUS[code] ?? 'unknown' });
      }
    }
    commits.push({ sha, parents: parents ? parents.split(' ').filter(Boolean) : [], date, author, email, committed, message: msg.join(FIELD).replace(/\n+$/, ''), files });
  }
  return commits;
}

/** `git diff --numstat -z` rows: added/deleted line counts, or binary. */
export function parseNumstat(out: string): { path: string; binary: boolean; added: number; deleted: number }[] {
  const rows: { path: string; binary: boolean; added: number; deleted: number }[] = [];
  const tokens = out.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i].replace(/^\n+/, '');
    if (!t) continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(t);
    if (!m) continue;
    let path = m[3];
    if (path === '') { i += 2; path = tokens[i] ?? ''; } // rename: "\0from\0to"
    rows.push({ path, binary: m[1] === '-' && m[2] === '-', added: m[1] === '-' ? 0 : Number(m[1]), deleted: m[2] === '-' ? 0 : Number(m[2]) });
  }
  return rows;
}

/** Dot-components are never shown (same rule as vault paths). */
export function hiddenPath(p: string): boolean {
  return p.split('/').some((c) => c.startsWith('.'));
}

export function literal(path: string): string {
  return `:(literal)${path}`;
}

/** Pathspecs for a folder ('' = the whole vault) that leave dot-folders out. */
export function folderSpecs(folder: string): string[] {
  return [folder === '' ? '.' : literal(folder), ':(exclude,glob)**/.*', ':(exclude,glob)**/.*/**'];
}

export interface HistoryQuery {
  /** A file path (followed across renames), a folder, or '' for the whole vault. */
  path: string;
  isFile: boolean;
  head: string;
  skip: number;
  limit: number;
  since?: string;
}

export async function headSha(git: GitRunner): Promise<string | null> {
  const r = await git.run(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { allowFail: true });
  const s = r.stdout.trim();
  return /^[0-9a-f]{40,64}$/.test(s) ? s : null;
}

/** One page of commits (limit + 1 are read to know whether more follow). */
export async function history(git: GitRunner, q: HistoryQuery): Promise<{ commits: Commit[]; more: boolean }> {
  const args = ['log', '-z', '--name-status', '-M', '--relative', '--no-color', LOG_FORMAT, `--skip=${q.skip}`, `-n`, String(q.limit + 1)];
  if (q.since) args.push(`--since=${q.since}`);
  if (q.isFile) args.push('--follow');
  args.push(q.head, '--', ...(q.isFile ? [literal(q.path)] : folderSpecs(q.path)));
  const r = await git.run(args);
  const commits = parseLog(r.stdout);
  return { commits: commits.slice(0, q.limit), more: commits.length > q.limit };
}

/** Full sha of a commit-ish the caller gave (hex only), or null. */
export async function resolveCommit(git: GitRunner, sha: string): Promise<string | null> {
  if (!/^[0-9a-fA-F]{4,64}$/.test(sha)) return null;
  const r = await git.run(['rev-parse', '--verify', '--quiet', `${sha}^{commit}`], { allowFail: true });
  const s = r.stdout.trim();
  return /^[0-9a-f]{40,64}$/.test(s) ? s : null;
}

/** The newest commit on HEAD committed at or before `iso`, or null. */
export async function commitBefore(git: GitRunner, iso: string): Promise<string | null> {
  const r = await git.run(['rev-list', '-n', '1', `--before=${iso}`, 'HEAD'], { allowFail: true });
  const s = r.stdout.trim();
  return /^[0-9a-f]{40,64}$/.test(s) ? s : null;
}

export async function emptyTree(git: GitRunner): Promise<string> {
  // The object id depends on the repository's hash (sha1 or sha256), so ask git rather than hard-code it.
  const r = await git.run(['hash-object', '-t', 'tree', '/dev/null'], { allowFail: true });
  return r.stdout.trim() || '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
}

async function blobSize(git: GitRunner, rev: string, path: string): Promise<number | null> {
  const r = await git.run(['cat-file', '-s', `${rev}:./${path}`], { allowFail: true });
  const n = Number(r.stdout.trim());
  return r.stdout.trim() && Number.isFinite(n) ? n : null;
}

export interface FileDiff {
  /** Unified diff text ('' when nothing changed), or a one-line summary for binary files. */
  diff: string;
  binary: boolean;
  changed: boolean;
  added: number;
  deleted: number;
  size_before: number | null;
  size_after: number | null;
  capped: boolean;
}

/**
 * The diff of one file from `from` to `to` (a commit), or to the working tree when `to` is null.
 * `workingSize` gives the file's current size (binary summaries).
 */
export async function fileDiff(git: GitRunner, from: string, to: string | null, path: string, workingSize: () => number | null, maxBytes: number, oldPath?: string): Promise<FileDiff> {
  const range = to ? [from, to] : [from];
  const specs = oldPath && oldPath !== path ? [literal(oldPath), literal(path)] : [literal(path)];
  const ns = parseNumstat((await git.run(['diff', '--numstat', '-z', '-M', '--relative', '--no-ext-diff', '--no-textconv', ...range, '--', ...specs])).stdout);
  if (!ns.length) return { diff: '', binary: false, changed: false, added: 0, deleted: 0, size_before: null, size_after: null, capped: false };
  const row = ns[0];
  const before = await blobSize(git, from, oldPath ?? path);
  const after = to ? await blobSize(git, to, path) : workingSize();
  if (row.binary) {
    const what = before === null ? `added (${after ?? 0} bytes)` : after === null ? `deleted (was ${before} bytes)` : `changed: ${before} bytes → ${after} bytes`;
    return { diff: `Binary file ${path} ${what}`, binary: true, changed: true, added: 0, deleted: 0, size_before: before, size_after: after, capped: false };
  }
  const r = await git.run(['diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M', '--relative', ...range, '--', ...specs], { maxBytes });
  return { diff: r.stdout, binary: false, changed: true, added: row.added, deleted: row.deleted, size_before: before, size_after: after, capped: r.capped };
}

/** Commits touching one file (followed across renames) in (base, HEAD], newest first. */
export async function commitsOf(git: GitRunner, path: string, base: string | null, limit: number): Promise<{ commits: Commit[]; more: boolean }> {
  const args = ['log', '-z', '--name-status', '-M', '--relative', '--no-color', LOG_FORMAT, '-n', String(limit + 1), '--follow', base ? `${base}..HEAD` : 'HEAD', '--', literal(path)];
  const commits = parseLog((await git.run(args)).stdout);
  return { commits: commits.slice(0, limit), more: commits.length > limit };
}
