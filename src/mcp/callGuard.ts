// What dispatch() checks before and after a tool runs so that no input can crash a call and no
// answer leaks the machine: arguments nested too deeply are refused up front (deep recursion in
// zod, yaml or JSON.stringify ended in "Maximum call stack size exceeded"), a file-system error
// becomes a refusal that names the cause in words, and an unexpected error's message is stripped
// of absolute paths and errno text. It also says WHY a known tool is not available to a caller.
import { Refusal } from '../core/errors.js';
import type { Caller, ServerDeps, ToolCall, ToolDef } from './tool.js';
import { isWriteTool } from './tool.js';

/** Deepest nesting of objects/arrays accepted in a call's arguments (frontmatter needs a handful). */
export const MAX_ARG_DEPTH = 64;

/** Refuses arguments nested deeper than MAX_ARG_DEPTH; iterative, so depth itself cannot overflow. */
export function checkDepth(args: unknown): void {
  const stack: [unknown, number][] = [[args, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > MAX_ARG_DEPTH) {
      throw new Refusal('invalid_argument', `The arguments are nested more than ${MAX_ARG_DEPTH} levels deep; flatten the value (frontmatter and updates rarely need more than a few levels) and call again.`);
    }
    for (const x of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) if (x !== null && typeof x === 'object') stack.push([x, d + 1]);
  }
}

/**
 * What every request that hands out vault content waits for before it runs (tools/call in dispatch(),
 * resources/read and prompts/get in metered()): the middleware's checks (limits, quota), then the
 * host's judgment of the vault's symbolic links. Before that judgment, a path behind a refused link
 * would be listed by the app yet refused on read: an answer unlike a missing path's.
 */
export async function beforeRun(deps: ServerDeps, call: ToolCall): Promise<void> {
  for (const m of deps.middleware) await m.before?.(call);
  await deps.host.linksJudged?.();
  await deps.host.caughtUp?.();
}

const FS_CAUSES: Record<string, [code: string, words: string]> = {
  ENOENT: ['not_found', 'the file is no longer there (removed or moved a moment ago); list the folder again'],
  ENAMETOOLONG: ['invalid_path', 'a name in the path is longer than the file system allows (255 bytes per name); shorten it'],
  ENOSPC: ['unavailable', 'the disk is full; free some space and retry'],
  EDQUOT: ['unavailable', 'the disk quota is used up; free some space and retry'],
  EROFS: ['unavailable', 'the vault is on a read-only file system'],
  EACCES: ['unavailable', 'the file system refused access (permissions); check the vault folder\'s permissions'],
  EPERM: ['unavailable', 'the file system refused the operation (permissions or a locked file)'],
  EBUSY: ['unavailable', 'the file is busy (locked by another program); retry in a moment'],
  EMFILE: ['unavailable', 'too many files are open at once; retry in a moment'],
  ENFILE: ['unavailable', 'too many files are open at once; retry in a moment'],
  EIO: ['unavailable', 'the disk reported an input/output error'],
  ENOTDIR: ['invalid_path', 'a component of the path is a file, not a folder'],
  EISDIR: ['invalid_argument', 'the path is a folder, not a file'],
  ELOOP: ['invalid_path', 'the path loops through symbolic links'],
};

/** Absolute paths (POSIX, drive letters, UNC) and errno words, replaced in text shown to a caller. */
const ABSOLUTE = /(?:\b[A-Za-z]:[\\/]|\\\\|(?<![\w.:/-])\/)[^\s'"`<>|]+/g;
const ERRNO_CODES = [...Object.keys(FS_CAUSES), 'ENOENT', 'EEXIST', 'ENOTEMPTY', 'EXDEV', 'EINVAL', 'EAGAIN', 'EPIPE', 'ENOTSUP', 'EOPNOTSUPP', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EBADF'];
const ERRNO = new RegExp(`\\b(?:${ERRNO_CODES.join('|')})\\b:?|\\berrno:?\\s*-?\\d+|\\bsyscall:?\\s*'?\\w+'?`, 'g');

export function scrubMessage(text: string): string {
  return text.replace(ABSOLUTE, '<path>').replace(ERRNO, '').replace(/\s{2,}/g, ' ').trim();
}

/** A refusal for anything a tool threw that is not already one: never an absolute path or errno text. */
export function internalRefusal(e: unknown, tool: string): Refusal {
  const code = (e as { code?: unknown } | null)?.code;
  const cause = typeof code === 'string' ? FS_CAUSES[code] : undefined;
  if (cause) {
    return new Refusal(cause[0], `${tool} could not finish: ${cause[1]}. Nothing was changed unless the message says otherwise.`);
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new Refusal('invalid_argument', `${tool} could not process these arguments (a value is nested or repeated too deeply); simplify them and call again.`);
  }
  const msg = scrubMessage(String((e as Error)?.message ?? e)).slice(0, 300) || 'unknown error';
  return new Refusal('internal_error', `The server failed while running ${tool}: ${msg}. The vault was not changed by this failure unless the message says otherwise; retry once, then report it.`);
}

/** Why a tool that exists is not in this caller's list, in words that say how to get it. */
export function whyNotAvailable(deps: ServerDeps, caller: Caller, tool: ToolDef): string {
  const s = deps.settings();
  if (tool.available && !tool.available(deps)) {
    return `The tool "${tool.name}" is not offered by this server: ${tool.unavailableHint ?? 'the feature it needs is not set up'}.`;
  }
  if (caller.disabledFamilies.includes(tool.family)) return `The tool "${tool.name}" belongs to the "${tool.family}" family, which is switched off for this key. Ask the vault owner to switch it on for the key (settings tab or keys set --disable-families).`;
  if (caller.root && tool.family === 'admin') return `The tool "${tool.name}" reports on the whole vault, so keys confined to a folder cannot use it. Ask the vault owner for a key without a root folder.`;
  if (isWriteTool(tool) && s.readOnly) return `The tool "${tool.name}" writes, and the server is in read-only mode. The vault owner can turn read-only mode off in the settings tab (or drop --read-only).`;
  if (isWriteTool(tool) && caller.scope !== 'readwrite') return `The tool "${tool.name}" writes, and this key has the read-only scope. Ask the vault owner for a readwrite key.`;
  return `The tool "${tool.name}" is not available to this key. Call tools/list to see the tools it may use.`;
}
