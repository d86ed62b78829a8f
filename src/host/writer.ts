// The write half of the host port. Tools never write files directly: they go through a VaultWriter,
// which the headless host implements with temp file + fsync + no-clobber publish (nodeWriter.ts) and
// the plugin with the app's own APIs (obsidianWriter.ts), so both give the same guarantees a tool
// can rely on. Paths are vault-relative NFC paths that tools have already validated.
import type { FileStat } from './fileStat.js';

/** Why a write did not happen; tools turn these into refusals. */
export type WriteFailure =
  | 'exists' // the destination is taken (create, rename, trash)
  | 'missing' // the file to change is not there
  | 'changed' // the file changed between the writer's own read and its publish
  | 'symlink' // the final component is a symbolic link (writes never follow one)
  | 'not_file' // a folder or something else stands where a file was expected
  | 'outside'; // a parent folder resolves outside the vault

export class WriteError extends Error {
  constructor(readonly reason: WriteFailure, message: string, readonly path: string) {
    super(message);
    this.name = 'WriteError';
  }
}

export function isWriteError(e: unknown, reason?: WriteFailure): e is WriteError {
  return e instanceof WriteError && (reason === undefined || e.reason === reason);
}

export interface ProcessResult {
  before: Uint8Array;
  after: Uint8Array;
  /** False when `fn` returned null or the same bytes: nothing was written. */
  changed: boolean;
}

export interface RenameResult {
  /** True when the host's own rename already rewrote incoming links (Obsidian with "update internal links" on). */
  linksUpdated: boolean;
}

/** Runs under the path's lock with the file's current bytes; throws (a Refusal) to stop the operation. */
export type Check = (current: Uint8Array) => void;

export interface VaultWriter {
  /** Creates a file that must not exist yet (no-clobber), creating parent folders. */
  create(path: string, data: Uint8Array | string): Promise<FileStat>;
  /**
   * Atomic read-modify-write of an existing file. `fn` gets the current bytes and returns the new
   * content, or null to write nothing; it may throw (a Refusal) to abort with nothing written. Calls
   * for one path are serialised within this process, so `fn` sees the result of the previous call;
   * a change by someone else between the read and the publish fails with WriteError('changed').
   */
  process(path: string, fn: (current: Uint8Array) => Uint8Array | string | null): Promise<ProcessResult>;
  /** Writes a non-note file: creates it, or (overwrite) replaces it when `check` accepts the current bytes. */
  writeBinary(path: string, data: Uint8Array, opts: { overwrite: boolean; check?: (current: Uint8Array | null) => void }): Promise<{ created: boolean }>;
  /** Moves a file or folder to a path that must not exist (no replace), creating parent folders. */
  rename(from: string, to: string, opts?: { updateLinks?: boolean; check?: Check }): Promise<RenameResult>;
  /** Soft delete; returns where it went ('.trash/…' headless, a description in Obsidian). */
  trash(path: string, check?: Check): Promise<string>;
  /** Permanent delete of a file: null. In Obsidian the user's "Deleted files" setting still decides,
   *  so the answer can be where it went (as from trash). */
  remove(path: string, check?: Check): Promise<string | null>;
  /** Creates a folder (and its parents); no error when it exists. */
  mkdir(path: string): Promise<void>;
  /** Removes an empty folder; false when it is not empty or not there. */
  removeEmptyFolder(path: string): Promise<boolean>;
}
