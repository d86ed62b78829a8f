// Our own metadata extraction, shaped like Obsidian's CachedMetadata, for the headless host.
//
// One pass over the lines of the raw text. Block state (frontmatter, fenced/indented code, math,
// `%%`/`<!-- -->` comments, HTML blocks) decides whether a line is scanned at all; every scanned line
// is then walked once, character by character, by `scanInline`, which steps over code spans, inline
// math, comments, escapes and URLs, and records wikilinks, markdown links, embeds and tags. All
// offsets are UTF-16 indexes into the raw string (a BOM and `\r` count), columns are relative to the
// raw line start.
//
// Decisions (Obsidian's parser is closed source; these follow its documentation, its observable
// behaviour and CommonMark where the two agree):
// - Frontmatter: line 0 (after an optional U+FEFF) is `---`, closed by the next `---` line (`...` is
//   not accepted). Malformed YAML, or YAML that is not a mapping, still gives `frontmatterPosition` and
//   a 'yaml' section (the block is still not body text) but no `frontmatter` field, like Obsidian's
//   "invalid properties". An empty block gives `frontmatter: {}`. Without a closing line there is no
//   frontmatter and the `---` is an ordinary thematic break.
// - Tags: `#` then one or more characters that are not whitespace, not ASCII punctuation other than
//   `-` `_` `/`, and not in U+2000–U+206F / U+2E00–U+2E7F (the set Obsidian's tag syntax excludes);
//   the body needs one character other than an ASCII digit (`#2024` is no tag, `#y2024` and `#2024/01`
//   are). The `#` must start the line (after container markers), follow whitespace, directly follow a
//   previous tag (`#a#b` is two tags, as in Obsidian), or follow only emphasis/highlight markers
//   (`**#tag**`, `==#tag==`) that themselves start the line or follow whitespace. `(#tag)`, `a#b` and
//   `x.com/#anchor` are not tags. Not inside code, math, comments, URLs, links or HTML blocks.
// - Headings: ATX (0–3 spaces, 1–6 `#`, then a space/tab or end of line; trailing ` #…` closing
//   sequence removed, text trimmed) and setext (a top-level paragraph followed by a `===` or `---`
//   underline; the paragraph's lines, joined by a space, are the text; the position spans from the
//   text to the underline). Headings inside block quotes, callouts and list items are not headings.
// - Lists: CommonMark-style nesting: an item is the child of the nearest open item whose content
//   column it reaches; root items get `parent = -(line of the list's first item)` (so 0 for a list on
//   line 0, as Obsidian). A list ends at a blank line followed by an unindented non-item line, or at
//   any other block; changing bullet character or `.`/`)` starts a new list. Items inside block quotes
//   and callouts count (Obsidian indexes tasks there). An item's position runs from its marker to the
//   end of its own text (lazy/indented paragraph continuation lines, not its children).
// - Block ids: ` ^id` (Latin letters, digits, `-`) at the end of a paragraph's last line or a list
//   item; a paragraph that is only `^id` names the block before it. Keys of `blocks` are lower-cased.
// - Indented code (4+ columns after a blank line, outside lists) is code, as in CommonMark.
import type { BlockCache, FrontmatterLinkCache, HeadingCache, ListItemCache, Loc, NoteMetadata, Pos, ReferenceCache, SectionCache, TagCache } from './metadata.js';
import { parseFrontmatterYaml } from './frontmatter.js';

// ---------------------------------------------------------------------------------------------
// Character classes

const C_TAB = 9, C_SPACE = 32, C_BANG = 33, C_HASH = 35, C_DOLLAR = 36, C_PCT = 37, C_LPAREN = 40, C_RPAREN = 41;
const C_STAR = 42, C_PLUS = 43, C_DASH = 45, C_DOT = 46, C_SLASH = 47, C_0 = 48, C_9 = 57, C_COLON = 58, C_LT = 60;
const C_EQ = 61, C_GT = 62, C_LBRACK = 91, C_BSLASH = 92, C_RBRACK = 93, C_CARET = 94, C_UNDER = 95, C_TICK = 96;
const C_PIPE = 124, C_TILDE = 126;

function isWs(c: number): boolean {
  return c === C_SPACE || c === C_TAB || c === 10 || c === 13 || c === 12 || c === 11 || (c > 127 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

// ASCII characters allowed in a tag body: letters, digits, '-', '_', '/'.
const TAG_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) TAG_ASCII[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === C_DASH || c === C_UNDER || c === C_SLASH ? 1 : 0;

function isTagChar(c: number): boolean {
  if (c < 128) return TAG_ASCII[c] === 1;
  if (c >= 0x2000 && c <= 0x206f) return false;
  if (c >= 0x2e00 && c <= 0x2e7f) return false;
  return !isWs(c);
}

// Characters that can make a line interesting to the inline scanner; lines with none are skipped.
const INLINE_TRIGGER = new Uint8Array(128);
for (const ch of '#[`%<$:\\!') INLINE_TRIGGER[ch.charCodeAt(0)] = 1;

// ---------------------------------------------------------------------------------------------
// Positions

/** Builds positions for one text: line numbers are tracked by the caller (lines are visited in order). */
class Positions {
  constructor(private readonly lineStarts: number[]) {}
  loc(line: number, offset: number): Loc {
    return { line, col: offset - this.lineStarts[line], offset };
  }
  pos(line: number, from: number, to: number, endLine = line): Pos {
    return { start: this.loc(line, from), end: this.loc(endLine, to) };
  }
}

// ---------------------------------------------------------------------------------------------
// Inline scanning

interface InlineOut {
  links: ReferenceCache[];
  embeds: ReferenceCache[];
  tags: TagCache[];
}

interface InlineState {
  /** Inside a `%%` comment that continues on the next line. */
  pct: boolean;
  /** Inside a `<!--` comment that continues on the next line. */
  html: boolean;
}

function decodeLinkTarget(t: string): string {
  if (t.indexOf('%') < 0) return t;
  try { return decodeURIComponent(t); } catch { return t; }
}

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Finds a closing backtick run of exactly `n` ticks in [from, to); returns its start or -1. */
function findTicks(src: string, from: number, to: number, n: number): number {
  let i = from;
  while (i < to) {
    const j = src.indexOf('`', i);
    if (j < 0 || j >= to) return -1;
    let k = j;
    while (k < to && src.charCodeAt(k) === C_TICK) k++;
    if (k - j === n) return j;
    i = k;
  }
  return -1;
}

/** Index of `needle` in [from, to), or -1. */
function find(src: string, needle: string, from: number, to: number): number {
  const j = src.indexOf(needle, from);
  return j < 0 || j + needle.length > to ? -1 : j;
}

/**
 * Parses `[text](dest "title")` starting at the `[` at `i`. Returns the end offset and raw target, or
 * null when the brackets are not a link.
 */
function parseMdLink(src: string, i: number, to: number): { end: number; text: string; target: string } | null {
  // Link text: balanced brackets, escapes, no code-span awareness (rare enough).
  let depth = 0;
  let j = i;
  const cap = Math.min(to, i + 2000); // link text is bounded, so many unmatched '[' stay linear
  for (; j < cap; j++) {
    const c = src.charCodeAt(j);
    if (c === C_BSLASH) { j++; continue; }
    if (c === C_LBRACK) depth++;
    else if (c === C_RBRACK) { depth--; if (depth === 0) break; }
  }
  if (j >= cap || src.charCodeAt(j + 1) !== C_LPAREN) return null;
  const text = src.slice(i + 1, j);
  let k = j + 2;
  while (k < to && (src.charCodeAt(k) === C_SPACE || src.charCodeAt(k) === C_TAB)) k++;
  let target: string;
  if (src.charCodeAt(k) === C_LT) {
    const close = src.indexOf('>', k + 1);
    if (close < 0 || close >= to) return null;
    target = src.slice(k + 1, close);
    if (target.indexOf('<') >= 0) return null;
    k = close + 1;
  } else {
    const start = k;
    let paren = 0;
    for (; k < to; k++) {
      const c = src.charCodeAt(k);
      if (c === C_BSLASH) { k++; continue; }
      if (c === C_SPACE || c === C_TAB) break;
      if (c === C_LPAREN) paren++;
      else if (c === C_RPAREN) { if (paren === 0) break; paren--; }
    }
    if (k > to) k = to;
    target = src.slice(start, k);
  }
  while (k < to && (src.charCodeAt(k) === C_SPACE || src.charCodeAt(k) === C_TAB)) k++;
  const q = src.charCodeAt(k);
  if (q === 34 || q === 39 || q === C_LPAREN) { // optional title
    const closeCh = q === C_LPAREN ? ')' : String.fromCharCode(q);
    const close = src.indexOf(closeCh, k + 1);
    if (close < 0 || close >= to) return null;
    k = close + 1;
    while (k < to && (src.charCodeAt(k) === C_SPACE || src.charCodeAt(k) === C_TAB)) k++;
  }
  if (src.charCodeAt(k) !== C_RPAREN || k >= to) return null;
  return { end: k + 1, text, target };
}

/**
 * Scans [from, to) of one line. `lineNo` is the line number, `st` carries comments across lines.
 * Tags, links and embeds go to `out`; returns nothing.
 */
function scanInline(src: string, from: number, to: number, lineNo: number, P: Positions, st: InlineState, out: InlineOut): void {
  let i = from;
  if (st.pct) {
    const close = find(src, '%%', i, to);
    if (close < 0) return;
    st.pct = false;
    i = close + 2;
  }
  if (st.html) {
    const close = find(src, '-->', i, to);
    if (close < 0) return;
    st.html = false;
    i = close + 3;
  }
  let tagEnd = -1; // offset right after the last tag, for `#a#b` chains
  while (i < to) {
    const c = src.charCodeAt(i);
    if (c >= 128 || INLINE_TRIGGER[c] === 0) { i++; continue; }
    switch (c) {
      case C_BSLASH: i += 2; continue;
      case C_TICK: {
        let n = 1;
        while (i + n < to && src.charCodeAt(i + n) === C_TICK) n++;
        const close = findTicks(src, i + n, to, n);
        i = close < 0 ? i + n : close + n;
        continue;
      }
      case C_PCT: {
        if (src.charCodeAt(i + 1) !== C_PCT || i + 1 >= to) { i++; continue; }
        const close = find(src, '%%', i + 2, to);
        if (close < 0) { st.pct = true; return; }
        i = close + 2;
        continue;
      }
      case C_LT: {
        if (src.startsWith('<!--', i) && i + 4 <= to) {
          const close = find(src, '-->', i + 4, to);
          if (close < 0) { st.html = true; return; }
          i = close + 3;
          continue;
        }
        // Autolink <scheme:...>: skip so a '#' inside is no tag.
        const close = src.indexOf('>', i + 1);
        if (close > 0 && close < to && SCHEME.test(src.slice(i + 1, Math.min(close, i + 40)))) {
          const inner = src.slice(i + 1, close);
          if (!/[\s<]/.test(inner)) { i = close + 1; continue; }
        }
        i++;
        continue;
      }
      case C_DOLLAR: {
        // $$…$$ on one line, or $…$ with a non-space after the opener, a non-space before the closer
        // and no digit right after the closer (so "$5 and $6" is not math).
        if (src.charCodeAt(i + 1) === C_DOLLAR) {
          const close = find(src, '$$', i + 2, to);
          i = close < 0 ? i + 2 : close + 2;
          continue;
        }
        const n = src.charCodeAt(i + 1);
        if (i + 1 >= to || isWs(n)) { i++; continue; }
        let j = i + 1;
        let close = -1;
        while (j < to) {
          j = src.indexOf('$', j);
          if (j < 0 || j >= to) break;
          const before = src.charCodeAt(j - 1);
          const after = src.charCodeAt(j + 1);
          if (before !== C_BSLASH && !isWs(before) && !(j + 1 < to && after >= C_0 && after <= C_9)) { close = j; break; }
          j++;
        }
        i = close < 0 ? i + 1 : close + 1;
        continue;
      }
      case C_COLON: {
        // scheme://… : step over the URL (the scheme letters were plain text already).
        if (src.charCodeAt(i + 1) === C_SLASH && src.charCodeAt(i + 2) === C_SLASH && i > from) {
          const p = src.charCodeAt(i - 1);
          if ((p >= 65 && p <= 90) || (p >= 97 && p <= 122) || (p >= C_0 && p <= C_9)) {
            let j = i + 3;
            while (j < to) {
              const d = src.charCodeAt(j);
              if (isWs(d) || d === C_LT || d === C_GT) break;
              j++;
            }
            i = j;
            continue;
          }
        }
        i++;
        continue;
      }
      case C_BANG:
      case C_LBRACK: {
        const embed = c === C_BANG;
        const b = embed ? i + 1 : i;
        if (src.charCodeAt(b) !== C_LBRACK || b >= to) { i++; continue; }
        if (src.charCodeAt(b + 1) === C_LBRACK && b + 1 < to) {
          // Wikilink: up to the first ']]'; a later '[[' before it restarts there.
          const close = find(src, ']]', b + 2, to);
          if (close < 0) { i = b + 2; continue; }
          const reopen = find(src, '[[', b + 2, close);
          if (reopen >= 0) { i = reopen - (src.charCodeAt(reopen - 1) === C_BANG ? 1 : 0); if (i <= b) i = reopen; continue; }
          const end = close + 2;
          const inner = src.slice(b + 2, close);
          if (inner.trim() !== '') {
            const bar = inner.indexOf('|');
            let target = bar < 0 ? inner : inner.slice(0, bar);
            if (bar > 0 && target.charCodeAt(target.length - 1) === C_BSLASH) target = target.slice(0, -1); // [[a\|b]] in tables
            target = target.trim();
            const alias = bar < 0 ? undefined : inner.slice(bar + 1).trim();
            const ref: ReferenceCache = { link: target, original: src.slice(i, end), displayText: alias !== undefined && alias !== '' ? alias : target, position: P.pos(lineNo, i, end) };
            (embed ? out.embeds : out.links).push(ref);
          }
          i = end;
          continue;
        }
        const md = parseMdLink(src, b, to);
        if (!md) { i = b + 1; continue; }
        const t = md.target.trim();
        if (t !== '' && !SCHEME.test(t)) {
          const ref: ReferenceCache = { link: decodeLinkTarget(t), original: src.slice(i, md.end), displayText: md.text, position: P.pos(lineNo, i, md.end) };
          (embed ? out.embeds : out.links).push(ref);
        }
        i = md.end;
        continue;
      }
      case C_HASH: {
        const ok = i === from || tagEnd === i || precededBySpace(src, from, i);
        let j = i + 1;
        let nonDigit = false;
        while (j < to) {
          const d = src.charCodeAt(j);
          if (d >= 0xd800 && d <= 0xdbff) { j += 2; nonDigit = true; continue; } // astral (emoji…)
          if (!isTagChar(d)) break;
          if (d < C_0 || d > C_9) nonDigit = true;
          j++;
        }
        if (j > to) j = to;
        if (ok && nonDigit) {
          out.tags.push({ tag: src.slice(i, j), position: P.pos(lineNo, i, j) });
          tagEnd = j;
          i = j;
          continue;
        }
        i = j > i + 1 ? j : i + 1;
        continue;
      }
      default:
        i++;
    }
  }
}

/** True when the text before `i` (back to `from`) ends in whitespace, or in emphasis markers after whitespace/start. */
function precededBySpace(src: string, from: number, i: number): boolean {
  let k = i - 1;
  while (k >= from) {
    const c = src.charCodeAt(k);
    if (c === C_STAR || c === C_UNDER || c === C_TILDE || c === C_EQ) { k--; continue; }
    return isWs(c);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Frontmatter links

function frontmatterLinks(data: Record<string, unknown>): FrontmatterLinkCache[] {
  const out: FrontmatterLinkCache[] = [];
  const visit = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      const m = /^\s*\[\[([^[\]]+)\]\]\s*$/.exec(v);
      if (m) {
        const bar = m[1].indexOf('|');
        const link = (bar < 0 ? m[1] : m[1].slice(0, bar)).trim();
        out.push({ key, link, original: v.trim(), displayText: bar < 0 ? link : m[1].slice(bar + 1).trim() });
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${key}.${i}`));
  };
  for (const [k, v] of Object.entries(data)) visit(v, k);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fast path for the frontmatter most notes have (`key: scalar`, `key: [a, b]`, `key:` + `- item`
// lines). It returns exactly what the `yaml` package returns for such input, or null for anything it
// does not fully understand, which then goes to the real YAML parser. (The `yaml` package was most of
// the parse time on real vaults.) Equivalence is checked by tests against `yaml` itself.

const Y_NULL = /^(?:~|[Nn]ull|NULL)?$/;
const Y_BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const Y_INT = /^[-+]?[0-9]{1,15}$/;
const Y_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]{1,15}\.[0-9]{0,15})$/;
const Y_KEY = /^([A-Za-z0-9_\u00c0-\uffff][^:#"'{}[\],&*!|>%@`\t]*?):(?:[ ]+(.*))?$/;
const Y_PLAIN_BAD_START = /^[-?:,[\]{}#&*!|>'"%@`]/;

/** Any own key, without building the key list. */
function hasOwnKeys(o: object): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return true;
  return false;
}

function yamlScalar(raw: string): unknown {
  const v = raw.trim();
  if (Y_NULL.test(v)) return null;
  const q = v.charCodeAt(0);
  if (q === 34 || q === 39) {
    if (v.length < 2 || v.charCodeAt(v.length - 1) !== q) return undefined;
    const inner = v.slice(1, -1);
    if (inner.indexOf(String.fromCharCode(q)) >= 0 || inner.indexOf('\\') >= 0) return undefined;
    return inner;
  }
  if (Y_BOOL.test(v)) return v.charCodeAt(0) === 116 || v.charCodeAt(0) === 84;
  if (Y_INT.test(v)) return v.length > 1 && (v[0] === '0' || (v[1] === '0' && (v[0] === '-' || v[0] === '+'))) ? undefined : parseInt(v, 10);
  if (Y_FLOAT.test(v)) return undefined; // float formatting/rounding: leave to the real parser
  if (Y_PLAIN_BAD_START.test(v) || v.indexOf(': ') >= 0 || v.indexOf(' #') >= 0 || v.endsWith(':') || v.indexOf('\t') >= 0) return undefined;
  if (/^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$|^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$|^[-+]?[0-9]+$/.test(v)) return undefined; // other numbers
  if (v === '.inf' || v === '.nan' || /^[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(v)) return undefined;
  return v;
}

function simpleYaml(text: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  const lines = text.split('\n');
  let listKey: string | null = null;
  let list: unknown[] | null = null;
  let listIndent = -1;
  for (let raw of lines) {
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (raw.trim() === '') continue;
    const c0 = raw.charCodeAt(0);
    if (c0 === 35) continue; // comment line
    if (listKey !== null) {
      const m = /^( *)-(?: +(.*))?$/.exec(raw);
      if (m) {
        if (listIndent < 0) listIndent = m[1].length;
        if (m[1].length !== listIndent) return null;
        const itemText = m[2] ?? '';
        if (itemText.startsWith('- ') || itemText === '-' || itemText.startsWith('[') || itemText.startsWith('{')) return null;
        if (/^[^'"]*: /.test(itemText) || itemText.endsWith(':')) return null;
        const val = yamlScalar(itemText);
        if (val === undefined) return null;
        list!.push(val);
        continue;
      }
      if (c0 === 32) return null;
      out[listKey] = list!.length ? list : null;
      listKey = null; list = null; listIndent = -1;
    }
    if (c0 === 32 || c0 === 9) return null; // indented content: nested maps, continuations
    const km = Y_KEY.exec(raw);
    if (!km) return null;
    const key = km[1].trim();
    if (key === '__proto__' || key === '' || Object.prototype.hasOwnProperty.call(out, key) || key === listKey) return null;
    const rest = (km[2] ?? '').trim();
    if (rest === '') { listKey = key; list = []; listIndent = -1; continue; }
    if (rest.charCodeAt(0) === 91) { // flow sequence of scalars
      if (!rest.endsWith(']')) return null;
      const inner = rest.slice(1, -1);
      if (/[[\]{}]/.test(inner)) return null;
      if (inner.trim() === '') { out[key] = []; continue; }
      const items: unknown[] = [];
      const parts = inner.split(',');
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i].trim();
        if (p === '') { if (i === parts.length - 1 && i > 0) continue; return null; }
        if (p === '~' || /^(?:null|Null|NULL)$/.test(p)) return null;
        const val = yamlScalar(p);
        if (val === undefined || val === null) return null;
        items.push(val);
      }
      out[key] = items;
      continue;
    }
    const val = yamlScalar(rest);
    if (val === undefined) return null;
    out[key] = val;
  }
  if (listKey !== null) out[listKey] = list!.length ? list : null;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Block scanning helpers

const HTML_BLOCK_TAGS = new Set('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'.split(' '));
const HTML_RAW = /^<(script|pre|style|textarea)(?=[\s>]|$)/i;
const HTML_OPEN = /^<\/?([a-zA-Z][a-zA-Z0-9-]*)(?=[\s/>]|$)/;
const HTML_LONE_TAG = /^(?:<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>|<\/[a-zA-Z][a-zA-Z0-9-]*\s*>)\s*$/;
/** `^id` at the end of [from, to), after whitespace or at `from`; returns [id] like a regex match, or null. */
function blockIdAt(src: string, from: number, to: number): [string, string] | null {
  let e = to;
  while (e > from && (src.charCodeAt(e - 1) === C_SPACE || src.charCodeAt(e - 1) === C_TAB)) e--;
  let b = e;
  while (b > from) {
    const c = src.charCodeAt(b - 1);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === C_DASH) b--;
    else break;
  }
  if (b === e || b - 1 < from || src.charCodeAt(b - 1) !== C_CARET) return null;
  const p = b - 2;
  if (p >= from && src.charCodeAt(p) !== C_SPACE && src.charCodeAt(p) !== C_TAB) return null;
  const id = src.slice(b, e);
  return [id, id];
}
const BLOCK_ID_ALONE = /^\^([A-Za-z0-9-]+)[ \t]*$/;
const THEMATIC = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const TABLE_DELIM = /^\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

interface ListFrame { markerCol: number; contentCol: number; line: number; item: ListItemCache }

/** Column width of leading whitespace in [from, to), tabs to the next multiple of 4. */
function indentInfo(src: string, from: number, to: number): { cols: number; end: number } {
  let cols = 0;
  let i = from;
  for (; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === C_SPACE) cols++;
    else if (c === C_TAB) cols += 4 - (cols % 4);
    else break;
  }
  return { cols, end: i };
}

// ---------------------------------------------------------------------------------------------

export function parseMarkdown(src: string): NoteMetadata {
  // Line starts (raw), and per-line content end (excluding \r\n).
  const lineStarts: number[] = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const nLines = lineStarts.length;
  const lineEnd = (n: number): number => {
    const e = n + 1 < nLines ? lineStarts[n + 1] - 1 : src.length;
    return e > lineStarts[n] && src.charCodeAt(e - 1) === 13 ? e - 1 : e;
  };
  const P = new Positions(lineStarts);
  const meta: NoteMetadata = {};
  const headings: HeadingCache[] = [];
  const out: InlineOut = { links: [], embeds: [], tags: [] };
  const listItems: ListItemCache[] = [];
  const sections: SectionCache[] = [];
  const blocks: Record<string, BlockCache> = {};
  const st: InlineState = { pct: false, html: false };
  const bom = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  let n = 0;

  // Frontmatter.
  {
    const e0 = lineEnd(0);
    if (isFenceOfDashes(src, bom, e0)) {
      for (let k = 1; k < nLines; k++) {
        const s = lineStarts[k];
        const e = lineEnd(k);
        if (isFenceOfDashes(src, s, e)) {
          const pos = P.pos(0, 0, e, k);
          meta.frontmatterPosition = pos;
          sections.push({ type: 'yaml', position: pos });
          const yamlText = k === 1 ? '' : src.slice(lineStarts[1], s);
          const fast = simpleYaml(yamlText);
          const parsed = fast ? { ok: true, data: fast } : parseFrontmatterYaml(yamlText);
          if (parsed.ok && parsed.data) {
            meta.frontmatter = parsed.data;
            const fl = frontmatterLinks(parsed.data);
            if (fl.length) meta.frontmatterLinks = fl;
          }
          n = k + 1;
          break;
        }
      }
    }
  }

  // Block state.
  type Block = { type: string; startLine: number; startOff: number; endLine: number; endOff: number };
  let cur: Block | null = null; // the open leaf/container section (paragraph, list, blockquote, table…)
  let fence: { ch: number; len: number; quote: number; startLine: number } | null = null;
  let math: { startLine: number; quote: number } | null = null;
  let htmlBlock: { startLine: number; until: RegExp | null } | null = null;
  let commentBlock: { startLine: number; pct: boolean } | null = null;
  const quoteList: { first: number; depth: number; stack: ListFrame[] } = { first: -1, depth: 0, stack: [] };
  let indentedCode: { startLine: number; endLine: number } | null = null;
  let prevBlank = true;
  // Lists.
  let listFirstLine = -1;
  let listKind = ''; // bullet char or '.' / ')' of the root list
  let stack: ListFrame[] = [];
  let lastItem: ListFrame | null = null; // item whose paragraph the next lazy/indented line continues
  let lazyOpen = false;
  let paraLines: number[] = []; // lines of the current top-level paragraph (for setext)

  const endList = () => { listFirstLine = -1; listKind = ''; stack = []; lastItem = null; };
  const flush = () => {
    if (!cur) return;
    const c: Block = cur;
    cur = null;
    const sec: SectionCache = { type: c.type, position: P.pos(c.startLine, c.startOff, c.endOff, c.endLine) };
    if (c.type === 'paragraph') {
      const ls = lineStarts[c.endLine];
      const m = blockIdAt(src, ls, c.endOff);
      if (m) {
        const alone = BLOCK_ID_ALONE.test(src.slice(c.startOff, c.endOff).trim());
        if (alone && c.startLine === c.endLine && sections.length) {
          // `^id` on its own names the previous block (tables, quotes, callouts, lists).
          const prev = sections[sections.length - 1];
          if (prev.type !== 'yaml' && prev.type !== 'heading') {
            prev.id = m[1];
            blocks[m[1].toLowerCase()] = { id: m[1], position: prev.position };
            return;
          }
        }
        sec.id = m[1];
        blocks[m[1].toLowerCase()] = { id: m[1], position: sec.position };
      }
    }
    sections.push(sec);
  };
  const open = (type: string, line: number, startOff: number, endOff: number) => {
    if (cur && cur.type === type && type !== 'heading' && type !== 'thematicBreak') { cur.endLine = line; cur.endOff = endOff; return; }
    flush();
    cur = { type, startLine: line, startOff, endLine: line, endOff };
  };
  const closeBlockSection = (type: string, startLine: number, endLine: number) => {
    flush();
    sections.push({ type, position: P.pos(startLine, lineStarts[startLine], lineEnd(endLine), endLine) });
  };

  for (; n < nLines; n++) {
    const ls = lineStarts[n];
    const le = lineEnd(n);
    const s0 = n === 0 ? bom : ls; // content start of this raw line

    // ---- Inside multi-line constructs ----
    if (fence) {
      const q = stripQuotes(src, s0, le, fence.quote);
      if (fence.quote > 0 && q.depth < fence.quote) {
        closeBlockSection('code', fence.startLine, n - 1); fence = null; // quote ended: fence closes
      } else {
        const ii = indentInfo(src, q.start, le);
        let k = ii.end;
        while (k < le && src.charCodeAt(k) === fence.ch) k++;
        if (k - ii.end >= fence.len && isBlankRange(src, k, le)) { closeBlockSection('code', fence.startLine, n); fence = null; prevBlank = false; }
        continue;
      }
    }
    if (math) {
      if (find(src, '$$', s0, le) >= 0) { closeBlockSection('math', math.startLine, n); math = null; prevBlank = false; }
      continue;
    }
    if (commentBlock) {
      // A `%%` or `<!--` comment that began at the start of a block: nothing inside is parsed.
      const wasPct = commentBlock.pct;
      const close = wasPct ? find(src, '%%', s0, le) : find(src, '-->', s0, le);
      if (close < 0) continue;
      st.pct = false; st.html = false;
      const after = close + (wasPct ? 2 : 3);
      closeBlockSection('comment', commentBlock.startLine, n);
      commentBlock = null;
      if (isBlankRange(src, after, le)) { prevBlank = false; continue; }
      scanInline(src, after, le, n, P, st, out);
      continue;
    }
    if (htmlBlock) {
      if (htmlBlock.until ? htmlBlock.until.test(src.slice(s0, le)) : isBlankRange(src, s0, le)) {
        const byBlank = !htmlBlock.until;
        closeBlockSection('html', htmlBlock.startLine, byBlank ? n - 1 : n);
        htmlBlock = null;
        prevBlank = byBlank;
      }
      continue;
    }
    if (st.pct || st.html) {
      // A comment opened mid-line continues: hide until it closes, then scan the rest inline.
      const wasPct = st.pct;
      const close = wasPct ? find(src, '%%', s0, le) : find(src, '-->', s0, le);
      if (close < 0) { if (cur) { cur.endLine = n; cur.endOff = le; } continue; }
      st.pct = false; st.html = false;
      scanInline(src, close + (wasPct ? 2 : 3), le, n, P, st, out);
      if (cur) { cur.endLine = n; cur.endOff = le; }
      continue;
    }

    // ---- Blank lines ----
    if (isBlankRange(src, s0, le)) {
      flush();
      paraLines = [];
      lazyOpen = false; // items stay open, but the lazy continuation of their paragraph ends
      prevBlank = true;
      continue;
    }

    // ---- Indented code (outside lists, after a blank line or another indented-code line) ----
    const ind0 = indentInfo(src, s0, le);
    if (indentedCode) {
      if (ind0.cols >= 4) { indentedCode.endLine = n; continue; }
      closeBlockSection('code', indentedCode.startLine, indentedCode.endLine);
      indentedCode = null;
    }
    if (ind0.cols >= 4 && listFirstLine < 0 && !cur) {
      indentedCode = { startLine: n, endLine: n };
      prevBlank = false;
      continue;
    }

    // ---- Containers: block quotes ----
    const q = stripQuotes(src, s0, le, 99);
    const cs = q.start; // content start after quote markers
    const inQuote = q.depth > 0;
    const ind = inQuote ? indentInfo(src, cs, le) : ind0;
    const first = src.charCodeAt(ind.end);
    const wasBlank = prevBlank;
    prevBlank = false;

    // List continuation bookkeeping: an unindented non-item line after a blank ends the list.
    const item = !inQuote && (ind.cols < 4 || listFirstLine >= 0) ? listMarker(src, ind.end, le) : null;
    if (listFirstLine >= 0 && !item && (wasBlank ? ind.cols < (stack[0]?.contentCol ?? 2) : false) && !inQuote) endList();

    // ---- Fences ----
    if (first === C_TICK || first === C_TILDE) {
      let k = ind.end;
      while (k < le && src.charCodeAt(k) === first) k++;
      const len = k - ind.end;
      if (len >= 3 && (ind.cols < 4 || listFirstLine >= 0) && !(first === C_TICK && find(src, '`', k, le) >= 0)) {
        flush(); paraLines = [];
        if (listFirstLine >= 0 && ind.cols < (stack[0]?.contentCol ?? 0)) endList();
        fence = { ch: first, len, quote: q.depth, startLine: n };
        continue;
      }
    }
    // ---- Math block ----
    if (first === C_DOLLAR && src.charCodeAt(ind.end + 1) === C_DOLLAR) {
      const close = find(src, '$$', ind.end + 2, le);
      if (close < 0) { flush(); paraLines = []; math = { startLine: n, quote: q.depth }; continue; }
      if (isBlankRange(src, close + 2, le)) { flush(); paraLines = []; sections.push({ type: 'math', position: P.pos(n, ls, le) }); continue; }
    }
    // ---- Comment blocks starting a line ----
    if (!cur && (first === C_PCT && src.charCodeAt(ind.end + 1) === C_PCT || first === C_LT && src.startsWith('<!--', ind.end))) {
      const isPct = first === C_PCT;
      const close = isPct ? find(src, '%%', ind.end + 2, le) : find(src, '-->', ind.end + 4, le);
      if (close < 0) {
        flush(); paraLines = [];
        if (isPct) st.pct = true; else st.html = true;
        commentBlock = { startLine: n, pct: isPct };
        continue;
      }
      if (isBlankRange(src, close + (isPct ? 2 : 3), le)) { flush(); paraLines = []; sections.push({ type: 'comment', position: P.pos(n, ls, le) }); continue; }
    }
    // ---- HTML blocks ----
    if (first === C_LT && ind.cols < 4 && !inQuote && listFirstLine < 0) {
      const rest = src.slice(ind.end, le);
      const raw = HTML_RAW.exec(rest);
      const tag = HTML_OPEN.exec(rest);
      if (raw || (tag && HTML_BLOCK_TAGS.has(tag[1].toLowerCase())) || (!cur && HTML_LONE_TAG.test(rest))) {
        flush(); paraLines = [];
        const until = raw ? new RegExp(`</${raw[1]}>`, 'i') : null;
        if (until ? until.test(rest.slice(raw![0].length)) : false) { sections.push({ type: 'html', position: P.pos(n, ls, le) }); continue; }
        htmlBlock = { startLine: n, until };
        if (!until && n + 1 >= nLines) closeBlockSection('html', n, n);
        continue;
      }
    }

    // ---- ATX headings (top level only) ----
    if (first === C_HASH && ind.cols < 4 && !inQuote && !(listFirstLine >= 0 && ind.cols >= (stack[0]?.contentCol ?? 99))) {
      let k = ind.end;
      while (k < le && src.charCodeAt(k) === C_HASH) k++;
      const level = k - ind.end;
      const after = src.charCodeAt(k);
      if (level <= 6 && (k === le || after === C_SPACE || after === C_TAB)) {
        flush(); paraLines = []; endList();
        // Text: trim, then drop a closing sequence of '#'s preceded by a space (or the whole text).
        let a = k;
        while (a < le && isWs(src.charCodeAt(a))) a++;
        let b = le;
        while (b > a && isWs(src.charCodeAt(b - 1))) b--;
        let h = b;
        while (h > a && src.charCodeAt(h - 1) === C_HASH) h--;
        if (h < b && (h === a || src.charCodeAt(h - 1) === C_SPACE || src.charCodeAt(h - 1) === C_TAB)) {
          b = h;
          while (b > a && isWs(src.charCodeAt(b - 1))) b--;
        }
        headings.push({ heading: src.slice(a, b), level, position: P.pos(n, ind.end, le) });
        sections.push({ type: 'heading', position: P.pos(n, ind.end, le) });
        scanInline(src, k, le, n, P, st, out);
        continue;
      }
    }

    // ---- Setext underline / thematic break ----
    if ((first === C_EQ || first === C_DASH) && ind.cols < 4 && !inQuote && paraLines.length && cur && (cur).type === 'paragraph' && listFirstLine < 0) {
      let k = ind.end;
      while (k < le && src.charCodeAt(k) === first) k++;
      if (isBlankRange(src, k, le)) {
        const startLine = paraLines[0];
        const text = paraLines.map((l) => src.slice(lineStarts[l], lineEnd(l)).trim()).join(' ');
        const startOff = indentInfo(src, lineStarts[startLine] + (startLine === 0 ? bom : 0), lineEnd(startLine)).end;
        cur = null; // the paragraph becomes the heading
        const pos = P.pos(startLine, startOff, le, n);
        headings.push({ heading: text, level: first === C_EQ ? 1 : 2, position: pos });
        sections.push({ type: 'heading', position: pos });
        paraLines = [];
        continue;
      }
    }
    if ((first === C_STAR || first === C_DASH || first === C_UNDER) && ind.cols < 4 && THEMATIC.test(src.slice(ind.end, le))) {
      flush(); paraLines = [];
      if (!inQuote) endList();
      sections.push({ type: 'thematicBreak', position: P.pos(n, ind.end, le) });
      continue;
    }

    // ---- List items ----
    if (item && !(item.ordered && item.start !== 1 && listFirstLine < 0 && cur && (cur).type === 'paragraph') && !(item.empty && listFirstLine < 0 && cur && (cur).type === 'paragraph')) {
      const markerCol = ind.cols;
      const contentCol = markerCol + item.width + item.pad;
      if (listFirstLine >= 0) {
        while (stack.length && markerCol < stack[stack.length - 1].contentCol) stack.pop();
        if (!stack.length && item.kind !== listKind) endList();
      }
      if (listFirstLine < 0) { flush(); paraLines = []; listFirstLine = n; listKind = item.kind; stack = []; }
      const parent = stack.length ? stack[stack.length - 1].line : (listFirstLine === 0 ? 0 : -listFirstLine);
      const li: ListItemCache = { position: P.pos(n, ind.end, le), parent };
      const after = ind.end + item.width + item.pad;
      if (src.charCodeAt(after) === C_LBRACK && src.charCodeAt(after + 2) === C_RBRACK && after + 2 < le) {
        const t3 = src.charCodeAt(after + 3);
        const code = src.codePointAt(after + 1)!;
        if (code < 0xd800 || code > 0xdfff) {
          if (after + 3 >= le || t3 === C_SPACE || t3 === C_TAB) li.task = src[after + 1];
        }
      }
      const bid = blockIdAt(src, after, le);
      if (bid) { li.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: li.position }; }
      listItems.push(li);
      const frame: ListFrame = { markerCol, contentCol, line: n, item: li };
      stack.push(frame);
      lastItem = frame;
      lazyOpen = true;
      if (cur && (cur).type === 'list') { (cur).endLine = n; (cur).endOff = le; }
      else { flush(); cur = { type: 'list', startLine: n, startOff: ind.end, endLine: n, endOff: le }; }
      scanInline(src, after, le, n, P, st, out);
      continue;
    }
    if (listFirstLine >= 0 && !inQuote) {
      // Continuation: indented text inside an item, or a lazy continuation of its paragraph.
      const top = stack[stack.length - 1];
      const lazy = !wasBlank && lazyOpen && lastItem !== null;
      if ((top && ind.cols >= top.contentCol) || lazy || ind.cols > 0) {
        if (lastItem && lazyOpen && (lazy || ind.cols >= (top?.contentCol ?? 0))) {
          lastItem.item.position.end = P.loc(n, le);
          const bid = blockIdAt(src, ind.end, le);
          if (bid) { lastItem.item.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: lastItem.item.position }; }
        }
        if (cur && (cur).type === 'list') { (cur).endLine = n; (cur).endOff = le; }
        else { flush(); cur = { type: 'list', startLine: n, startOff: ind.end, endLine: n, endOff: le }; }
        scanInline(src, ind.end, le, n, P, st, out);
        continue;
      }
      endList();
    }

    // ---- Leaf blocks: quote / callout / table / footnote / paragraph ----
    let type: string;
    if (inQuote) {
      const isCallout = q.depth > 0 && src.charCodeAt(cs) === C_LBRACK && src.charCodeAt(cs + 1) === C_BANG;
      type = isCallout ? 'callout' : cur && ((cur).type === 'callout') ? 'callout' : 'blockquote';
      if (isCallout && cur && (cur).type === 'callout') flush(); // a new callout starts
      paraLines = [];
      // Lists inside quotes/callouts: record items (parents relative to this quote).
      const qi = listMarker(src, ind.end, le);
      if (qi) {
        const markerCol = ind.cols;
        if (quoteList.first < 0 || quoteList.depth !== q.depth) { quoteList.first = n; quoteList.depth = q.depth; quoteList.stack = []; }
        const qs = quoteList.stack;
        while (qs.length && markerCol < qs[qs.length - 1].contentCol) qs.pop();
        const parent = qs.length ? qs[qs.length - 1].line : (quoteList.first === 0 ? 0 : -quoteList.first);
        const li: ListItemCache = { position: P.pos(n, ind.end, le), parent };
        const after = ind.end + qi.width + qi.pad;
        if (src.charCodeAt(after) === C_LBRACK && src.charCodeAt(after + 2) === C_RBRACK && after + 2 < le) {
          const t3 = src.charCodeAt(after + 3);
          if (after + 3 >= le || t3 === C_SPACE || t3 === C_TAB) li.task = src[after + 1];
        }
        const bid = blockIdAt(src, after, le);
        if (bid) { li.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: li.position }; }
        listItems.push(li);
        qs.push({ markerCol, contentCol: markerCol + qi.width + qi.pad, line: n, item: li });
      } else if (isBlankRange(src, cs, le)) { quoteList.first = -1; }
    } else {
      quoteList.first = -1;
      if (first === C_PIPE || (cur && (cur).type === 'table' && find(src, '|', ind.end, le) >= 0) || (find(src, '|', ind.end, le) >= 0 && n + 1 < nLines && TABLE_DELIM.test(src.slice(lineStarts[n + 1], lineEnd(n + 1)).trim()) && find(src, '-', lineStarts[n + 1], lineEnd(n + 1)) >= 0)) type = 'table';
      else if (first === C_LBRACK && src.charCodeAt(ind.end + 1) === C_CARET && /^\[\^[^\]]+\]:/.test(src.slice(ind.end, le))) type = 'footnoteDefinition';
      else type = cur && (cur).type === 'footnoteDefinition' && !wasBlank ? 'footnoteDefinition' : 'paragraph';
    }
    if (type === 'paragraph' && cur && (cur).type !== 'paragraph') flush();
    open(type, n, inQuote ? ls : ind.end, le);
    if (type === 'paragraph' && !inQuote) paraLines.push(n); else paraLines = [];
    scanInline(src, inQuote ? cs : ind.end, le, n, P, st, out);
  }
  if (fence) closeBlockSection('code', fence.startLine, nLines - 1);
  if (math) closeBlockSection('math', math.startLine, nLines - 1);
  if (commentBlock) closeBlockSection('comment', commentBlock.startLine, nLines - 1);
  if (htmlBlock) closeBlockSection('html', htmlBlock.startLine, nLines - 1);
  if (indentedCode) closeBlockSection('code', indentedCode.startLine, indentedCode.endLine);
  flush();

  if (headings.length) meta.headings = headings;
  if (out.tags.length) meta.tags = out.tags;
  if (out.links.length) meta.links = out.links;
  if (out.embeds.length) meta.embeds = out.embeds;
  if (listItems.length) meta.listItems = listItems;
  if (sections.length) meta.sections = sections.sort((a, b) => a.position.start.offset - b.position.start.offset);
  if (hasOwnKeys(blocks)) meta.blocks = blocks;
  return meta;
}

function isFenceOfDashes(src: string, from: number, to: number): boolean {
  if (to - from < 3 || src.charCodeAt(from) !== C_DASH || src.charCodeAt(from + 1) !== C_DASH || src.charCodeAt(from + 2) !== C_DASH) return false;
  return isBlankRange(src, from + 3, to);
}

function isBlankRange(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c !== C_SPACE && c !== C_TAB) return false;
  }
  return true;
}

/** Strips up to `max` block-quote markers (`>` with up to 3 spaces before and one optional space after). */
function stripQuotes(src: string, from: number, to: number, max: number): { depth: number; start: number } {
  let depth = 0;
  let i = from;
  while (depth < max) {
    let k = i;
    let sp = 0;
    while (k < to && src.charCodeAt(k) === C_SPACE && sp < 3) { k++; sp++; }
    if (k >= to || src.charCodeAt(k) !== C_GT) break;
    k++;
    if (src.charCodeAt(k) === C_SPACE || src.charCodeAt(k) === C_TAB) k++;
    i = k;
    depth++;
  }
  return { depth, start: i };
}

interface Marker { kind: string; ordered: boolean; start: number; width: number; pad: number; empty: boolean }

/** A list marker at `i`: `-`, `*`, `+`, or 1–9 digits then `.`/`)`, followed by a space/tab or end of line. */
function listMarker(src: string, i: number, to: number): Marker | null {
  const c = src.charCodeAt(i);
  let width: number;
  let kind: string;
  let ordered = false;
  let start = 0;
  if (c === C_DASH || c === C_STAR || c === C_PLUS) { width = 1; kind = src[i]; }
  else if (c >= C_0 && c <= C_9) {
    let k = i;
    while (k < to && k - i < 10 && src.charCodeAt(k) >= C_0 && src.charCodeAt(k) <= C_9) k++;
    const d = src.charCodeAt(k);
    if (k - i > 9 || (d !== C_DOT && d !== C_RPAREN)) return null;
    width = k - i + 1; kind = src[k]; ordered = true; start = Number(src.slice(i, k));
  } else return null;
  const j = i + width;
  if (j < to) {
    const d = src.charCodeAt(j);
    if (d !== C_SPACE && d !== C_TAB) return null;
  }
  let k = j;
  while (k < to && (src.charCodeAt(k) === C_SPACE || src.charCodeAt(k) === C_TAB)) k++;
  const empty = k >= to;
  let pad = k - j;
  if (empty) pad = Math.min(pad, 1);
  else if (pad > 4) pad = 1;
  return { kind, ordered, start, width, pad, empty };
}

/** True when a fence opener has no closer: section edits refuse such notes rather than guess. */
export function hasUnclosedFence(src: string): boolean {
  const meta = parseMarkdown(src);
  const lastCode = (meta.sections ?? []).filter((s) => s.type === 'code');
  if (!lastCode.length) return false;
  // An unclosed fence runs to the end of the text; check that its last line is not a closing fence.
  const s = lastCode[lastCode.length - 1];
  if (s.position.end.offset < lineEndOfText(src)) return false;
  const block = src.slice(s.position.start.offset, s.position.end.offset);
  const lines = block.split(/\r?\n/);
  const open = /^[ \t>]*(`{3,}|~{3,})/.exec(lines[0]);
  if (!open) return false; // indented code
  if (lines.length < 2) return true;
  const last = lines[lines.length - 1].replace(/^[ \t>]*/, '');
  const m = /^(`{3,}|~{3,})[ \t]*$/.exec(last);
  return !(m && m[1][0] === open[1][0] && m[1].length >= open[1].length);
}

function lineEndOfText(src: string): number {
  let e = src.length;
  if (src.endsWith('\n')) e--;
  if (src.charCodeAt(e - 1) === 13) e--;
  return e;
}
export const __simpleYamlForTests = simpleYaml;
