// MetadataCache: getFileCache built with our own parseMarkdown (what the app would hold for these
// fixtures); links resolved by the fake's own resolver (linkResolver.ts, not the plugin's code),
// overridden by a table of how the app resolves given links. Like the app it reacts to vault events
// later, not inside the write: after `delayMs`, each note whose content changed gets 'changed' (file,
// data, cache), then 'resolve' per note and one 'resolved' once links are recomputed. As in the app,
// a rename moves the cache without re-parsing (no 'changed'), a write of identical content is not
// re-parsed either, and notes listed in `uncached` never get a cache.
import { promises as fs, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Events } from './events.js';
import { TAbstractFile, TFile } from './files.js';
import type { Vault } from './vault.js';
import type { NoteMetadata } from '../../../src/core/markdown/metadata.js';
import { parseMarkdown } from '../../../src/core/markdown/parse.js';
import { linkpathOf } from '../../../src/core/markdown/links.js';
import { createHash } from 'node:crypto';
import { appResolve, FileIndex, type LinkTable } from './linkResolver.js';

export type CachedMetadata = NoteMetadata;

export interface MetadataCacheOptions {
  /** Delay between a vault change and its 'changed' event (ms). */
  delayMs?: number;
  /** 'sync': caches present at startup (restored from the app's IndexedDB); 'async': parsed after delayMs. */
  initialParse?: 'sync' | 'async';
  /** Notes the app never caches (it gives up on some files): no cache, no 'changed'. */
  uncached?: string[];
  /** How the app resolves given links: source path → link path → target path (null = unresolved). */
  linkTable?: LinkTable;
}

export class MetadataCache extends Events {
  resolvedLinks: Record<string, Record<string, number>> = {};
  unresolvedLinks: Record<string, Record<string, number>> = {};
  private readonly caches = new Map<string, CachedMetadata>();
  /** Content hash per parsed note: the app skips re-parsing (and fires nothing) when it is unchanged. */
  private readonly hashes = new Map<string, string>();
  private readonly uncached: Set<string>;
  private readonly linkTable: LinkTable;
  private readonly queue = new Set<TFile>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly delayMs: number;
  /** The vault's paths for the resolver; rebuilt after a create, delete or rename. */
  private fileIndex: FileIndex | null = null;

  constructor(private readonly vault: Vault, opts: MetadataCacheOptions = {}) {
    super();
    for (const ev of ['create', 'delete', 'rename'] as const) vault.on(ev, () => { this.fileIndex = null; });
    this.delayMs = opts.delayMs ?? 10;
    this.uncached = new Set(opts.uncached ?? []);
    this.linkTable = opts.linkTable ?? {};
    if (opts.initialParse === 'async') {
      for (const f of vault.getMarkdownFiles()) this.enqueue(f);
    } else {
      for (const f of vault.getMarkdownFiles()) {
        if (this.uncached.has(f.path)) continue;
        const text = readFileSync(join(vault.basePath, f.path), 'utf8');
        this.caches.set(f.path, parseMarkdown(text));
        this.hashes.set(f.path, hashOf(text));
      }
      this.computeLinks();
    }
    vault.on('create', (f: TAbstractFile) => { if (f instanceof TFile && !this.caches.has(f.path)) this.enqueue(f); });
    vault.on('modify', (f: TAbstractFile) => { if (f instanceof TFile) this.enqueue(f); });
    vault.on('delete', (f: TAbstractFile) => {
      if (!(f instanceof TFile)) return;
      const prev = this.caches.get(f.path) ?? null;
      this.caches.delete(f.path);
      this.hashes.delete(f.path);
      this.trigger('deleted', f, prev);
      this.schedule();
    });
    vault.on('rename', (f: TAbstractFile, oldPath: string) => {
      if (!(f instanceof TFile)) return;
      // The content did not change: the cache moves with the file, links are re-resolved, no 'changed'.
      const c = this.caches.get(oldPath);
      const h = this.hashes.get(oldPath);
      this.caches.delete(oldPath);
      this.hashes.delete(oldPath);
      if (c) this.caches.set(f.path, c);
      if (h) this.hashes.set(f.path, h);
      if (!c && f.extension === 'md') this.queue.add(f); // a file that became a note (.txt → .md)
      this.schedule();
    });
  }

  private enqueue(f: TFile): void {
    if (f.extension === 'md') this.queue.add(f);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, this.delayMs);
  }

  private async flush(): Promise<void> {
    const batch = [...this.queue];
    this.queue.clear();
    const changed: TFile[] = [];
    for (const f of batch) {
      if (this.vault.getFileByPath(f.path) !== f) continue; // deleted or moved again meanwhile
      if (this.uncached.has(f.path)) continue;
      let text: string;
      try { text = await fs.readFile(join(this.vault.basePath, f.path), 'utf8'); } catch { continue; }
      const hash = hashOf(text);
      if (this.caches.has(f.path) && this.hashes.get(f.path) === hash) continue; // same content: not re-parsed
      const cache = this.parse(text);
      this.caches.set(f.path, cache);
      this.hashes.set(f.path, hash);
      changed.push(f);
      this.trigger('changed', f, text, cache);
    }
    this.computeLinks();
    for (const f of changed) this.trigger('resolve', f);
    this.trigger('resolved');
  }

  /** The app parses in a worker; a method of its own so the long-task bench can tell its time from the plugin's. */
  private parse(text: string): CachedMetadata { return parseMarkdown(text); }

  /** Test helper: resolves once every queued change has been parsed and 'resolved' has fired. */
  async settled(): Promise<void> {
    while (this.timer || this.queue.size) {
      await new Promise((r) => setTimeout(r, this.delayMs + 1));
      await this.flushing;
    }
    await this.flushing;
  }

  private computeLinks(): void {
    const resolved: Record<string, Record<string, number>> = {};
    const unresolved: Record<string, Record<string, number>> = {};
    for (const [source, m] of this.caches) {
      const r: Record<string, number> = {};
      const u: Record<string, number> = {};
      for (const ref of [...(m.links ?? []), ...(m.embeds ?? []), ...(m.frontmatterLinks ?? [])]) {
        const lp = linkpathOf(ref.link);
        const target = lp === '' ? source : this.dest(lp, source);
        if (target) r[target] = (r[target] ?? 0) + 1;
        else u[lp] = (u[lp] ?? 0) + 1;
      }
      resolved[source] = r;
      unresolved[source] = u;
    }
    this.resolvedLinks = resolved;
    this.unresolvedLinks = unresolved;
  }

  getFileCache(file: TFile): CachedMetadata | null {
    return this.caches.get(file.path) ?? null;
  }

  getCache(path: string): CachedMetadata | null {
    return this.caches.get(path) ?? null;
  }

  /** The table's answer when it has one, else the fake's own resolver: never the plugin's code. */
  private dest(linkpath: string, sourcePath: string): string | null {
    const row = this.linkTable[sourcePath];
    if (row && linkpath in row) return row[linkpath] ?? null;
    this.fileIndex ??= new FileIndex(this.vault.getFiles().map((f) => f.path));
    return appResolve(linkpath, sourcePath, this.fileIndex);
  }

  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    const p = linkpath === '' ? sourcePath : this.dest(linkpath, sourcePath);
    return p ? this.vault.getFileByPath(p) : null;
  }

  /** The link text for `file` from `sourcePath` in the vault's "New link format" (Files and links):
   *  'shortest' ("Note" when the name is unique, else the full path), 'relative' (from the linking
   *  note's folder) or 'absolute' (the full vault path). */
  fileToLinktext(file: TFile, sourcePath: string, omitMdExtension = true): string {
    const format = this.vault.getConfig('newLinkFormat') ?? 'shortest';
    let base: string;
    if (format === 'absolute') base = file.path;
    else if (format === 'relative') base = relativePath(sourcePath, file.path);
    else {
      const unique = this.vault.getFiles().filter((f) => f.name.toLowerCase() === file.name.toLowerCase()).length === 1;
      base = unique ? file.name : file.path;
    }
    return omitMdExtension && file.extension === 'md' ? base.slice(0, -3) : base;
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `to` relative to the folder of `from` ("../b/Note.md"). */
function relativePath(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}
