// Character classes and positions shared by the markdown scanners (parse.ts, inline.ts, blocks.ts).
import type { Loc, Pos } from './metadata.js';

export const C_TAB = 9, C_SPACE = 32, C_BANG = 33, C_HASH = 35, C_DOLLAR = 36, C_PCT = 37, C_LPAREN = 40, C_RPAREN = 41;
export const C_STAR = 42, C_PLUS = 43, C_DASH = 45, C_DOT = 46, C_SLASH = 47, C_0 = 48, C_9 = 57, C_COLON = 58, C_LT = 60;
export const C_EQ = 61, C_GT = 62, C_LBRACK = 91, C_BSLASH = 92, C_RBRACK = 93, C_CARET = 94, C_UNDER = 95, C_TICK = 96;
export const C_PIPE = 124, C_TILDE = 126;

export function isWs(c: number): boolean {
  return c === C_SPACE || c === C_TAB || c === 10 || c === 13 || c === 12 || c === 11 || (c > 127 && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

// ASCII characters allowed in a tag body: letters, digits, '-', '_', '/'.
const TAG_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) TAG_ASCII[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === C_DASH || c === C_UNDER || c === C_SLASH ? 1 : 0;

export function isTagChar(c: number): boolean {
  if (c < 128) return TAG_ASCII[c] === 1;
  if (c >= 0x2000 && c <= 0x206f) return false;
  if (c >= 0x2e00 && c <= 0x2e7f) return false;
  return !isWs(c);
}

// Characters that can make a line interesting to the inline scanner; lines with none are skipped.
export const INLINE_TRIGGER = new Uint8Array(128);
for (const ch of '#[`%<$:\\!') INLINE_TRIGGER[ch.charCodeAt(0)] = 1;

// ---------------------------------------------------------------------------------------------
// Positions

/** Builds positions for one text: line numbers are tracked by the caller (lines are visited in order). */
export class Positions {
  constructor(private readonly lineStarts: number[]) {}
  loc(line: number, offset: number): Loc {
    return { line, col: offset - this.lineStarts[line], offset };
  }
  pos(line: number, from: number, to: number, endLine = line): Pos {
    return { start: this.loc(line, from), end: this.loc(endLine, to) };
  }
}

/** Index of `needle` in [from, to), or -1. */
export function find(src: string, needle: string, from: number, to: number): number {
  const j = src.indexOf(needle, from);
  return j < 0 || j + needle.length > to ? -1 : j;
}
