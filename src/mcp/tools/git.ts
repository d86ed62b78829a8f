// get_history and get_diff: what changed in a vault kept in git (e.g. with the obsidian-git plugin),
// listed only when the vault is a git work tree (src/git/feature.ts).
import { z } from 'zod';
import { pageCursor } from './args.js';
import { answer, cursorField, hintOut, nextCursorOut } from './results.js';
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


const commitRow = z.object({
  sha: z.string().describe('Commit'),
  date: z.string().describe('UTC'),
  author: z.string().describe('Author'),
  message: z.string().describe('Message'),
  files: z.array(z.string()).describe('Files changed under the path: "modified a.md", "renamed a.md → b.md"'),
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
    sha: c.sha, date: isoUtc(Date.parse(c.date)), author: c.author, message: msg,
    files: files.slice(0, MAX_FILES_PER_COMMIT).map((f) => `${f.status} ${f.from !== undefined ? `${f.from} → ` : ''}${f.path}`),
    more_files: files.length > MAX_FILES_PER_COMMIT,
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
    'Git commits that touched a note, file, folder or the whole vault, newest first, with the files each changed; a file is followed across renames. The change itself: get_diff.',
  input: z.strictObject({
    path: z.string().optional().describe('Note, file or folder'),
    limit: z.number().int().min(1).max(100).default(20).describe('Commits per page'),
    since: z.string().optional().describe('After this time (ISO 8601)'),
    cursor: pageCursor,
  }),
  output: z.object({
    path: z.string().describe('Path asked'),
    commits: z.array(commitRow).describe('Newest first'),
    next_cursor: nextCursorOut,
    hint: hintOut,
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
    if (!head) return { structured: { path: t.path, commits: [] }, text: 'The repository has no commits yet.' };
    const { commits, more } = await history(git, { path: t.path, isFile: t.isFile, head, skip, limit: args.limit, ...(since ? { since } : {}) });
    const shaped = commits.map((c) => shape(c, ctx.vault.root)).filter((c) => c.files.length > 0 || (!t.isFile && t.path === '' && ctx.vault.root === ''));
    const manyFiles = shaped.filter((c) => c.more_files).map((c) => c.sha.slice(0, 10));
    const rows = shaped.map(({ more_files: _m, ...c }) => c);
    const next = more ? encodeCursor({ k: 'get_history', head, skip: skip + commits.length, p: t.path }) : null;
    const text = rows.map((c) => `${c.sha.slice(0, 10)}  ${c.date}  ${c.author}  ${c.message.split('\n')[0]}\n${c.files.map((f) => `    ${f}`).join('\n')}`).join('\n') || 'No commits touched this path.';
    return answer({ path: t.path, commits: rows, ...cursorField(next) }, text, [
      manyFiles.length > 0 && `Commits ${manyFiles.join(', ')} changed more than ${MAX_FILES_PER_COMMIT} files; only the first ${MAX_FILES_PER_COMMIT} are listed (ask with a narrower path).`,
      next && 'Older commits: pass next_cursor as cursor.',
    ]);
  },
});

const diffRow = z.object({
  sha: z.string().optional().describe('Commit (per_commit)'),
  message: z.string().optional().describe('Its message'),
  path: z.string().describe('File then'),
  binary: z.boolean().optional().describe('Binary: size summary only'),
  added_lines: z.number().int().describe('Lines added'),
  deleted_lines: z.number().int().describe('Lines deleted'),
  diff: z.string().describe('Unified diff'),
  truncated: z.boolean().optional().describe('Cut'),
});

export const getDiff = defineTool({
  name: 'get_diff',
  title: 'Git diff of a file',
  family: 'git',
  description: (deps) =>
    'Unified diff of a note or file from since_sha or since_timestamp to now, uncommitted edits included (neither: those alone); per_commit=true: one per commit. ' +
    `Capped at ${deps.settings().readCapChars} characters.`,
  input: z.strictObject({
    path: z.string().describe('Note or file'),
    since_sha: z.string().optional().describe('Commit (get_history)'),
    since_timestamp: z.string().optional().describe('Time (ISO 8601)'),
    per_commit: z.boolean().default(false).describe('One diff per commit'),
    limit: z.number().int().min(1).max(50).optional().describe('per_commit: most commits'),
  }),
  output: z.object({
    path: z.string().describe('File'),
    base: z.string().nullable().describe('From commit (null: none)'),
    diffs: z.array(diffRow).describe('Diffs'),
    total_chars: z.number().int().describe('Characters before the cap'),
    hint: hintOut,
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
    const rowOf = (d: Awaited<ReturnType<typeof fileDiff>>, at: string, c?: { sha: string; message: string }): Row => ({
      ...(c ? { sha: c.sha, message: c.message } : {}), path: at, ...(d.binary ? { binary: true } : {}),
      added_lines: d.added, deleted_lines: d.deleted, diff: d.diff, ...(d.capped ? { truncated: true } : {}),
    });
    if (!args.per_commit) {
      const d = await fileDiff(git, base ?? empty, null, path, workingSize, cap * 4 + 4096);
      rows.push(rowOf(d, path));
    } else {
      const { commits, more: m } = await commitsOf(git, path, args.since_sha !== undefined || args.since_timestamp !== undefined ? base : null, args.limit ?? 10);
      more = m;
      for (const c of commits) {
        const row = c.files.find((f) => f.path === path) ?? c.files[0];
        const at = row?.path ?? path;
        if (hiddenPath(at) || !withinRoot(at, ctx.vault.root)) continue;
        const from = row?.from !== undefined && !hiddenPath(row.from) && withinRoot(row.from, ctx.vault.root) ? row.from : undefined;
        const d = await fileDiff(git, c.parents[0] ?? empty, c.sha, at, () => null, cap * 4 + 4096, from);
        rows.push(rowOf(d, at, { sha: c.sha, message: shape(c, ctx.vault.root).message }));
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
    const text = rows.map((r) => `${r.sha ? `commit ${r.sha}\n    ${(r.message ?? '').split('\n')[0]}\n` : `${path}: ${head ? head.slice(0, 10) : 'before the first commit'} → working tree\n`}${r.diff || '(no changes)'}`).join('\n') || 'No commits changed this file in that range.';
    return answer({ path, base: head, diffs: rows, total_chars: total }, text, [
      truncated && `Diffs cut at the read cap (${cap} of ${total} characters, setting readCapChars): narrow with since_sha or per_commit and limit.`,
      more && 'More commits changed this file: raise limit or narrow with since_sha.',
    ]);
  },
});

export const gitTools = [getHistory, getDiff];
