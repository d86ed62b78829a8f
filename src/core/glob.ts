// File-name globs (* ? [set]), case-insensitive, anchored; every other character is literal.
// Matched without regular expressions: the pattern is cut at its stars into segments, the first must
// match at the start, the last at the end, and each one between at its leftmost place after the
// previous one. Leftmost is always right for globs (a later match leaves less room, never more), so
// nothing is ever retried: the work is at most name length × pattern length, whatever the pattern
// ("********************x" included, which made the old RegExp backtrack for good).

/** Longest pattern a caller may send (list_files); settings globs are the user's own. */
export const GLOB_MAX_LENGTH = 256;

type Token =
  | { t: 'char'; c: string }
  | { t: 'any' }
  | { t: 'set'; negated: boolean; singles: string[]; ranges: [number, number][] };

export interface Glob {
  test(name: string): boolean;
}

/** The case variants a character matches as (simple case folding, like the RegExp `i` flag). */
function variants(c: string): string[] {
  const lo = c.toLowerCase();
  const up = c.toUpperCase();
  const out = [c];
  // Multi-character mappings (ß → SS) are not simple case folding: ignored, as RegExp does.
  if ([...lo].length === 1 && lo !== c) out.push(lo);
  if ([...up].length === 1 && up !== c && up !== lo) out.push(up);
  return out;
}

function parseSet(body: string[]): Token {
  let i = 0;
  const negated = body[0] === '!' || body[0] === '^';
  if (negated) i = 1;
  const singles: string[] = [];
  const ranges: [number, number][] = [];
  for (; i < body.length; i++) {
    const c = body[i];
    if (i + 2 < body.length && body[i + 1] === '-') {
      // A range out of order matches nothing (the old RegExp threw on it).
      ranges.push([c.codePointAt(0)!, body[i + 2].codePointAt(0)!]);
      i += 2;
    } else singles.push(c);
  }
  return { t: 'set', negated, singles, ranges };
}

function tokenMatches(tok: Token, c: string): boolean {
  if (tok.t === 'any') return true;
  if (tok.t === 'char') return tok.c === c || variants(c).includes(tok.c) || variants(tok.c).includes(c);
  const hit = variants(c).some((v) => {
    if (tok.singles.includes(v)) return true;
    const cp = v.codePointAt(0)!;
    return tok.ranges.some(([a, b]) => cp >= a && cp <= b);
  });
  return hit !== tok.negated;
}

/** Does `seg` match `name` at code-point index `at`? */
function segmentAt(seg: Token[], name: string[], at: number): boolean {
  if (at + seg.length > name.length) return false;
  for (let k = 0; k < seg.length; k++) if (!tokenMatches(seg[k], name[at + k])) return false;
  return true;
}

/** Compiles a glob; `test` answers in time linear in the name for a given pattern. */
export function compileGlob(glob: string): Glob {
  const p = Array.from(glob);
  const segments: Token[][] = [[]];
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*') {
      if (segments[segments.length - 1].length || segments.length === 1) segments.push([]);
      continue;
    }
    const seg = segments[segments.length - 1];
    if (c === '?') seg.push({ t: 'any' });
    else if (c === '[') {
      const j = p.indexOf(']', i + 1);
      if (j > i + 1) { seg.push(parseSet(p.slice(i + 1, j))); i = j; } else seg.push({ t: 'char', c });
    } else seg.push({ t: 'char', c });
  }
  const starred = segments.length > 1;
  const first = segments[0];
  const last = starred ? segments[segments.length - 1] : null;
  const middle = starred ? segments.slice(1, -1) : [];
  return {
    test(input: string): boolean {
      const name = Array.from(input);
      if (!last) return name.length === first.length && segmentAt(first, name, 0);
      if (!segmentAt(first, name, 0)) return false;
      let pos = first.length;
      const end = name.length - last.length;
      if (end < pos) return false;
      for (const seg of middle) {
        let at = pos;
        while (at + seg.length <= end && !segmentAt(seg, name, at)) at++;
        if (at + seg.length > end) return false;
        pos = at + seg.length;
      }
      return segmentAt(last, name, end);
    },
  };
}
