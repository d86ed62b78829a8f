// Edit modes of edit_note as pure text → text functions. Every mode keeps the bytes it does not touch
// (BOM, frontmatter block, line endings, a missing final newline); inserted text takes the note's
// line-ending style so a CRLF note stays CRLF. Refusals say what to send instead.
import { refuse } from './errors.js';
import { splitFrontmatter, parseFrontmatterYaml } from './markdown/frontmatter.js';
import { parseMarkdown, hasUnclosedFence } from './markdown/parse.js';
import { buildOutline, resolveSection } from './markdown/sections.js';
import { diagnoseMiss } from './nearMiss.js';

export { diagnoseMiss, type MissDiagnosis } from './nearMiss.js';

export type EditOp =
  | { mode: 'replace'; content: string; replaceFrontmatter?: boolean }
  | { mode: 'append'; content: string }
  | { mode: 'find'; find: string; content: string; replaceAll?: boolean }
  | { mode: 'section'; section: string; content: string };

export interface EditOutcome {
  text: string;
  /** Occurrences replaced (find mode), else 1. */
  replaced: number;
  /** Ordinal and heading of the edited section (section mode). */
  section?: { ordinal: string; heading: string };
}

/** The note's line ending: CRLF when its first line break is CRLF, else LF. */
export function eolOf(text: string): '\r\n' | '\n' {
  const i = text.indexOf('\n');
  return i > 0 && text[i - 1] === '\r' ? '\r\n' : '\n';
}

/** Gives inserted text the note's line endings (lone LF → CRLF in a CRLF note; never the reverse). */
export function toEol(s: string, eol: '\r\n' | '\n'): string {
  return eol === '\n' ? s : s.replace(/\r?\n/g, '\r\n');
}

const FM_START = /^\uFEFF?---[ \t]*\r?\n/;

export function applyEdit(text: string, op: EditOp, notePath = 'the note'): EditOutcome {
  const eol = eolOf(text);
  switch (op.mode) {
    case 'replace': return { text: replaceBody(text, op.content, !!op.replaceFrontmatter, eol, notePath), replaced: 1 };
    case 'append': return { text: appendText(text, toEol(op.content, eol), eol), replaced: 1 };
    case 'find': return findReplace(text, op.find, op.content, !!op.replaceAll, eol, notePath);
    case 'section': return replaceSection(text, op.section, op.content, eol, notePath);
  }
}

function replaceBody(text: string, content: string, whole: boolean, eol: '\r\n' | '\n', notePath: string): string {
  const split = splitFrontmatter(text);
  const c = toEol(content, eol);
  if (whole) return c.startsWith('\uFEFF') ? c : split.bom + c;
  if (split.block && FM_START.test(content) && !splitFrontmatter(content).unclosed) {
    refuse('invalid_argument', `content starts with a frontmatter block, but "${notePath}" already has one, which a body replace keeps. Send only the body, change properties with set_frontmatter, or pass replace_frontmatter=true to replace the whole file.`);
  }
  return split.bom + split.block + c;
}

export function appendText(text: string, content: string, eol: '\r\n' | '\n' = eolOf(text)): string {
  if (text === '' || text === '\uFEFF' || text.endsWith('\n')) return text + content;
  return text + eol + content;
}

function countAll(text: string, find: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(find); i >= 0; i = text.indexOf(find, i + find.length)) at.push(i);
  return at;
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Where `find` occurs in `text`: as sent, else (a CRLF note searched with LF text) with the note's line endings. */
export function findTargets(text: string, find: string, eol: '\r\n' | '\n' = eolOf(text)): { needle: string; hits: number[] } {
  let needle = find;
  let hits = countAll(text, needle);
  if (!hits.length && eol === '\r\n' && /(?<!\r)\n/.test(find)) {
    needle = toEol(find, eol);
    hits = countAll(text, needle);
  }
  return { needle, hits };
}

function findReplace(text: string, find: string, content: string, all: boolean, eol: '\r\n' | '\n', notePath: string): EditOutcome {
  if (find === '') refuse('invalid_argument', 'find is empty; give the exact text to replace (copy it from read_note).');
  const { needle, hits } = findTargets(text, find, eol);
  let replacement = content;
  if (hits.length) replacement = toEol(content, eol);
  if (!hits.length) {
    const d = diagnoseMiss(text, find);
    refuse('not_found', `The find text does not occur in "${notePath}". ${d.message} Read the note again (read_note) and copy the text exactly, or use section= or a full replace.`, d.details);
  }
  if (hits.length > 1 && !all) {
    const lines = hits.slice(0, 20).map((h) => lineOf(text, h));
    refuse('invalid_argument', `The find text occurs ${hits.length} times in "${notePath}" (lines ${lines.join(', ')}${hits.length > 20 ? ', …' : ''}); include more surrounding text so it matches once, or pass replace_all=true to replace every occurrence.`, { matches: hits.length, lines });
  }
  let out = '';
  let last = 0;
  for (const h of hits) { out += text.slice(last, h) + replacement; last = h + needle.length; }
  out += text.slice(last);
  return { text: out, replaced: hits.length };
}

/** Refuses notes whose structure a section edit could misread (malformed frontmatter, open fence). */
export function checkSectionable(text: string, notePath: string): void {
  const split = splitFrontmatter(text);
  if (split.unclosed) refuse('malformed_note', `"${notePath}" opens a frontmatter block with --- that is never closed, so its sections are ambiguous; nothing was written. Fix the block with a full replace (replace_frontmatter=true) or edit with find=.`);
  if (split.block) {
    const p = parseFrontmatterYaml(split.yaml);
    if (!p.ok) refuse('malformed_note', `"${notePath}" has a malformed frontmatter block (${p.error}); nothing was written. Fix it with a full replace (replace_frontmatter=true) or edit with find=.`);
  }
  if (hasUnclosedFence(text)) refuse('malformed_note', `"${notePath}" has a code fence that nothing closes, so where sections end is ambiguous; nothing was written. Close the fence with find= or a full replace first.`);
}

function replaceSection(text: string, spec: string, content: string, eol: '\r\n' | '\n', notePath: string): EditOutcome {
  if (spec.trim() === '') refuse('invalid_argument', 'section is empty; give a heading text, a "Parent/Child" path or a "#N" ordinal.');
  checkSectionable(text, notePath);
  // Exactly read_note's resolution: the outline of the whole raw text from parseMarkdown's headings.
  const outline = buildOutline(text, parseMarkdown(text).headings);
  const entry = resolveSection(outline, spec, notePath);
  let body = toEol(content, eol);
  // The next heading must stay on a line of its own.
  if (entry.end < text.length && body !== '' && !body.endsWith('\n')) body += eol;
  let head = text.slice(0, entry.bodyStart);
  if (!head.endsWith('\n') && body !== '') head += eol; // heading on the last line without a break
  return { text: head + body + text.slice(entry.end), replaced: 1, section: { ordinal: entry.ordinal, heading: entry.text } };
}
