// Graph access for tools: the caller's view of the link graph. A root-confined key sees only edges
// between paths inside its root; a link to a path outside answers like a link to nothing.
import type { ToolContext } from '../mcp/tool.js';
import type { FileStat } from '../host/port.js';
import { GraphService, refsOf, type LinkRef } from './service.js';
import type { LinkGraph } from './linkGraph.js';
import { isNotePath, normalizeFilePath } from '../core/paths.js';
import { TaskService } from '../tasks/service.js';
import { setTimeout } from 'node:timers';

export function graphService(ctx: ToolContext): GraphService {
  let g = ctx.deps.services.graph;
  if (!g) { g = new GraphService(ctx.deps.host); ctx.deps.services.graph = g; }
  return g;
}

export function taskService(ctx: ToolContext): TaskService {
  let t = ctx.deps.services.tasks;
  if (!t) { t = new TaskService(ctx.deps.host); ctx.deps.services.tasks = t; }
  return t;
}

export interface View {
  graph: LinkGraph;
  visible: (p: string) => boolean;
  /** Visible sources linking to `path` (self excluded) with their link counts. */
  backlinks(path: string): [string, number][];
  /** Visible targets `path` links to (self excluded). */
  outlinks(path: string): [string, number][];
  neighbours(path: string): string[];
  /** No visible note links to it or from it (without building the lists: find_orphans asks every note). */
  isolated(path: string): boolean;
  /** Links of a visible note, with targets outside the view turned into unresolved links; with `onlyTo`,
   *  only links whose name can lead to that file are resolved (the others read as unresolved). */
  refs(path: string, onlyTo?: string): LinkRef[];
}

export function viewOf(ctx: ToolContext): View {
  const vault = ctx.vault;
  const root = vault.root;
  const service = graphService(ctx);
  // A confined key gets a graph built from its root's notes alone, with links re-resolved inside the
  // root (service.scoped), so a link to an outside note reads exactly like a link to a missing one.
  const scoped = root === '' ? null : service.scoped(root);
  const graph = scoped ? scoped.graph : service.get();
  const visible = root === '' ? () => true : (p: string) => vault.visible(p);
  const filt = (m: ReadonlyMap<string, number>) => [...m].filter(([p]) => visible(p));
  return {
    graph, visible,
    backlinks: (p) => filt(graph.incoming(p)),
    outlinks: (p) => filt(graph.outgoing(p)),
    neighbours: (p) => graph.neighbours(p).filter(visible),
    isolated: (p) => !graph.someIncoming(p, visible) && !graph.someOutgoing(p, visible),
    refs: (p, onlyTo) => refsOf(ctx.deps.host, p, vault.metadata(p), scoped?.resolver, onlyTo).map((r) => (r.target && !visible(r.target) ? { ...r, target: null } : r)),
  };
}

/** A path argument naming any visible file; a bare name gets `.md` as for notes. */
export function requireTarget(ctx: ToolContext, raw: string, what = 'path'): FileStat {
  const p = normalizeFilePath(raw, what);
  const st = ctx.vault.stat(p) ?? (isNotePath(p) ? null : ctx.vault.stat(`${p}.md`));
  return st ?? ctx.vault.requireNote(raw, what);
}

/** Waits (up to `ms`) until the host has no pending metadata; true when it got there. */
export async function waitForHost(ctx: ToolContext, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (ctx.deps.host.pendingCount() > 0) {
    if (Date.now() >= until || ctx.signal.aborted) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** Every graph tool calls this before viewOf(): it also brings the caller's graph up to date in slices
 *  (GraphService.prepare), so building it never holds the event loop (Obsidian's UI thread) for long. */
export async function freshness(ctx: ToolContext, wait: boolean | undefined): Promise<{ index_stale: boolean; wait_timed_out?: boolean }> {
  const ok = wait ? await waitForHost(ctx) : true;
  await graphService(ctx).prepare(ctx.vault.root);
  return { index_stale: ctx.deps.host.pendingCount() > 0, ...(ok ? {} : { wait_timed_out: true }) };
}
