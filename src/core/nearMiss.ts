// Why a find= text did not match, said precisely enough to fix it in one try. First the differences
// agents actually make, each checked by matching again with that difference ignored: trailing spaces
// (clients strip them; Markdown uses two for a line break), another Unicode form, typographic quotes,
// dashes and no-break spaces, letter case, and spacing (tabs, runs of spaces, wrapped lines). The
// answer names the difference, the lines, and gives the note's exact text to copy. Otherwise: the
// longest start of the find text found anywhere in the note, and the first character that differs;
// else the most similar line.

export interface MissDiagnosis {
  message: string;
  details: { closest_line?: number; closest_text?: string; column?: number; expected?: string; found?: string; difference?: string; actual?: string };
}

type Norm = { norm: string; map: number[] };

/** `text` transformed char by char (a char may vanish), with each kept char's original offset. */
function mapped(text: string, step: (ch: string, i: number, text: string) => string): Norm {
  let norm = '';
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const out = step(text[i], i, text);
    for (let k = 0; k < out.length; k++) { norm += out[k]; map.push(i); }
  }
  map.push(text.length);
  return { norm, map };
}

const TYPO: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201A': "'", '\u201B': "'", '\u2032': "'", '\u201C': '"', '\u201D': '"', '\u201E': '"', '\u2033': '"',
  '\u2010': '-', '\u2011': '-', '\u2012': '-', '\u2013': '-', '\u2014': '-', '\u2212': '-', '\u00A0': ' ', '\u2007': ' ', '\u2009': ' ', '\u202F': ' ', '\u200B': '',
};

/** Whitespace at the end of a line (before \r?\n or the end) vanishes. */
function trailing(ch: string, i: number, t: string): string {
  if (ch !== ' ' && ch !== '\t') return ch;
  let j = i;
  while (j < t.length && (t[j] === ' ' || t[j] === '\t')) j++;
  return j === t.length || t[j] === '\n' || t[j] === '\r' ? '' : ch;
}
/** Any run of whitespace (line breaks included) becomes one space. */
function spacing(ch: string, i: number, t: string): string {
  if (!/\s/.test(ch)) return ch;
  return i > 0 && /\s/.test(t[i - 1]) ? '' : ' ';
}

const CHECKS: { name: string; step: (ch: string, i: number, t: string) => string; say: (find: string, actual: string, line: number) => string }[] = [
  { name: 'trailing_whitespace', step: trailing, say: trailingSay },
  { name: 'typography', step: (ch) => TYPO[ch] ?? ch, say: typographySay },
  { name: 'letter_case', step: (ch) => ch.toLowerCase(), say: () => 'the letters differ only in case' },
  { name: 'spacing', step: spacing, say: () => 'the spacing differs (tabs, several spaces, or a line break where the other has a space)' },
];

const endWs = (l: string) => /[ \t]*$/.exec(l.replace(/\r$/, ''))![0];

/** Which line's trailing whitespace differs, and how (`line`: the note's line where the match starts). */
function trailingSay(find: string, actual: string, line: number): string {
  const a = actual.split('\n'), f = find.split('\n');
  for (let i = 0; i < Math.min(a.length, f.length); i++) {
    const wa = endWs(a[i]), wf = endWs(f[i]);
    if (wa === wf) continue;
    return wa.length > wf.length
      ? `the note's line ${line + i} ends with ${describeWs(wa)} that the find text does not have`
      : `the find text's line ${i + 1} ends with ${describeWs(wf)}; the note's line ${line + i} ${wa ? `ends with ${describeWs(wa)}` : 'does not'}`;
  }
  return 'trailing spaces differ';
}

function describeWs(ws: string): string {
  const tabs = [...ws].filter((c) => c === '\t').length, spaces = ws.length - tabs;
  return [spaces ? `${spaces} trailing space${spaces === 1 ? '' : 's'}` : '', tabs ? `${tabs} trailing tab${tabs === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
}

/** The first typographic character of the note where the find text has a plain one. */
function typographySay(find: string, actual: string): string {
  const a = [...actual].filter((c) => c !== '\u200B'), f = [...find].filter((c) => c !== '\u200B');
  for (let i = 0; i < Math.min(a.length, f.length); i++) {
    if (a[i] !== f[i]) return `the note has ${JSON.stringify(a[i])} (${codeName(a[i])}) where the find text has ${JSON.stringify(f[i])} (${codeName(f[i])})`;
  }
  return 'a zero-width space is in one of them';
}

function codeName(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function clip(s: string, n = 120): string {
  return s.length > n ? s.slice(0, n - 3) + '…' : s;
}

function show(ch: string | undefined): string {
  if (ch === undefined) return 'the end of the note';
  const names: Record<string, string> = { '\n': 'a line break', '\r': 'a carriage return (CR)', '\t': 'a tab', ' ': 'a space', '\u00a0': 'a no-break space', '\uFEFF': 'a BOM' };
  return names[ch] ?? JSON.stringify(ch);
}

function lineAround(text: string, pos: number): { line: number; col: number; text: string } {
  const ls = text.lastIndexOf('\n', pos - 1) + 1;
  const le = text.indexOf('\n', pos);
  return { line: lineOf(text, pos), col: pos - ls + 1, text: text.slice(ls, le < 0 ? text.length : le).replace(/\r$/, '') };
}

/** A match with one kind of difference ignored: what it is, where, and the note's exact text. */
function normalizedMatch(text: string, find: string): MissDiagnosis | null {
  if (text.includes(find)) return null;
  const nfc = find.normalize('NFC');
  const candidates: { name: string; at: number; end: number; say: string }[] = [];
  if (nfc !== find && text.includes(nfc)) {
    const at = text.indexOf(nfc);
    candidates.push({ name: 'unicode_form', at, end: at + nfc.length, say: 'the same letters are in another Unicode form (decomposed accents in the find text)' });
  }
  for (const c of CHECKS) {
    if (candidates.length) break;
    const t = mapped(text, c.step), f = mapped(find, c.step);
    const needle = c.name === 'spacing' ? f.norm.trim() : f.norm;
    if (!needle) continue;
    const i = t.norm.indexOf(needle);
    if (i < 0) continue;
    const at = t.map[i], end = t.map[i + needle.length - 1] + 1;
    candidates.push({ name: c.name, at, end, say: c.say(find, text.slice(at, end), lineOf(text, at)) });
  }
  const hit = candidates[0];
  if (!hit) return null;
  const actual = text.slice(hit.at, hit.end);
  const a = lineOf(text, hit.at), b = lineOf(text, hit.end - 1);
  const where = a === b ? `line ${a}` : `lines ${a}-${b}`;
  return {
    message: `The find text matches ${where} except that ${hit.say}. Copy the note's exact text: ${JSON.stringify(clip(actual, 300))}.`,
    details: { closest_line: a, closest_text: clip(lineAround(text, hit.at).text), difference: hit.name, actual: clip(actual, 500) },
  };
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) { const b = s.slice(i, i + 2); m.set(b, (m.get(b) ?? 0) + 1); }
  return m;
}

function dice(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const x = bigrams(a), y = bigrams(b);
  let both = 0;
  for (const [k, n] of x) both += Math.min(n, y.get(k) ?? 0);
  return (2 * both) / (a.length - 1 + b.length - 1);
}

/** The longest start of `find` (from `from`) that occurs in `text`: its length and first position. */
function longestPrefix(text: string, find: string, from: number): { len: number; at: number } {
  let lo = 0, hi = find.length - from, at = -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const i = text.indexOf(find.slice(from, from + mid));
    if (i >= 0) { lo = mid; at = i; } else hi = mid - 1;
  }
  return { len: lo, at: lo > 0 ? (at >= 0 ? at : text.indexOf(find.slice(from, from + lo))) : -1 };
}

export function diagnoseMiss(text: string, find: string): MissDiagnosis {
  const norm = normalizedMatch(text, find);
  if (norm) return norm;
  const lead = find.length - find.trimStart().length;
  const plain = longestPrefix(text, find, 0);
  const indented = lead > 0 ? longestPrefix(text, find, lead) : { len: 0, at: -1 };
  const firstLine = find.split(/\r?\n/)[0].trim();
  const best = indented.len > plain.len + lead ? { ...indented, from: lead } : { ...plain, from: 0 };
  if (best.at >= 0 && best.len >= Math.min(3, firstLine.length || 3)) {
    const pos = best.at + best.len;
    const l = lineAround(text, pos);
    if ((best.from > 0 && best.from + best.len === find.length) || (best.from === 0 && best.len === find.length && lead > 0)) {
      const at = lineAround(text, best.at);
      const said = best.from > 0 ? `the find text starts with ${JSON.stringify(find.slice(0, best.from))}` : `the line starts with ${JSON.stringify(/^[ \t]*/.exec(at.text)![0])}`;
      return { message: `Line ${at.line} ("${clip(at.text)}") matches except for its indentation: ${said}.`, details: { closest_line: lineOf(text, best.at), closest_text: clip(lineAround(text, best.at).text), column: 1, difference: 'indentation' } };
    }
    const expected = find[best.from + best.len];
    const found = text[pos];
    const crlfHint = found === '\r' && expected === '\n' ? ' (the note uses CRLF line endings)' : '';
    return {
      message: `Closest: line ${l.line} ("${clip(l.text)}") agrees for ${best.len} characters, then differs at column ${l.col}: the find text has ${show(expected)}, the note has ${show(found)}${crlfHint}.`,
      details: { closest_line: l.line, closest_text: clip(l.text), column: l.col, expected: expected ?? '', found: found ?? '' },
    };
  }
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  let top = { line: -1, score: 0 };
  starts.forEach((s, i) => {
    const e = text.indexOf('\n', s);
    const sc = dice(text.slice(s, e < 0 ? text.length : e).replace(/\r$/, '').trim(), firstLine);
    if (sc > top.score) top = { line: i, score: sc };
  });
  if (top.line < 0) return { message: 'No line of the note resembles it.', details: {} };
  const l = lineAround(text, starts[top.line]);
  const t = l.text.trimStart();
  let k = 0;
  while (k < t.length && k < firstLine.length && t[k] === firstLine[k]) k++;
  const col = l.text.length - t.length + k + 1;
  return {
    message: `The most similar line is ${top.line + 1} ("${clip(l.text)}"); it first differs at column ${col}: the find text has ${show(firstLine[k])}, the line has ${show(t[k])}.`,
    details: { closest_line: top.line + 1, closest_text: clip(l.text), column: col, expected: firstLine[k] ?? '', found: t[k] ?? '' },
  };
}
