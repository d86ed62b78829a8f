// Block-level helpers of the parser: HTML blocks, block ids, thematic breaks, tables, indentation,
// block quotes, list markers and fences.
import { C_TAB, C_SPACE, C_RPAREN, C_STAR, C_PLUS, C_DASH, C_DOT, C_0, C_9, C_GT, C_CARET } from './chars.js';
import type { ListItemCache } from './metadata.js';

export const HTML_BLOCK_TAGS = new Set('address article aside base basefont blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hr html iframe legend li link main menu menuitem nav noframes ol optgroup option p param search section summary table tbody td tfoot th thead title tr track ul'.split(' '));
export const HTML_RAW = /^<(script|pre|style|textarea)(?=[\s>]|$)/i;
export const HTML_OPEN = /^<\/?([a-zA-Z][a-zA-Z0-9-]*)(?=[\s/>]|$)/;
export const HTML_LONE_TAG = /^(?:<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z_:][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>|<\/[a-zA-Z][a-zA-Z0-9-]*\s*>)\s*$/;
/** `^id` at the end of [from, to), after whitespace or at `from`; returns [id] like a regex match, or null. */
export function blockIdAt(src: string, from: number, to: number): [string, string] | null {
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
export const BLOCK_ID_ALONE = /^\^([A-Za-z0-9-]+)[ \t]*$/;
export const THEMATIC = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
export const TABLE_DELIM = /^\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/;

export interface ListFrame { markerCol: number; contentCol: number; line: number; item: ListItemCache }

/** Column width of leading whitespace in [from, to), tabs to the next multiple of 4. */
export function indentInfo(src: string, from: number, to: number): { cols: number; end: number } {
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

export function isFenceOfDashes(src: string, from: number, to: number): boolean {
  if (to - from < 3 || src.charCodeAt(from) !== C_DASH || src.charCodeAt(from + 1) !== C_DASH || src.charCodeAt(from + 2) !== C_DASH) return false;
  return isBlankRange(src, from + 3, to);
}

export function isBlankRange(src: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c !== C_SPACE && c !== C_TAB) return false;
  }
  return true;
}

/** Strips up to `max` block-quote markers (`>` with up to 3 spaces before and one optional space after). */
export function stripQuotes(src: string, from: number, to: number, max: number): { depth: number; start: number } {
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

export interface Marker { kind: string; ordered: boolean; start: number; width: number; pad: number; empty: boolean }

/** A list marker at `i`: `-`, `*`, `+`, or 1–9 digits then `.`/`)`, followed by a space/tab or end of line. */
export function listMarker(src: string, i: number, to: number): Marker | null {
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


export function lineEndOfText(src: string): number {
  let e = src.length;
  if (src.endsWith('\n')) e--;
  if (src.charCodeAt(e - 1) === 13) e--;
  return e;
}
