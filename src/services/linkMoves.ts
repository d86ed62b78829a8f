// Keeping links intact across a move: before the move, record what every possibly affected reference
// resolves to; after it, rewrite exactly the references that no longer resolve to (the new place of)
// the same file. Works on any host through the port (metadata, resolveLink, writer.process), so
// rewrite_links means the same thing headless and in Obsidian.
import type { VaultHost } from '../host/port.js';
import { isNotePath } from '../core/paths.js';
import { linkpathOf } from '../core/markdown/links.js';
import { rewriteLinks } from '../core/markdown/linkRewrite.js';
import { decodeNote, encodeNote } from './writeSupport.js';

/** old source path → linkpath → the old path it resolved to. */
export type LinkPlan = Map<string, Map<string, string>>;

const nameKey = (lp: string) => {
  const b = lp.slice(lp.lastIndexOf('/') + 1).toLowerCase();
  return b.endsWith('.md') ? b.slice(0, -3) : b;
};

export function planLinkRewrites(host: VaultHost, moves: Map<string, string>): LinkPlan {
  const names = new Set<string>();
  for (const [a, b] of moves) { names.add(nameKey(a)); names.add(nameKey(b)); }
  const plan: LinkPlan = new Map();
  for (const f of host.files()) {
    if (!isNotePath(f.path)) continue;
    const m = host.metadata(f.path);
    if (!m) continue;
    const moved = moves.has(f.path);
    const row = new Map<string, string>();
    for (const ref of [...(m.links ?? []), ...(m.embeds ?? []), ...(m.frontmatterLinks ?? [])]) {
      const lp = linkpathOf(ref.link);
      if (lp === '' || row.has(lp)) continue;
      // A link can break only if it named a moved file, was relative, sits in a moved note, or could
      // now be captured by a moved file with the same name.
      if (!moved && !names.has(nameKey(lp)) && !lp.startsWith('.')) continue;
      const pre = host.resolveLink(lp, f.path);
      if (pre) row.set(lp, pre);
    }
    if (row.size) plan.set(f.path, row);
  }
  return plan;
}

export interface RewriteReport { notes: string[]; links: number; skipped: string[] }

/** Wraps one note's rewrite so the change feed attributes it (notes-write.ts: recorded before, withdrawn when nothing is written). */
export type RewriteOwner = <T>(path: string, fn: () => Promise<T>, wrote: (r: T) => boolean) => Promise<T>;

export async function applyLinkRewrites(host: VaultHost, plan: LinkPlan, moves: Map<string, string>, visible: (p: string) => boolean, owner: RewriteOwner = (_p, fn) => fn()): Promise<RewriteReport> {
  const report: RewriteReport = { notes: [], links: 0, skipped: [] };
  const resolve = (lp: string, src: string) => host.resolveLink(lp, src);
  for (const [oldSource, row] of plan) {
    const source = moves.get(oldSource) ?? oldSource;
    const expected = new Map<string, string>();
    let needed = false;
    for (const [lp, pre] of row) {
      const want = moves.get(pre) ?? pre;
      expected.set(lp, want);
      if (resolve(lp, source) !== want) needed = true;
    }
    if (!needed) continue;
    if (!visible(source)) { report.skipped.push(source); continue; }
    let n = 0;
    try {
      const r = await owner(source, () => host.writer.process(source, (bytes) => {
        const { bom, text } = decodeNote(bytes, source);
        const out = rewriteLinks(text, source, expected, resolve);
        n = out.rewritten;
        return out.rewritten ? encodeNote(bom, out.text) : null;
      }), (x) => x.changed);
      if (r.changed) { report.notes.push(source); report.links += n; }
    } catch {
      report.skipped.push(source); // not UTF-8, or changed meanwhile: left as it was, reported
    }
  }
  return report;
}
