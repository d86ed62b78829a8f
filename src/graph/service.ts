// The graph service: a LinkGraph kept in step with the host. Structural events (create, delete,
// rename) change how other notes' links resolve: when the host replaces changed rows by new objects
// (NodeHost, `linkRowsReplaced`) only rows whose object changed are applied; otherwise (Obsidian)
// they schedule a full rebuild from the host's resolvedLinks; a re-parsed note ('metadata') only replaces its own row, re-resolved link by link. Work is lazy: events mark
// what is dirty, the next query applies it. Rows re-parsed before the host finished resolving links
// ('resolved') are applied again after it, so an early query never pins a half-resolved row.
import type { LinkRowMap, VaultEvent, VaultHost } from '../host/port.js';
import type { NoteMetadata, ReferenceCache } from '../core/markdown/metadata.js';
import { LinkIndex, linkNameKey, linkpathOf, nameKeyOf, resolveLinkpath, splitLink } from '../core/markdown/links.js';
import { visibleIn } from '../services/scopedVault.js';
import { LinkGraph, rowMapOf, type LinkRows } from './linkGraph.js';
import { Slicer, SLICE_MS } from '../services/slicer.js';

export type LinkKind = 'wikilink' | 'embed' | 'markdown' | 'frontmatter';

export interface LinkRef {
  kind: LinkKind;
  /** The link target as written, without alias (e.g. "Note#Heading"). */
  link: string;
  /** The `#Heading` / `#^block` part without '#', or null. */
  anchor: string | null;
  display: string | null;
  /** 1-based line; null for frontmatter links. */
  line: number | null;
  /** Offset of the link in the note text (frontmatter links: -1). */
  offset: number;
  /** The vault path the link opens, or null when it resolves to nothing. */
  target: string | null;
  /** The frontmatter key of a frontmatter link. */
  key?: string;
}

function kindOf(ref: ReferenceCache, embed: boolean): LinkKind {
  if (embed || ref.original.startsWith('!')) return 'embed';
  return ref.original.startsWith('[[') ? 'wikilink' : 'markdown';
}

/** Resolves a link path from a source note to a vault path or null. */
export type LinkResolver = (linkpath: string, source: string) => string | null;

/**
 * The resolver a root-confined key sees: a link whose vault-wide target lies inside the root keeps it;
 * one that opens a file outside is resolved again among the root's files only (the same rules as
 * headless resolution), so it reads as if the outside file did not exist: another match inside the
 * root, or a dangling link. Nothing about the outside target survives.
 */
export function scopedResolver(host: VaultHost, root: string, visibleFiles: Iterable<string>): LinkResolver {
  let index: LinkIndex | null = null;
  return (lp, source) => {
    const t = host.resolveLink(lp, source);
    if (t === null || visibleIn(host, root, t)) return t;
    index ??= new LinkIndex(visibleFiles);
    const again = resolveLinkpath(lp, source, index);
    return again !== null && visibleIn(host, root, again) ? again : null;
  };
}

/**
 * Every link of a note in document order (frontmatter links first), each resolved through the host (or
 * `resolver`). With `onlyTo`, a link whose name cannot lead to that file is not resolved (its target
 * is null): a hub note's backlinks resolved every link of every linking note, 20-40 ms a call.
 */
export function refsOf(host: VaultHost, source: string, meta: NoteMetadata | null = host.metadata(source), resolver: LinkResolver = (lp, src) => host.resolveLink(lp, src), onlyTo?: string): LinkRef[] {
  if (!meta) return [];
  const out: LinkRef[] = [];
  const toKey = onlyTo === undefined ? null : nameKeyOf(onlyTo.normalize('NFC'));
  const resolve = (link: string): string | null => {
    const lp = linkpathOf(link);
    if (lp === '') return source;
    return toKey !== null && linkNameKey(lp) !== toKey ? null : resolver(lp, source);
  };
  const anchorOf = (link: string) => { const s = splitLink(link).subpath; return s ? s.slice(1) : null; };
  for (const f of meta.frontmatterLinks ?? []) {
    out.push({ kind: 'frontmatter', link: f.link, anchor: anchorOf(f.link), display: f.displayText ?? null, line: null, offset: -1, target: resolve(f.link), key: f.key });
  }
  const body: LinkRef[] = [];
  for (const [list, embed] of [[meta.links ?? [], false], [meta.embeds ?? [], true]] as const) {
    for (const r of list) {
      body.push({ kind: kindOf(r, embed), link: r.link, anchor: anchorOf(r.link), display: r.displayText ?? null, line: r.position.start.line + 1, offset: r.position.start.offset, target: resolve(r.link) });
    }
  }
  body.sort((a, b) => a.offset - b.offset);
  return out.concat(body);
}

/** One source's rows as the host's resolvedLinks/unresolvedLinks would hold them (same counting). */
export function rowOf(host: VaultHost, source: string, resolver: LinkResolver = (lp, src) => host.resolveLink(lp, src)): { resolved: Record<string, number>; unresolved: Record<string, number> } | null {
  const meta = host.metadata(source);
  if (!meta || !host.stat(source)) return null;
  const resolved: Record<string, number> = {};
  const unresolved: Record<string, number> = {};
  for (const ref of [...(meta.links ?? []), ...(meta.embeds ?? []), ...(meta.frontmatterLinks ?? [])]) {
    const lp = linkpathOf(ref.link);
    const target = lp === '' ? source : resolver(lp, source);
    if (target) resolved[target] = (resolved[target] ?? 0) + 1;
    else unresolved[lp] = (unresolved[lp] ?? 0) + 1;
  }
  return { resolved, unresolved };
}

export class GraphService {
  private graph: LinkGraph | null = null;
  private full = true;
  /** A create/delete/rename since the last query: rows elsewhere may resolve differently. */
  private structural = false;
  /** The host row objects each graph row was built from (for hosts with linkRowsReplaced). */
  private readonly seen = new Map<string, [Record<string, number> | undefined, Record<string, number> | undefined]>();
  private readonly dirtyRows = new Set<string>();
  private readonly sinceResolved = new Set<string>();
  private unsubscribe: (() => void) | null = null;
  /** Bumped whenever the graph changes (scoped views are rebuilt from it). */
  private version = 0;
  private readonly scopedCache = new Map<string, { version: number; graph: LinkGraph; resolver: LinkResolver }>();
  /** Last full build: ms and edges, for status and the bench. */
  lastBuild: { ms: number; notes: number; edges: number } | null = null;
  private preparing: Promise<void> | null = null;
  private readonly scopedPreparing = new Map<string, Promise<void>>();

  constructor(private readonly host: VaultHost, private readonly clock: () => number = () => performance.now()) {}

  start(): void {
    this.unsubscribe ??= this.host.subscribe((e) => this.onEvent(e));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private onEvent(e: VaultEvent): void {
    switch (e.type) {
      case 'create': case 'delete': case 'rename': this.structural = true; break;
      case 'metadata': this.dirtyRows.add(e.path); this.sinceResolved.add(e.path); break;
      case 'resolved':
        for (const p of this.sinceResolved) this.dirtyRows.add(p);
        this.sinceResolved.clear();
        break;
      default: break;
    }
  }

  /** The current graph, bringing it up to date first. */
  get(): LinkGraph {
    if (!this.unsubscribe) this.start();
    if (this.graph?.worn()) this.full = true;
    if (this.structural && this.graph && !this.full && this.host.linkRowsReplaced) {
      this.applyChangedRows(this.graph);
      return this.graph;
    }
    if (this.full || this.structural || !this.graph) {
      const t0 = this.clock();
      const resolved = this.host.resolvedLinks();
      const unresolved = this.host.unresolvedLinks();
      this.graph = LinkGraph.build(resolved, unresolved);
      this.full = false;
      this.structural = false;
      this.dirtyRows.clear();
      this.seen.clear();
      if (this.host.linkRowsReplaced) for (const src of new Set([...Object.keys(resolved), ...Object.keys(unresolved)])) this.seen.set(src, [resolved[src], unresolved[src]]);
      this.lastBuild = { ms: this.clock() - t0, notes: Object.keys(resolved).length, edges: this.graph.edgeCount() };
      this.version++;
      return this.graph;
    }
    if (this.dirtyRows.size) {
      // Re-resolve only the re-parsed notes' own links: cheaper than reading the host's whole maps
      // (and, in Obsidian, correct before the app has finished resolving).
      for (const p of this.dirtyRows) {
        const row = rowOf(this.host, p);
        if (row) this.graph.setRow(p, row.resolved, row.unresolved); else this.graph.setRow(p, undefined, undefined);
      }
      this.dirtyRows.clear();
      this.version++;
    }
    return this.graph;
  }

  /**
   * Brings the graph up to date in slices that yield to the event loop (in Obsidian this is the UI
   * thread), so the synchronous get()/scoped() a tool calls right after finds nothing left to do.
   * A full rebuild at 100k notes is about a second of work; here it is spread over many short tasks.
   * Tools call it through freshness() (graph/access.ts); concurrent callers share one run.
   */
  prepare(root = ''): Promise<void> {
    if (!this.unsubscribe) this.start();
    this.preparing ??= this.bringUpToDate().finally(() => { this.preparing = null; });
    if (root === '') return this.preparing;
    return this.preparing.then(() => {
      let p = this.scopedPreparing.get(root);
      if (!p) {
        p = this.prepareScoped(root).finally(() => this.scopedPreparing.delete(root));
        this.scopedPreparing.set(root, p);
      }
      return p;
    });
  }

  private async bringUpToDate(): Promise<void> {
    // A structural change while rebuilding means another pass; after a few, the last pass stands
    // (get() would then redo it synchronously, as before).
    for (let pass = 0; pass < 4; pass++) {
      const slicer = new Slicer(this.clock);
      if (this.graph?.worn()) this.full = true;
      if (this.structural && this.graph && !this.full && this.host.linkRowsReplaced) { this.applyChangedRows(this.graph); continue; }
      if (this.full || this.structural || !this.graph) {
        this.full = false;
        this.structural = false;
        this.dirtyRows.clear();
        const t0 = this.clock();
        // A host whose plain-object maps would be a copy (Obsidian) gives views read row by row.
        const { resolved, unresolved } = this.host.linkRows?.() ?? { resolved: rowMapOf(this.host.resolvedLinks()), unresolved: rowMapOf(this.host.unresolvedLinks()) };
        const g = new LinkGraph();
        let notes = 0;
        for (const source of resolved.keys()) { notes++; g.setRow(source, resolved.get(source), unresolved.get(source)); if (slicer.due()) await slicer.pause(); }
        for (const source of unresolved.keys()) { if (resolved.get(source) === undefined) g.setRow(source, undefined, unresolved.get(source)); if (slicer.due()) await slicer.pause(); }
        for (const steps = g.finish(); !steps.next().done;) if (slicer.due()) await slicer.pause();
        this.installBuilt(g, resolved, unresolved, notes, this.clock() - t0);
        continue;
      }
      if (!this.dirtyRows.size) return;
      // Re-parsed notes: their own rows, re-resolved link by link, a slice at a time (the clock read
      // after each row: a row resolves every link through the app, 32 rows were 60-80 ms at 100k notes).
      const rows = new Slicer(this.clock, SLICE_MS, 1);
      const graph = this.graph;
      for (const p of [...this.dirtyRows]) {
        if (this.graph !== graph || this.full || this.structural) break;
        this.dirtyRows.delete(p);
        const row = rowOf(this.host, p);
        graph.setRow(p, row?.resolved, row?.unresolved);
        this.version++;
        if (rows.due()) await rows.pause();
      }
    }
  }

  private installBuilt(g: LinkGraph, resolved: LinkRowMap, unresolved: LinkRowMap, notes: number, ms: number): void {
    this.graph = g;
    this.seen.clear();
    if (this.host.linkRowsReplaced) for (const src of new Set([...resolved.keys(), ...unresolved.keys()])) this.seen.set(src, [resolved.get(src), unresolved.get(src)]);
    this.lastBuild = { ms, notes, edges: g.edgeCount() };
    this.version++;
  }

  /** scoped(root)'s build, in slices; the result is what scoped(root) returns until the graph changes. */
  private async prepareScoped(root: string): Promise<void> {
    const version = this.version;
    const hit = this.scopedCache.get(root);
    if (hit && hit.version === version) return;
    const slicer = new Slicer(this.clock);
    const files = this.host.files().map((f) => f.path).filter((p) => visibleIn(this.host, root, p));
    const resolver = scopedResolver(this.host, root, files);
    const resolved: LinkRows = {};
    const unresolved: LinkRows = {};
    const rows = new Slicer(this.clock, SLICE_MS, 4);
    for (const p of files) {
      const row = rowOf(this.host, p, resolver);
      if (row) { resolved[p] = row.resolved; unresolved[p] = row.unresolved; }
      if (rows.due()) await rows.pause();
    }
    if (this.version !== version || this.full || this.structural || this.dirtyRows.size) return; // changed meanwhile: scoped() builds it
    const g = new LinkGraph();
    for (const source in resolved) { g.setRow(source, resolved[source], unresolved[source]); if (slicer.due()) await slicer.pause(); }
    for (const steps = g.finish(); !steps.next().done;) if (slicer.due()) await slicer.pause();
    if (this.version !== version) return;
    if (this.scopedCache.size > 32) this.scopedCache.clear();
    this.scopedCache.set(root, { version, graph: g, resolver });
  }

  /**
   * The graph as a key confined to `root` sees it: only notes inside the root, their links resolved
   * by scopedResolver (links that open a file outside re-resolve inside the root or dangle). Built
   * from the root's own notes, cached until the vault's graph changes.
   */
  scoped(root: string): { graph: LinkGraph; resolver: LinkResolver } {
    this.get();
    const hit = this.scopedCache.get(root);
    if (hit && hit.version === this.version) return hit;
    const files = this.host.files().map((f) => f.path).filter((p) => visibleIn(this.host, root, p));
    const resolver = scopedResolver(this.host, root, files);
    const resolved: Record<string, Record<string, number>> = {};
    const unresolved: Record<string, Record<string, number>> = {};
    for (const p of files) {
      const row = rowOf(this.host, p, resolver);
      if (!row) continue;
      resolved[p] = row.resolved;
      unresolved[p] = row.unresolved;
    }
    const entry = { version: this.version, graph: LinkGraph.build(resolved, unresolved), resolver };
    if (this.scopedCache.size > 32) this.scopedCache.clear();
    this.scopedCache.set(root, entry);
    return entry;
  }

  /** After a structural event on a host with linkRowsReplaced: apply rows whose object changed. */
  private applyChangedRows(graph: LinkGraph): void {
    const resolved = this.host.resolvedLinks();
    const unresolved = this.host.unresolvedLinks();
    const apply = (src: string) => {
      const r = resolved[src];
      const u = unresolved[src];
      const was = this.seen.get(src);
      if (was && was[0] === r && was[1] === u) return;
      graph.setRow(src, r, u);
      this.seen.set(src, [r, u]);
    };
    for (const src in resolved) apply(src);
    for (const src in unresolved) if (!(src in resolved)) apply(src);
    for (const src of [...this.seen.keys()]) {
      if (src in resolved || src in unresolved) continue;
      graph.setRow(src, undefined, undefined);
      this.seen.delete(src);
    }
    // The host's rows are current, re-parsed notes included.
    this.dirtyRows.clear();
    this.structural = false;
    this.version++;
  }

  /** Forces the next query to rebuild everything (tests, bench). */
  invalidate(): void {
    this.full = true;
  }
}
