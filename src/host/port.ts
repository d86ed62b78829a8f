// The host port: everything above it (services, tools, HTTP) is shared by the Obsidian plugin and the
// headless server; only a host knows where bytes and metadata come from.
// Paths crossing this port are vault-relative, '/'-separated and NFC-normalised (see core/paths.ts);
// a host maps them to whatever spelling the file system uses (macOS may store NFD).
import type { StorageHealth } from './storageHealth.js';
import type { NoteMetadata } from '../core/markdown/metadata.js';
import type { VaultWriter } from './writer.js';
import type { FileStat } from './fileStat.js';

export type { FileStat } from './fileStat.js';

export type VaultEvent =
  | { type: 'create' | 'modify' | 'delete'; path: string }
  | { type: 'rename'; path: string; oldPath: string }
  /** Metadata for `path` was (re)computed; the link graph may have changed. */
  | { type: 'metadata'; path: string }
  /** All pending metadata work is done (Obsidian's `resolved`). */
  | { type: 'resolved' };

/** Small private files of the plugin (keys, indexes, logs) in `<configDir>/plugins/<id>/`. */
/** What DataStore.write takes: bytes, a text (whole or in parts), or a writer that sends the file a
 *  piece at a time (awaiting each piece before reusing its bytes). */
export type WriteBody = Uint8Array | string | readonly string[] | ((put: (piece: Uint8Array) => Promise<void>) => Promise<void>);

export interface DataStore {
  readonly dir: string; // absolute folder, for messages only
  read(name: string): Promise<Uint8Array | null>;
  /** Atomic replace: readers see the old or the new bytes, never a mix. A text given in parts is written
   *  part after part, each encoded in its own task (joining megabytes of text was itself a long task).
   *  A writer function is given the file's pieces' sink (core/pieceWriter.ts); when it throws, the
   *  old file stays as it was. */
  write(name: string, bytes: WriteBody): Promise<void>;
  /** Adds to the end; a text given in parts is encoded a part at a time (as `write`). A failure leaves
   *  the file as it was. */
  append(name: string, text: string | readonly string[]): Promise<void>;
  remove(name: string): Promise<void>;
  size(name: string): Promise<number | null>;
  /** A cheap fingerprint of a file (device, inode, size, change and modification times), null when
   *  it is missing: a changed value means the file was replaced or edited since the last look. */
  signature?(name: string): Promise<string | null>;
  /** Takes an exclusive lock on `name` shared with other processes using the same folder (the CLI,
   *  the plugin); resolves with its release. A lock left by a crashed holder expires after 10 s. */
  lock?(name: string): Promise<() => Promise<void>>;
  /** Writes that failed, by file name, until the file is written again (background saves report here). */
  readonly health?: StorageHealth;
}

export interface VaultHost {
  readonly kind: 'node' | 'obsidian';
  /** Display name of the vault (its folder name). */
  readonly name: string;
  /** Absolute path of the vault on disk, when there is one (messages, git). */
  readonly basePath: string | null;
  /** The vault's config folder name, normally `.obsidian`. */
  readonly configDir: string;

  /** Resolves when the first scan is done and every note has metadata. */
  ready(): Promise<void>;
  /** Resolves once every symbolic link in the vault has been judged (the in-app host's start-up
   *  survey). Tool calls wait for it: before it, a path behind a refused link would be listed by the
   *  app yet refused on read, an answer that differs from a missing path's. */
  linksJudged?(): Promise<void>;
  /** Resolves once events the host recorded to handle later (the in-app host, after a big move) are
   *  handled in their own slices, so the files() a tool call makes next has none left to handle at once.
   *  Tool calls wait for it; bounded, so an app that never stops reporting cannot hold a call. */
  caughtUp?(): Promise<void>;
  /** Notes whose metadata is not yet (re)computed: index answers are stale while > 0. */
  pendingCount(): number;

  /** Every file outside dot-folders. */
  files(): FileStat[];
  /** How many of files() are notes (.md), for hosts that keep the count (status polls call this
   *  every few seconds: at 100k files, copying and filtering the list each time was a long task). */
  noteCount?(): number;
  /** Every folder outside dot-folders, without the root. */
  folders(): string[];
  stat(path: string): FileStat | null;
  /** stat(path) !== null without building the stat (filters ask it of every search candidate). */
  isFile?(path: string): boolean;
  isFolder(path: string): boolean;
  /**
   * Where a listed path really is when a symlink is on its way (host/containment.ts): the vault path
   * of a file symlink's target inside the vault, null inside an allow-listed outside folder,
   * undefined when the path is its own real location. Root confinement checks the real location.
   */
  realPathOf?(path: string): string | null | undefined;
  /**
   * Brings one path (file or folder) in line with the disk before a tool answers, so a save by
   * another program is visible to the next call even before the watcher reports it.
   */
  sync?(path: string): Promise<void>;
  readText(path: string): Promise<string>;
  readBytes(path: string): Promise<Uint8Array>;

  /** Parsed metadata of a markdown note; null for non-notes or before the first parse. */
  metadata(path: string): NoteMetadata | null;
  /** Like `metadataCache.getFirstLinkpathDest`: the file a link from `sourcePath` opens, or null. */
  resolveLink(linkpath: string, sourcePath: string): string | null;
  /** source path → target path → count, as `metadataCache.resolvedLinks`. */
  resolvedLinks(): Record<string, Record<string, number>>;
  /** source path → unresolved link text → count, as `metadataCache.unresolvedLinks`. */
  unresolvedLinks(): Record<string, Record<string, number>>;
  /**
   * True when the host gives a row a new object whenever that row changes and never mutates one in
   * place (NodeHost), so a consumer can find changed rows by identity instead of rebuilding. Left
   * unset for Obsidian: the app's cache makes no such promise.
   */
  readonly linkRowsReplaced?: boolean;
  /**
   * resolvedLinks() and unresolvedLinks() together as maps read row by row on demand (a host whose
   * plain-object maps would be a copy: in Obsidian a copy of 100k rows is a 300 ms block of the UI
   * thread, and 21 MB of tables). Optional: without it the two calls are used as they are.
   */
  linkRows?(): LinkRowMaps;

  /** Subscribe to vault events; returns the unsubscribe function. */
  subscribe(listener: (event: VaultEvent) => void): () => void;

  /** The plugin folder: keys, settings, audit log, change feed (what cannot be rebuilt). */
  readonly data: DataStore;
  /** Rebuildable caches (keyword index, vectors, models, WASM): outside the vault by default
   *  (src/host/cacheDir.ts); the same folder as `data` when kept inside. */
  readonly cache: DataStore;
  /** The write half (host/writer.ts): no-clobber create, atomic replace, no-replace rename, trash. */
  readonly writer: VaultWriter;
  close(): Promise<void>;
}

/** One link map (source → target → count) read through get/keys, so a host can keep it in something
 *  other than a plain object (an object of 100k keys rehashes and enumerates in one block). */
export interface LinkRowMap {
  get(source: string): Record<string, number> | undefined;
  keys(): Iterable<string>;
}

export interface LinkRowMaps {
  resolved: LinkRowMap;
  unresolved: LinkRowMap;
}
