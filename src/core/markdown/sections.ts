// Sections of a note: each heading owns the text up to the next heading of the same or a higher level.
// Ordinals `#N` number headings 1.. in document order; `read_note(section=…)`, `edit_note(section=…)`
// and search results all use this one resolution.
import { refuse } from '../errors.js';
import type { HeadingCache } from './metadata.js';

export interface OutlineEntry {
  ordinal: string; // "#3"
  index: number; // 1-based
  depth: number; // heading level 1..6
  text: string;
  /** Heading texts from the top-level ancestor down to this heading. */
  path: string[];
  /** Offset of the heading line, of the first character after its line break, and of the section end. */
  start: number;
  bodyStart: number;
  end: number;
  /** Characters of the section (heading line included). */
  size: number;
}

export function buildOutline(text: string, headings: HeadingCache[] | undefined): OutlineEntry[] {
  const hs = (headings ?? []).slice().sort((a, b) => a.position.start.offset - b.position.start.offset);
  const out: OutlineEntry[] = [];
  const stack: { depth: number; text: string }[] = [];
  hs.forEach((h, i) => {
    while (stack.length && stack[stack.length - 1].depth >= h.level) stack.pop();
    stack.push({ depth: h.level, text: h.heading });
    const start = h.position.start.offset;
    const nl = text.indexOf('\n', h.position.end.offset);
    const bodyStart = nl < 0 ? text.length : nl + 1;
    let end = text.length;
    for (let j = i + 1; j < hs.length; j++) {
      if (hs[j].level <= h.level) { end = hs[j].position.start.offset; break; }
    }
    out.push({ ordinal: `#${i + 1}`, index: i + 1, depth: h.level, text: h.heading, path: stack.map((s) => s.text), start, bodyStart, end, size: end - start });
  });
  return out;
}

function norm(s: string): string {
  return s.normalize('NFC').trim().replace(/\s+/g, ' ');
}

function listing(outline: OutlineEntry[]): string {
  if (!outline.length) return 'The note has no headings.';
  const shown = outline.slice(0, 60).map((e) => `${e.ordinal} ${'#'.repeat(e.depth)} ${e.text}`);
  return `Its headings: ${shown.join('; ')}${outline.length > 60 ? `; … (${outline.length} in all, see get_toc)` : ''}.`;
}

/**
 * Resolves a section spec: a bare `#N` is always the ordinal; otherwise the exact heading text
 * (leading '#'s and spaces ignored), then a `Parent/Child` path matched against the tail of each
 * heading's ancestor chain. Ambiguity is refused with the candidates' ordinals.
 */
export function resolveSection(outline: OutlineEntry[], spec: string, notePath: string): OutlineEntry {
  const raw = spec.trim();
  // "#N Heading" (as search rows and outlines give it): the ordinal, unless the note changed and the
  // heading text now names another section, in which case the text decides.
  const labelled = /^#(\d+)\s+(\S.*)$/.exec(raw);
  if (labelled) {
    const at = outline[Number(labelled[1]) - 1];
    if (at && norm(at.text) === norm(labelled[2])) return at;
    if (!outline.some((e) => norm(e.text) === norm(raw))) return resolveSection(outline, labelled[2], notePath);
  }
  const ord = /^#(\d+)$/.exec(raw);
  if (ord) {
    const n = Number(ord[1]);
    const hit = outline[n - 1];
    if (!hit) refuse('not_found', `"${notePath}" has no section ${raw} (it has ${outline.length} heading${outline.length === 1 ? '' : 's'}). ${listing(outline)}`, { headings: outline.length });
    return hit;
  }
  const wanted = norm(raw.replace(/^#+\s+/, ''));
  const byText = outline.filter((e) => norm(e.text) === wanted);
  if (byText.length === 1) return byText[0];
  if (byText.length > 1) {
    refuse('invalid_argument', `"${notePath}" has ${byText.length} headings named "${wanted}" (${byText.map((e) => e.ordinal).join(', ')}); pass the ordinal, e.g. section="${byText[0].ordinal}", or a Parent/Child path.`, { candidates: byText.map((e) => e.ordinal) });
  }
  if (wanted.includes('/')) {
    const parts = wanted.split('/').map(norm).filter(Boolean);
    const hits = outline.filter((e) => {
      if (e.path.length < parts.length) return false;
      const tail = e.path.slice(e.path.length - parts.length).map(norm);
      return tail.every((t, i) => t === parts[i]);
    });
    if (hits.length === 1) return hits[0];
    if (hits.length > 1) {
      refuse('invalid_argument', `The path "${wanted}" matches ${hits.length} sections of "${notePath}" (${hits.map((e) => e.ordinal).join(', ')}); pass the ordinal instead.`, { candidates: hits.map((e) => e.ordinal) });
    }
  }
  refuse('not_found', `"${notePath}" has no section "${raw}". ${listing(outline)} Pass one of these texts or its #N ordinal.`, { headings: outline.length });
}

/** How a section is named in results: "#N Heading" (read_note and edit_note take it as section=). */
export function sectionLabel(e: OutlineEntry): string {
  return `${e.ordinal} ${e.text}`;
}

/** The innermost section holding `offset` (a heading's own line included); null before the first heading. */
export function sectionAt(outline: OutlineEntry[], offset: number): OutlineEntry | null {
  let hit: OutlineEntry | null = null;
  for (const e of outline) if (e.start <= offset && offset < e.end && (!hit || e.start >= hit.start)) hit = e;
  return hit;
}
