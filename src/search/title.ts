// A note's title as people write it, for ranking and display, the same in both hosts (pure: the
// Obsidian host passes the metadata cache's frontmatter, the Node host its own parse).
//
// The forms a title takes: the file name without a leading date/id prefix (Zettelkasten
// `202312011200 Title`, `0001 Title`, `2023-12-01 Title`), the frontmatter `title:`, and a first-line
// H1 that names the note. A note whose file name is only an id (`0001.md`) and has none of the others
// is named by its first line when that line is short plain text (Zettelkasten tools do the same).
// Shown: the frontmatter title, else (id-named notes) the first-line H1 or first line, else the name.
import { noteTitle } from '../core/paths.js';

export interface NoteTitles {
  /** The title shown in results. */
  display: string;
  /** Every title form (display first), distinct; all count as the title for ranking. */
  forms: string[];
  /** The id/date prefix of the file name (`0001`), or '' — searchable, but not a title. */
  id: string;
  /** Characters at the start of the body that are the title line (removed from the indexed body). */
  titleLineLength: number;
  /** The first-line H1 taken as a title ('' when none): that heading is the title, not one of the headings. */
  h1: string;
}

// A leading id: a date (2023-12-01, optionally with a time), a run of 8+ digits (timestamps), or a
// zero-padded number (0001, 007). Plain numbers ("101 Dalmatians", "2023 in review") are titles.
const DATE = String.raw`\d{4}-\d{2}-\d{2}(?:[ T_]\d{2}[.:-]?\d{2}(?:[.:-]?\d{2})?)?`;
const ID_PREFIX = new RegExp(String.raw`^(${DATE}|\d{8,}|0\d+)(?:[\s._-]+|$)`);
const BARE_DATE = new RegExp(String.raw`^${DATE}$`);
const MAX_TITLE_LINE = 250;
/** A first line that is markdown structure, not a title: list, quote, table, fence, embed, rule, HTML, tag-only. */
const NOT_TITLE_LINE = /^(?:[-*+]\s|\d+[.)]\s|>|\||```|~~~|!\[|<|#{2,}\s|#[^\s#]|[-*_]{3,}\s*$|\[\[|%%|\$\$)/;

/** The file name's id prefix and the rest (both '' when absent). */
export function splitIdPrefix(name: string): { id: string; rest: string } {
  const m = ID_PREFIX.exec(name);
  if (!m) return { id: '', rest: name };
  return { id: m[1], rest: name.slice(m[0].length).trim() };
}

/** Inline markdown a title line may carry (emphasis, code, links) reduced to its text. */
export function plainInline(s: string): string {
  return s
    .replace(/\[\[([^\]|]*)\|([^\]]*)\]\]/g, '$2')
    .replace(/\[\[([^\]]*)\]\]/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`~=]{1,3}([^*_`~=]+)[*_`~=]{1,3}/g, '$1')
    .replace(/\s+#*\s*$/, '')
    .trim();
}

/** The body's first non-blank line: its text, end offset (through its line break) and line number. */
function firstLine(body: string): { text: string; end: number; line: number } | null {
  let at = 0;
  let line = 0;
  while (at < body.length) {
    const nl = body.indexOf('\n', at);
    const end = nl < 0 ? body.length : nl + 1;
    const text = body.slice(at, nl < 0 ? body.length : nl).replace(/\r$/, '');
    if (text.trim()) return { text: text.trim(), end, line };
    at = end;
    line++;
    if (line > 50) return null;
  }
  return null;
}

export function noteTitles(path: string, body: string, frontmatter: Record<string, unknown> | undefined): NoteTitles {
  const name = noteTitle(path);
  const { id, rest } = splitIdPrefix(name);
  const fmRaw = frontmatter?.title;
  const fmTitle = typeof fmRaw === 'string' || typeof fmRaw === 'number' ? String(fmRaw).trim() : '';
  const first = firstLine(body);
  let h1 = '';
  let plain = '';
  if (first) {
    const m = /^#\s+(.+)$/.exec(first.text);
    if (m) h1 = plainInline(m[1]);
    else if (!rest && !fmTitle && first.text.length <= MAX_TITLE_LINE && !NOT_TITLE_LINE.test(first.text)) plain = plainInline(first.text);
  }
  const bareDate = !rest && BARE_DATE.test(name);
  const idNamed = !!id;
  let display: string;
  if (fmTitle) display = fmTitle;
  else if (idNamed && !bareDate && h1) display = h1;
  else if (rest) display = rest;
  else if (bareDate) display = name;
  else if (h1 || plain) display = h1 || plain;
  else display = name;
  const forms: string[] = [];
  for (const t of [display, fmTitle, rest || (bareDate ? name : ''), h1, plain]) if (t && !forms.includes(t)) forms.push(t);
  if (!forms.length) forms.push(name);
  const titleLine = first && (h1 || plain) ? first : null;
  return { display, forms, id: bareDate ? '' : id, titleLineLength: titleLine ? titleLine.end : 0, h1 };
}
