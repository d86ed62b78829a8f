// Splitting a note into its frontmatter block and body, byte-faithfully: the block keeps its own line
// endings and the body is everything after the closing delimiter's line break.
import { parse as parseYaml } from 'yaml';

export interface FrontmatterSplit {
  /** A leading U+FEFF, kept apart so the body and block never include it. */
  bom: string;
  /** The raw block including both `---` lines and the closing line break ('' when none). */
  block: string;
  /** The YAML between the delimiters, as written. */
  yaml: string;
  body: string;
  /** Offset of the body in the raw text. */
  bodyStart: number;
  /** True when a block opens at line 0 but no closing `---` exists. */
  unclosed: boolean;
}

const OPEN = /^---[ \t]*\r?\n/;

export function splitFrontmatter(text: string): FrontmatterSplit {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const rest = text.slice(bom.length);
  const open = OPEN.exec(rest);
  if (!open) return { bom, block: '', yaml: '', body: rest, bodyStart: bom.length, unclosed: false };
  // Find a line that is exactly '---' (trailing spaces allowed) after the opener.
  const re = /^---[ \t]*(\r?\n|$)/gm;
  re.lastIndex = open[0].length;
  let m: RegExpExecArray | null;
  while ((m = re.exec(rest))) {
    if (m.index >= open[0].length && (m.index === open[0].length || rest[m.index - 1] === '\n')) {
      const end = m.index + m[0].length;
      return {
        bom,
        block: rest.slice(0, end),
        yaml: rest.slice(open[0].length, m.index),
        body: rest.slice(end),
        bodyStart: bom.length + end,
        unclosed: false,
      };
    }
    if (m[0].length === 0) break;
  }
  return { bom, block: '', yaml: '', body: rest, bodyStart: bom.length, unclosed: true };
}

export interface ParsedFrontmatter {
  ok: boolean;
  data: Record<string, unknown> | null;
  error?: string;
}

/** Parses a frontmatter YAML string into a plain object; a non-mapping or a YAML error is `ok: false`. */
export function parseFrontmatterYaml(yaml: string): ParsedFrontmatter {
  if (yaml.trim() === '') return { ok: true, data: {} };
  try {
    const data: unknown = parseYaml(yaml, { uniqueKeys: false, prettyErrors: false });
    if (data === null || data === undefined) return { ok: true, data: {} };
    if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, data: null, error: 'frontmatter is not a key: value mapping' };
    return { ok: true, data: data as Record<string, unknown> };
  } catch (e) {
    return { ok: false, data: null, error: (e as Error).message.split('\n')[0] };
  }
}

/** Frontmatter `tags`/`aliases` may be a list or a comma/space separated string (Obsidian accepts both). */
export function frontmatterList(value: unknown, splitSpaces = false): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of items) {
    if (item === null || item === undefined) continue;
    const s = String(item);
    for (const part of s.split(splitSpaces ? /[,\s]+/ : /,/)) {
      const t = part.trim();
      if (t) out.push(t);
    }
  }
  return out;
}

/** Tags of a note: frontmatter `tags`/`tag` plus inline tags, with '#', de-duplicated, original case. */
export function noteTags(frontmatter: Record<string, unknown> | undefined, inline: { tag: string }[] | undefined): string[] {
  const seen = new Map<string, string>();
  const add = (t: string) => {
    const tag = t.startsWith('#') ? t : `#${t}`;
    if (tag.length > 1 && !seen.has(tag.toLowerCase())) seen.set(tag.toLowerCase(), tag);
  };
  if (frontmatter) for (const t of frontmatterList(frontmatter.tags ?? frontmatter.tag, true)) add(t);
  for (const t of inline ?? []) add(t.tag);
  return [...seen.values()];
}

export function noteAliases(frontmatter: Record<string, unknown> | undefined): string[] {
  if (!frontmatter) return [];
  return frontmatterList(frontmatter.aliases ?? frontmatter.alias);
}
