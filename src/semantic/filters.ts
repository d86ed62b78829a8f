// The folder / tags / frontmatter filters semantic and hybrid search share, as one path predicate
// over host metadata (so the candidate pool is every note that passes, never a pre-cut page).
import type { ScopedVault } from '../services/scopedVault.js';
import { inFolder } from '../core/paths.js';
import { noteTags } from '../core/markdown/frontmatter.js';

export interface NoteFilter {
  folder?: string;
  tags?: string[];
  frontmatter?: Record<string, unknown>;
}

function normTag(t: string): string {
  return t.replace(/^#/, '').toLowerCase();
}

/** A string, number, boolean or bigint as text; null for anything else (objects never match as text). */
function scalarText(v: unknown): string | null {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : null;
}

function valueMatches(have: unknown, want: unknown): boolean {
  if (Array.isArray(have)) return have.some((h) => valueMatches(h, want));
  if (Array.isArray(want)) return want.every((w) => valueMatches(have, w));
  if (typeof have === 'string' && typeof want === 'string') return have.toLowerCase() === want.toLowerCase();
  if (want === null) return have === null || have === undefined;
  // 3 matches "3", true matches "true": YAML and JSON callers spell scalars differently.
  const a = scalarText(have);
  return have === want || (a !== null && a === scalarText(want));
}

/** A predicate over vault paths: visible to the caller, an existing note, and matching every filter. */
export function notePredicate(vault: ScopedVault, f: NoteFilter): (path: string) => boolean {
  const wantTags = (f.tags ?? []).map(normTag).filter(Boolean);
  const fm = f.frontmatter && Object.keys(f.frontmatter).length ? f.frontmatter : null;
  return (path) => {
    if (!vault.visible(path) || !inFolder(path, f.folder)) return false;
    if (!(vault.host.isFile ? vault.host.isFile(path) : vault.host.stat(path))) return false;
    if (!wantTags.length && !fm) return true;
    const m = vault.metadata(path);
    if (wantTags.length) {
      const have = noteTags(m?.frontmatter, m?.tags).map(normTag);
      // "a" matches "#a" and nested "#a/b", as Obsidian's tag search does.
      if (!wantTags.every((w) => have.some((h) => h === w || h.startsWith(w + '/')))) return false;
    }
    if (fm) {
      const data = m?.frontmatter ?? {};
      for (const [k, v] of Object.entries(fm)) {
        if (!(k in data)) return false;
        if (!valueMatches(data[k], v)) return false;
      }
    }
    return true;
  };
}
