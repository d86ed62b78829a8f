// Names as paths: where a tool takes a note path, a bare name ("dataview"), a partial path
// ("Plugins/dataview") or an alias ("Excalidraw") finds the note the way a wikilink would: file names
// first (ignoring case, ".md" optional, a partial path must match the end of the real one), aliases
// only when no file name matches. Where a wikilink would silently pick one of several notes, an agent
// gets a refusal listing them, so it never acts on the wrong note. Callers pass only the notes the key
// can see: candidates outside a root stay invisible.
import { refuse } from './errors.js';

export interface NamedNote { path: string }

const MAX_LISTED = 10;

function fold(s: string): string {
  return s.normalize('NFC').toLowerCase();
}

/**
 * The one note `raw` names among `notes`, or null when it names none. Several matches are refused
 * (code `ambiguous`) with the candidates. `aliasesOf` gives a note's aliases (frontmatter).
 */
export function noteByName<T extends NamedNote>(raw: string, notes: readonly T[], aliasesOf: (path: string) => readonly string[]): T | null {
  const name = raw.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '').replace(/\.md$/i, '');
  if (!name) return null;
  const want = fold(name);
  const tail = `/${want}.md`;
  let hits = notes.filter((n) => { const p = fold(n.path); return p === `${want}.md` || p.endsWith(tail); });
  let by = 'file name';
  if (!hits.length && !name.includes('/')) {
    hits = notes.filter((n) => aliasesOf(n.path).some((a) => fold(a.trim()) === want));
    by = 'alias';
  }
  if (hits.length === 1) return hits[0];
  if (hits.length > 1) {
    const listed = hits.slice(0, MAX_LISTED).map((h) => h.path).sort();
    refuse('ambiguous', `"${raw}" matches ${hits.length} notes by ${by}: ${listed.map((p) => `"${p}"`).join(', ')}${hits.length > MAX_LISTED ? ', …' : ''}. Pass the full path of the one you mean.`, { candidates: listed, matches: hits.length });
  }
  return null;
}
