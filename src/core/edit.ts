// Edit modes of edit_note as pure text → text functions. Every mode keeps the bytes it does not touch
// (BOM, frontmatter block, line endings, a missing final newline); inserted text takes the note's
// line-ending style so a CRLF note stays CRLF. Refusals say what to send instead.
import { refuse } from './errors.js';
import { splitFrontmatter, parseFrontmatterYaml } from './markdown/frontmatter.js';
import { parseMarkdown, hasUnclosedFence } from './markdown/parse.js';
import { buildOutline, resolveSection } from './markdown/sections.js';

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

function findReplace(text: string, find: string, content: string, all: boolean, eol: '\r\n' | '\n', notePath: string): EditOutcome {
  if (find === '') refuse('invalid_argument', 'find is empty; give the exact text to replace (copy it from read_note).');
  let needle = find;
  let replacement = content;
  let hits = countAll(text, needle);
  // A CRLF note searched with LF text (what most clients send): match it with the note's endings.
  if (!hits.length && eol === '\r\n' && /(?<!\r)\n/.test(find)) {
    needle = toEol(find, eol);
    hits = countAll(text, needle);
  }
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

function show(ch: string | undefined): string {
  if (ch === undefined) return 'the end of the note';
  const names: Record<string, string> = { '\n': 'a line break', '\r': 'a carriage return (CR)', '\t': 'a tab', ' ': 'a space', '\u00a0': 'a no-break space', '\uFEFF': 'a BOM' };
  return names[ch] ?? JSON.stringify(ch);
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) { const b = s.slice(i, i + 2); m.set(b, (m.get(b) ?? 0) + 1); }
  return m;
}

function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const x = bigrams(a);
  const y = bigrams(b);
  let both = 0;
  for (const [k, n] of x) both += Math.min(n, y.get(k) ?? 0);
  return (2 * both) / (a.length - 1 + b.length - 1);
}

export interface MissDiagnosis {
  message: string;
  details: { closest_line?: number; closest_text?: string; column?: number; expected?: string; found?: string };
}

/**
 * Why a find text did not match: the line where the longest prefix of it does match (and the first
 * character that differs there), or else the most similar line by character bigrams.
 */
export function diagnoseMiss(text: string, find: string): MissDiagnosis {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  const lead = find.length - find.trimStart().length;
  let best = { at: -1, len: 0, from: 0 };
  for (const s of starts) {
    // Also compare from the line's first non-blank character with the find's, for a different indent.
    const indent = /^[ \t]*/.exec(text.slice(s, s + 200))![0].length;
    for (const [at, from] of [[s, 0], [s + indent, lead]] as const) {
      let k = 0;
      while (from + k < find.length && at + k < text.length && text[at + k] === find[from + k]) k++;
      if (k > best.len) best = { at, len: k, from };
    }
  }
  const firstLine = find.split(/\r?\n/)[0].trim();
  if (best.at >= 0 && best.len >= Math.min(3, firstLine.length || 3)) {
    const pos = best.at + best.len;
    const ls = text.lastIndexOf('\n', pos - 1) + 1;
    const le = text.indexOf('\n', pos);
    const lineText = text.slice(ls, le < 0 ? text.length : le).replace(/\r$/, '');
    const line = lineOf(text, pos);
    const col = pos - ls + 1;
    if (best.from > 0 && best.from + best.len === find.length) {
      return { message: `Line ${line} ("${clip(lineText)}") matches except for its indentation: the find text starts with ${JSON.stringify(find.slice(0, best.from))}.`, details: { closest_line: line, closest_text: clip(lineText), column: 1 } };
    }
    const expected = find[best.from + best.len];
    const found = text[pos];
    const crlfHint = found === '\r' && expected === '\n' ? ' (the note uses CRLF line endings)' : '';
    return {
      message: `Closest: line ${line} ("${clip(lineText)}") agrees for ${best.len} characters, then differs at column ${col}: the find text has ${show(expected)}, the note has ${show(found)}${crlfHint}.`,
      details: { closest_line: line, closest_text: clip(lineText), column: col, expected: expected ?? '', found: found ?? '' },
    };
  }
  let top = { line: -1, score: 0 };
  starts.forEach((s, i) => {
    const e = text.indexOf('\n', s);
    const l = text.slice(s, e < 0 ? text.length : e).replace(/\r$/, '').trim();
    const sc = dice(l, firstLine);
    if (sc > top.score) top = { line: i, score: sc };
  });
  if (top.line < 0) return { message: 'No line of the note resembles it.', details: {} };
  const s = starts[top.line];
  const e = text.indexOf('\n', s);
  const lineText = text.slice(s, e < 0 ? text.length : e).replace(/\r$/, '');
  const t = lineText.trimStart();
  let k = 0;
  while (k < t.length && k < firstLine.length && t[k] === firstLine[k]) k++;
  const col = lineText.length - t.length + k + 1;
  return {
    message: `The most similar line is ${top.line + 1} ("${clip(lineText)}"); it first differs at column ${col}: the find text has ${show(firstLine[k])}, the line has ${show(t[k])}.`,
    details: { closest_line: top.line + 1, closest_text: clip(lineText), column: col, expected: firstLine[k] ?? '', found: t[k] ?? '' },
  };
}

function clip(s: string): string {
  return s.length > 120 ? s.slice(0, 117) + '…' : s;
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
