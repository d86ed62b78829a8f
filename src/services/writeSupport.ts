// What every write tool shares: expected_hash rules, the precondition setting, size caps, note text
// decoding that round-trips bytes, and turning host write failures into refusals.
import { refuse, Refusal } from '../core/errors.js';
import { contentHash, CONTENT_HASH_PATTERN } from '../core/hash.js';
import type { Settings } from '../core/settings.js';
import type { Services } from '../mcp/services.js';
import { isWriteError } from '../host/writer.js';
import { isNotePath } from '../core/paths.js';

/** Refuses a malformed expected_hash before anything else happens. */
export function checkHashArg(expected: string | undefined): void {
  if (expected === undefined) return;
  if (!CONTENT_HASH_PATTERN.test(expected)) {
    refuse('malformed_precondition', `expected_hash "${expected.length > 80 ? expected.slice(0, 80) + '…' : expected}" is not a content hash; pass the content_hash a read returned, "sha256:" followed by 64 lowercase hex digits.`);
  }
}

/** With requireHashForDestructive on, a destructive call without expected_hash is refused. */
export function requireHash(settings: Settings, expected: string | undefined, what: string, readWith = 'read_note'): void {
  if (expected === undefined && settings.requireHashForDestructive) {
    refuse('precondition_required', `This vault requires expected_hash for ${what}. Read the file first (${readWith}) and pass its content_hash as expected_hash.`, { setting: 'requireHashForDestructive' });
  }
}

/** The current bytes must still be what the caller read. */
export function checkFresh(bytes: Uint8Array, expected: string | undefined, path: string, readWith = 'read_note'): string {
  const current = contentHash(bytes);
  if (expected !== undefined && current !== expected) {
    refuse('stale_precondition', `"${path}" changed since you read it (its hash is no longer ${expected}); nothing was written. Read it again with ${readWith}, redo your change on the current text, and resend with expected_hash="${current}".`, { current_hash: current });
  }
  return current;
}

export function checkSize(bytes: number, settings: Settings, path: string): void {
  if (bytes > settings.maxWriteBytes) {
    refuse('payload_too_large', `The result for "${path}" would be ${bytes} bytes, over the ${settings.maxWriteBytes}-byte write limit (setting maxWriteBytes); nothing was written. Split the content into several notes or files.`, { size: bytes, limit: settings.maxWriteBytes, setting: 'maxWriteBytes' });
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();

/** A note's text as read_note sees it (BOM apart), or a refusal when the bytes are not UTF-8. */
export function decodeNote(bytes: Uint8Array, path: string): { bom: boolean; text: string } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const text = decoder.decode(bom ? bytes.subarray(3) : bytes);
  const back = encoder.encode(text);
  const orig = bom ? bytes.subarray(3) : bytes;
  let same = back.length === orig.length;
  for (let i = 0; same && i < back.length; i++) same = back[i] === orig[i];
  if (!same) refuse('unsupported', `"${path}" is not valid UTF-8 text, so editing it as text could change bytes you did not touch; nothing was written. Replace it whole with replace_frontmatter=true, or handle it as a file.`);
  return { bom, text };
}

export function encodeNote(bom: boolean, text: string): Uint8Array {
  const t = text.startsWith('\uFEFF') ? text.slice(1) : text;
  return encoder.encode(bom ? '\uFEFF' + t : t);
}

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** Host write failures → refusals (anything else is an internal error). */
export function asRefusal(e: unknown, path: string): never {
  if (e instanceof Refusal) throw e;
  if (isWriteError(e)) {
    switch (e.reason) {
      case 'exists': return refuse('already_exists', `"${e.path}" already exists; nothing was changed. Pick another path, or change the existing one with edit_note / write_file(overwrite=true).`, { path: e.path });
      case 'missing': return refuse('not_found', `"${e.path}" no longer exists; nothing was changed. List the folder again (list_notes / list_files).`, { path: e.path });
      case 'changed': return refuse('concurrent_write', `"${e.path}" was changed by someone else while this write was in progress; nothing was written. Read it again and retry.`, { path: e.path });
      case 'symlink': return refuse('invalid_path', `"${e.path}" is a symbolic link; write tools never follow or replace one. Write to the file it points to by its own path.`, { path: e.path });
      case 'not_file': return refuse('invalid_argument', `"${e.path}" is not a regular file (a folder?); nothing was changed.`, { path: e.path });
      case 'outside': return refuse('invalid_path', `${e.message}; nothing was written.`, { path: e.path });
    }
  }
  throw e;
}

export async function guarded<T>(path: string, fn: () => Promise<T>): Promise<T> {
  try { return await fn(); } catch (e) { asRefusal(e, path); }
}

// ---- change-feed attribution ----

/** What a write will do to one note, as the change feed records it (changes/service.ts recordOwn). */
export interface OwnWrite { path: string; kind: 'created' | 'modified' | 'moved' | 'deleted'; from?: string; reason?: string }

/**
 * Runs a write attributed to `keyName` in the change feed: every note it will touch is recorded
 * BEFORE `fn` writes (so the host event that follows is the key's, not `human`), and the records are
 * withdrawn when `fn` throws, or when `wrote(result)` says nothing was written. Non-note paths are
 * skipped (the feed lists notes only). Without a change feed (`services.changes` absent) it just runs `fn`.
 */
export async function attributed<T>(
  services: Services, keyName: string, writes: OwnWrite[], fn: () => Promise<T>, wrote: (r: T) => boolean = () => true,
): Promise<T> {
  const feed = services.changes;
  const undo = feed ? writes.filter((w) => isNotePath(w.path) || (w.from !== undefined && isNotePath(w.from))).map((w) => feed.recordOwn(w.path, w.kind, keyName, { ...(w.from ? { from: w.from } : {}), ...(w.reason ? { reason: w.reason } : {}) })) : [];
  const withdraw = () => { for (const u of undo) u(); };
  let r: T;
  try { r = await fn(); } catch (e) { withdraw(); throw e; }
  if (!wrote(r)) withdraw();
  return r;
}

/**
 * For writes the host may make on its own during an operation (Obsidian rewriting links in other
 * notes inside FileManager.renameFile): records each note that MAY change, before the operation.
 * `done()` after it: once the feed has handled the events so far, the records no event used are
 * withdrawn, so they cannot be pinned on a later human edit. `withdraw()` drops them all at once.
 */
export function attributeMaybe(services: Services, keyName: string, writes: OwnWrite[]): { withdraw(): void; done(): Promise<void> } {
  const feed = services.changes;
  const undo = feed ? writes.filter((w) => isNotePath(w.path)).map((w) => feed.recordOwn(w.path, w.kind, keyName, { ...(w.reason ? { reason: w.reason } : {}) })) : [];
  const withdraw = () => { for (const u of undo) u(); undo.length = 0; };
  return { withdraw, done: async () => { await feed?.settle?.().catch(() => undefined); withdraw(); } };
}
