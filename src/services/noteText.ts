// Reading a note's bytes once and deriving everything a tool needs from exactly those bytes, so the
// hash, frontmatter, sections and content of one answer always agree.
import type { ScopedVault } from './scopedVault.js';
import type { FileStat } from '../host/port.js';
import { contentHash } from '../core/hash.js';
import { splitFrontmatter, parseFrontmatterYaml, noteTags, noteAliases, type FrontmatterSplit } from '../core/markdown/frontmatter.js';
import { parseMarkdown } from '../core/markdown/parse.js';
import { buildOutline, type OutlineEntry } from '../core/markdown/sections.js';
import type { NoteMetadata } from '../core/markdown/metadata.js';
import { versionsOf } from './versions.js';

const decoder = new TextDecoder('utf-8');

export interface NoteSnapshot {
  stat: FileStat;
  bytes: Uint8Array;
  text: string;
  hash: string;
  split: FrontmatterSplit;
  meta: NoteMetadata;
  outline: OutlineEntry[];
  frontmatter: Record<string, unknown> | null;
  /** Why `frontmatter` is null although a block exists. */
  frontmatterIssue: string | null;
  tags: string[];
  aliases: string[];
}

/** JSON cannot say everything YAML can; such frontmatter is withheld from the JSON view with a reason. */
function jsonSafe(v: unknown, depth = 0): string | null {
  if (depth > 64) return 'nesting deeper than 64 levels';
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
  if (typeof v === 'number') return Number.isFinite(v) ? null : `the number ${v} has no JSON form`;
  if (typeof v === 'bigint') return 'an integer too large for JSON';
  if (v instanceof Date) return 'a YAML timestamp';
  if (Array.isArray(v)) {
    for (const x of v) { const r = jsonSafe(x, depth + 1); if (r) return r; }
    return null;
  }
  if (v instanceof Map || v instanceof Set) return 'a non-string mapping key or set';
  if (typeof v === 'object') {
    if (Object.getPrototypeOf(v) !== Object.prototype && Object.getPrototypeOf(v) !== null) return 'a YAML value with no JSON form';
    for (const x of Object.values(v)) { const r = jsonSafe(x, depth + 1); if (r) return r; }
    return null;
  }
  return `a value of type ${typeof v}`;
}

export function snapshotFromBytes(stat: FileStat, bytes: Uint8Array): NoteSnapshot {
  const text = decoder.decode(bytes);
  const split = splitFrontmatter(text);
  const meta = parseMarkdown(text);
  let frontmatter: Record<string, unknown> | null = null;
  let frontmatterIssue: string | null = null;
  if (split.block) {
    const parsed = parseFrontmatterYaml(split.yaml);
    if (!parsed.ok) frontmatterIssue = `the frontmatter YAML is malformed (${parsed.error}); frontmatter_yaml has it as written`;
    else {
      const why = jsonSafe(parsed.data);
      if (why) frontmatterIssue = `the frontmatter holds ${why}; read frontmatter_yaml instead`;
      else frontmatter = parsed.data;
    }
  } else if (split.unclosed) {
    frontmatterIssue = 'the note opens a frontmatter block with --- that is never closed, so Obsidian shows it as text';
  }
  const fm = frontmatter ?? undefined;
  return {
    stat, bytes, text, hash: contentHash(bytes), split, meta, outline: buildOutline(text, meta.headings), frontmatter, frontmatterIssue,
    tags: noteTags(fm, meta.tags), aliases: noteAliases(fm),
  };
}

/** A snapshot of the note as it is now; its text is remembered for rebasing edits made from it. */
export async function readSnapshot(vault: ScopedVault, stat: FileStat): Promise<NoteSnapshot> {
  const snap = snapshotFromBytes(stat, await vault.host.readBytes(stat.path));
  versionsOf(vault.host).remember(snap.hash, snap.text);
  return snap;
}
