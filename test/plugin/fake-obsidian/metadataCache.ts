// MetadataCache: getFileCache built with our own parseMarkdown (what the app would hold for these
// fixtures), links resolved with our resolveLinkpath. Like the app it reacts to vault events later,
// not inside the write: after `delayMs`, each changed note gets 'changed' (file, data, cache), then
// 'resolve' per note and one 'resolved' once links are recomputed.
import { promises as fs, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Events } from './events.js';
import { TAbstractFile, TFile } from './files.js';
import type { Vault } from './vault.js';
import type { NoteMetadata } from '../../../src/core/markdown/metadata.js';
import { parseMarkdown } from '../../../src/core/markdown/parse.js';
import { LinkIndex, resolveLinkpath, linkpathOf } from '../../../src/core/markdown/links.js';

export type CachedMetadata = NoteMetadata;

export interface MetadataCacheOptions {
  /** Delay between a vault change and its 'changed' event (ms). */
  delayMs?: number;
  /** 'sync': caches present at startup (restored from the app's IndexedDB); 'async': parsed after delayMs. */
  initialParse?: 'sync' | 'async';
}

export class MetadataCache extends Events {
  resolvedLinks: Record<string, Record<string, number>> = {};
  unresolvedLinks: Record<string, Record<string, number>> = {};
  private readonly caches = new Map<string, CachedMetadata>();
  private readonly index = new LinkIndex([]);
  private readonly queue = new Set<TFile>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly delayMs: number;

  constructor(private readonly vault: Vault, opts: MetadataCacheOptions = {}) {
    super();
    this.delayMs = opts.delayMs ?? 10;
    for (const f of vault.getFiles()) this.index.add(f.path);
    if (opts.initialParse === 'async') {
      for (const f of vault.getMarkdownFiles()) this.enqueue(f);
    } else {
      for (const f of vault.getMarkdownFiles()) this.caches.set(f.path, parseMarkdown(readFileSync(join(vault.basePath, f.path), 'utf8')));
      this.computeLinks();
    }
    vault.on('create', (f: TAbstractFile) => { if (f instanceof TFile) { this.index.add(f.path); this.enqueue(f); } });
    vault.on('modify', (f: TAbstractFile) => { if (f instanceof TFile) this.enqueue(f); });
    vault.on('delete', (f: TAbstractFile) => {
      if (!(f instanceof TFile)) return;
      const prev = this.caches.get(f.path) ?? null;
      this.caches.delete(f.path);
      this.index.remove(f.path);
      this.trigger('deleted', f, prev);
      this.schedule();
    });
    vault.on('rename', (f: TAbstractFile, oldPath: string) => {
      if (!(f instanceof TFile)) return;
      const c = this.caches.get(oldPath);
      this.caches.delete(oldPath);
      if (c) this.caches.set(f.path, c);
      this.index.remove(oldPath);
      this.index.add(f.path);
      this.enqueue(f);
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
      let text: string;
      try { text = await fs.readFile(join(this.vault.basePath, f.path), 'utf8'); } catch { continue; }
      const cache = parseMarkdown(text);
      this.caches.set(f.path, cache);
      changed.push(f);
      this.trigger('changed', f, text, cache);
    }
    this.computeLinks();
    for (const f of changed) this.trigger('resolve', f);
    this.trigger('resolved');
  }

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
        const target = lp === '' ? source : resolveLinkpath(lp, source, this.index);
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

  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    const p = linkpath === '' ? sourcePath : resolveLinkpath(linkpath, sourcePath, this.index);
    return p ? this.vault.getFileByPath(p) : null;
  }

  /** Shortest form ("Note" when the name is unique, else the full path), as with the default
   *  "Shortest path when possible" link format. */
  fileToLinktext(file: TFile, _sourcePath: string, omitMdExtension = true): string {
    const unique = this.vault.getFiles().filter((f) => f.name.toLowerCase() === file.name.toLowerCase()).length === 1;
    const base = unique ? file.name : file.path;
    return omitMdExtension && file.extension === 'md' ? base.slice(0, -3) : base;
  }
}
