// get_history and get_diff: what changed in a vault kept in git (e.g. with the obsidian-git plugin),
// listed only when the vault is a git work tree (src/git/feature.ts).
import { z } from 'zod';
import { pageCursor } from './args.js';
import { defineTool, READ_ONLY, type ServerDeps, type ToolContext } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { normalizeFilePath, normalizeFolderPath, withinRoot } from '../../core/paths.js';
import { parseTime, isoUtc } from '../../core/time.js';
import { decodeCursor, encodeCursor } from '../../core/cursor.js';
import type { GitRunner } from '../../git/git.js';
import {
  commitBefore, commitsOf, emptyTree, fileDiff, headSha, hiddenPath, history, resolveCommit, MAX_FILES_PER_COMMIT, MAX_MESSAGE_CHARS,
  type ChangedFile, type Commit,
} from '../../git/history.js';

const available = (deps: ServerDeps) => !!deps.services.git;

function gitOf(ctx: ToolContext): GitRunner {
  const g = ctx.deps.services.git;
  if (!g) refuse('unavailable', 'This vault is not a git repository (or git is not installed), so there is no history.');
  return g;
}

const fileRow = z.object({ path: z.string(), status: z.string(), from: z.string().optional() });
const commitRow = z.object({
  sha: z.string(),
  date: z.string().describe('Author date, UTC'),
  author: z.string(),
  email: z.string(),
  message: z.string(),
  files: z.array(fileRow).describe('Files of the asked path this commit changed (inside your root, dot-folders left out)'),
  files_truncated: z.boolean(),
});

/** Files the caller may see; a rename's old path only when it is visible too. */
function visibleFiles(files: ChangedFile[], root: string): ChangedFile[] {
  return files
    .filter((f) => !hiddenPath(f.path) && withinRoot(f.path, root))
    .map((f) => (f.from !== undefined && (hiddenPath(f.from) || !withinRoot(f.from, root)) ? { path: f.path, status: 'added' as const } : f));
}

function shape(c: Commit, root: string) {
  const files = visibleFiles(c.files, root);
  const msg = c.message.length > MAX_MESSAGE_CHARS ? c.message.slice(0, MAX_MESSAGE_CHARS) + '…' : c.message;
  return {
    sha: c.sha, date: isoUtc(Date.parse(c.date)), author: c.author, email: c.email, message: msg,
    files: files.slice(0, MAX_FILES_PER_COMMIT).map((f) => ({ path: f.path, status: f.status, ...(f.from !== undefined ? { from: f.from } : {}) })),
    files_truncated: files.length > MAX_FILES_PER_COMMIT,
  };
}

/** A path argument: '' or omitted = the caller's whole view; a file or folder inside the root. */
function target(ctx: ToolContext, raw: string | undefined): { path: string; isFile: boolean } {
  const root = ctx.vault.root;
  if (raw === undefined || normalizeFolderPath(raw) === '') return { path: root, isFile: false };
  const folder = normalizeFolderPath(raw);
  if (!ctx.vault.visible(folder)) refuse('not_found', `No history for "${folder}": it is not in the part of the vault this key can see.`);
  if (ctx.vault.isFolder(folder) || /[\\/]$/.test(raw)) return { path: folder, isFile: false };
  return { path: normalizeFilePath(raw), isFile: true };
}

export const getHistory = defineTool({
  name: 'get_history',
  title: 'Git history',
  family: 'git',
  description:
    'Commits that touched a note, an attachment, a folder or the whole vault (omit path), newest first, from the vault\'s git repository (e.g. kept by the obsidian-git plugin): sha, date (UTC), author, message and the files of that path each commit changed. ' +
    'A file is followed across renames. since limits to commits after a time. Paged: pass next_cursor as cursor. For the text of a change use get_diff.',
  input: z.strictObject({
    path: z.string().optional().describe('Vault-relative note, file or folder; omit for the whole vault'),
    limit: z.number().int().min(1).max(100).default(20).describe('Commits per page (max 100)'),
    since: z.string().optional().describe('Only commits after this time (ISO 8601, e.g. "2026-01-31" or "2026-01-31T09:00:00Z")'),
    cursor: pageCursor,
  }),
  output: z.object({
    path: z.string().describe('The file or folder asked about; without path, the key\'s root ("" = the whole vault)'),
    commits: z.array(commitRow).describe('Newest first'),
    next_cursor: z.string().nullable().describe('Pass as cursor for older commits; null = no more'),
  }),
  annotations: READ_ONLY,
  available,
  unavailableHint: 'the vault is not a git work tree (or git is not installed)',
  async handler(args, ctx) {
    const git = gitOf(ctx);
    const t = target(ctx, args.path);
    const since = args.since !== undefined ? isoUtc(parseTime(args.since, 'since')) : undefined;
    let head: string | null;
    let skip = 0;
    if (args.cursor) {
      const c = decodeCursor<{ k: string; head: string; skip: number; p: string }>(args.cursor, 'get_history');
      if (c.p !== t.path || typeof c.skip !== 'number' || !/^[0-9a-f]{40,64}$/.test(String(c.head))) refuse('invalid_argument', 'This cursor belongs to another path; drop it to start from the first page.');
      head = c.head;
      skip = c.skip;
    } else head = await headSha(git);
    if (!head) return { structured: { path: t.path, commits: [], next_cursor: null }, text: 'The repository has no commits yet.' };
    const { commits, more } = await history(git, { path: t.path, isFile: t.isFile, head, skip, limit: args.limit, ...(since ? { since } : {}) });
    const rows = commits.map((c) => shape(c, ctx.vault.root)).filter((c) => c.files.length > 0 || (!t.isFile && t.path === '' && ctx.vault.root === ''));
    const next = more ? encodeCursor({ k: 'get_history', head, skip: skip + commits.length, p: t.path }) : null;
    const text = rows.map((c) => `${c.sha.slice(0, 10)}  ${c.date}  ${c.author}  ${c.message.split('\n')[0]}\n${c.files.map((f) => `    ${f.status} ${f.from ? `${f.from} → ` : ''}${f.path}`).join('\n')}`).join('\n') || 'No commits touched this path.';
    return { structured: { path: t.path, commits: rows, next_cursor: next }, text: text + (next ? '\n[more: pass next_cursor]' : '') };
  },
});

const diffRow = z.object({
  sha: z.string().nullable().describe('The commit (per_commit), or null for the combined diff'),
  date: z.string().nullable(),
  author: z.string().nullable(),
  message: z.string().nullable(),
  path: z.string().describe('The file at that commit'),
  binary: z.boolean(),
  added_lines: z.number().int(),
  deleted_lines: z.number().int(),
  size_before: z.number().int().nullable(),
  size_after: z.number().int().nullable(),
  diff: z.string().describe('Unified diff, or a one-line size summary for a binary file'),
  truncated: z.boolean(),
});

export const getDiff = defineTool({
  name: 'get_diff',
  title: 'Git diff of a file',
  family: 'git',
  description: (deps) =>
    'What changed in one note or file, from the vault\'s git repository: a unified diff from a commit (since_sha) or from the last commit at or before a time (since_timestamp) to the file as it is now (uncommitted edits included); with neither, the uncommitted changes. ' +
    `per_commit=true gives one diff per commit instead (newest first, at most limit). Binary files get a size summary. Output is capped at ${deps.settings().readCapChars} characters; truncated and total_chars say when it was cut.`,
  input: z.strictObject({
    path: z.string().describe('Vault-relative path of a note or file'),
    since_sha: z.string().optional().describe('A commit sha (full or abbreviated, from get_history)'),
    since_timestamp: z.string().optional().describe('A time (ISO 8601); the base is the last commit at or before it'),
    per_commit: z.boolean().default(false).describe('One diff per commit instead of one combined diff'),
    limit: z.number().int().min(1).max(50).optional().describe('per_commit: most commits (default 10)'),
  }),
  output: z.object({
    path: z.string().describe('Vault-relative path of the file'),
    base: z.string().nullable().describe('Commit the combined diff starts from (null = before the first commit)'),
    to: z.string().describe('"working tree" or the newest commit'),
    diffs: z.array(diffRow).describe('One combined diff, or one per commit with per_commit=true'),
    truncated: z.boolean().describe('True when diffs were cut to the size cap (total_chars says how much there was)'),
    total_chars: z.number().int().describe('Characters of all diffs before the cap'),
    more_commits: z.boolean().describe('True when commits beyond limit were left out'),
  }),
  annotations: READ_ONLY,
  available,
  unavailableHint: 'the vault is not a git work tree (or git is not installed)',
  async handler(args, ctx) {
    const git = gitOf(ctx);
    const path = normalizeFilePath(args.path);
    if (!ctx.vault.visible(path)) refuse('not_found', `No history for "${path}": it is not in the part of the vault this key can see.`);
    if (ctx.vault.isFolder(path)) refuse('invalid_argument', `"${path}" is a folder; get_diff works on one file. Use get_history(path="${path}") to see which files changed.`);
    if (args.since_sha !== undefined && args.since_timestamp !== undefined) refuse('invalid_argument', 'Pass since_sha or since_timestamp, not both.');
    const cap = ctx.deps.settings().readCapChars;
    const workingSize = () => ctx.deps.host.stat(path)?.size ?? null;
    let base: string | null;
    if (args.since_sha !== undefined) {
      base = await resolveCommit(git, args.since_sha);
      if (!base) refuse('not_found', `"${args.since_sha}" is not a commit of this repository; take a sha from get_history.`);
    } else if (args.since_timestamp !== undefined) {
      base = await commitBefore(git, isoUtc(parseTime(args.since_timestamp, 'since_timestamp')));
    } else base = args.per_commit ? null : await headSha(git);
    const empty = await emptyTree(git);
    type Row = z.infer<typeof diffRow>;
    const rows: Row[] = [];
    let more = false;
    let to = 'working tree';
    if (!args.per_commit) {
      const d = await fileDiff(git, base ?? empty, null, path, workingSize, cap * 4 + 4096);
      rows.push({ sha: null, date: null, author: null, message: null, path, binary: d.binary, added_lines: d.added, deleted_lines: d.deleted, size_before: d.size_before, size_after: d.size_after, diff: d.diff, truncated: d.capped });
    } else {
      const { commits, more: m } = await commitsOf(git, path, args.since_sha !== undefined || args.since_timestamp !== undefined ? base : null, args.limit ?? 10);
      more = m;
      to = commits[0]?.sha ?? 'HEAD';
      for (const c of commits) {
        const row = c.files.find((f) => f.path === path) ?? c.files[0];
        const at = row?.path ?? path;
        if (hiddenPath(at) || !withinRoot(at, ctx.vault.root)) continue;
        const from = row?.from !== undefined && !hiddenPath(row.from) && withinRoot(row.from, ctx.vault.root) ? row.from : undefined;
        const d = await fileDiff(git, c.parents[0] ?? empty, c.sha, at, () => null, cap * 4 + 4096, from);
        const s = shape(c, ctx.vault.root);
        rows.push({ sha: c.sha, date: s.date, author: c.author, message: s.message, path: at, binary: d.binary, added_lines: d.added, deleted_lines: d.deleted, size_before: d.size_before, size_after: d.size_after, diff: d.diff, truncated: d.capped });
      }
    }
    // One budget for all diffs, in order; what does not fit is cut and said so.
    const total = rows.reduce((n, r) => n + r.diff.length, 0);
    let left = cap;
    let truncated = rows.some((r) => r.truncated);
    for (const r of rows) {
      if (r.diff.length > left) { r.diff = r.diff.slice(0, Math.max(0, left)); r.truncated = true; truncated = true; }
      left -= r.diff.length;
    }
    const head = args.per_commit ? null : base;
    const text = rows.map((r) => `${r.sha ? `commit ${r.sha}  ${r.date}  ${r.author}\n    ${(r.message ?? '').split('\n')[0]}\n` : `${path}: ${head ? head.slice(0, 10) : 'before the first commit'} → working tree\n`}${r.diff || '(no changes)'}${r.truncated ? `\n[diff truncated: ${total} characters in all, cap ${cap} (setting readCapChars)]` : ''}`).join('\n') || 'No commits changed this file in that range.';
    return { structured: { path, base: head, to, diffs: rows, truncated, total_chars: total, more_commits: more }, text };
  },
});

export const gitTools = [getHistory, getDiff];
