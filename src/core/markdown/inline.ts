// Inline scanning of one line: steps over code spans, inline math, comments, escapes and URLs and
// records wikilinks, markdown links, embeds and tags (the rules are in parse.ts's header).
import { C_TAB, C_SPACE, C_BANG, C_HASH, C_DOLLAR, C_PCT, C_LPAREN, C_RPAREN, C_STAR, C_SLASH, C_0, C_9, C_COLON, C_LT, C_EQ, C_GT, C_LBRACK, C_BSLASH, C_RBRACK, C_UNDER, C_TICK, C_TILDE, isWs, isTagChar, INLINE_TRIGGER, Positions, find } from './chars.js';
import type { ReferenceCache, TagCache } from './metadata.js';

export interface InlineOut {
  links: ReferenceCache[];
  embeds: ReferenceCache[];
  tags: TagCache[];
}

export interface InlineState {
  /** Inside a `%%` comment that continues on the next line. */
  pct: boolean;
  /** Inside a `<!--` comment that continues on the next line. */
  html: boolean;
}

export function decodeLinkTarget(t: string): string {
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


/**
 * Parses `[text](dest "title")` starting at the `[` at `i`. Returns the end offset and raw target, or
 * null when the brackets are not a link.
 */
export function parseMdLink(src: string, i: number, to: number): { end: number; text: string; target: string } | null {
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
export function scanInline(src: string, from: number, to: number, lineNo: number, P: Positions, st: InlineState, out: InlineOut): void {
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
export function precededBySpace(src: string, from: number, i: number): boolean {
  let k = i - 1;
  while (k >= from) {
    const c = src.charCodeAt(k);
    if (c === C_STAR || c === C_UNDER || c === C_TILDE || c === C_EQ) { k--; continue; }
    return isWs(c);
  }
  return true;
}

