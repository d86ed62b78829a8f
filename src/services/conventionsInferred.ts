// Conventions a folder follows without a _conventions.md: the frontmatter keys and tags most of its
// notes use (with the value most of them give a key, when one dominates), and the template in a
// templates folder whose shape (frontmatter keys and section headings) matches those notes best.
import type { ScopedVault } from './scopedVault.js';
import type { NoteMetadata } from '../core/markdown/metadata.js';
import { noteTags } from '../core/markdown/frontmatter.js';
import { basename, dirname, inFolder, noteTitle } from '../core/paths.js';
import { CONVENTIONS_FILE } from './conventions.js';

const MIN_NOTES = 3;
const KEY_SHARE = 0.25;
const TAG_SHARE = 0.2;
const COMMON = 0.5;
const TEMPLATE_CHARS = 2000;
const TEMPLATE_FOLDER = /templates?\b/i;

export interface InferredConventions {
  notes: number;
  frontmatter: Record<string, number>;
  values?: Record<string, unknown>;
  tags?: Record<string, number>;
  template?: { path: string; content: string; truncated?: true };
}

const share = (n: number, of: number) => Math.round((n / of) * 100) / 100;
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
const headingKeys = (m: NoteMetadata | null) => new Set((m?.headings ?? []).filter((h) => h.level >= 2 && !h.heading.includes('{{')).map((h) => `${h.level} ${h.heading.trim().toLowerCase()}`));

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size && !b.size) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

/** What the notes of `folder` ('' = root) have in common; null when it has too few notes to say. */
export async function inferConventions(vault: ScopedVault, folder: string): Promise<InferredConventions | null> {
  const isTemplate = (p: string) => dirname(p).split('/').some((seg) => TEMPLATE_FOLDER.test(seg));
  const usable = (p: string) => basename(p) !== CONVENTIONS_FILE && !isTemplate(p);
  let notes = vault.notes(folder === '' ? '' : folder).filter((f) => dirname(f.path) === folder && usable(f.path));
  if (notes.length < MIN_NOTES && folder !== '') notes = vault.notes(folder).filter((f) => inFolder(f.path, folder) && usable(f.path));
  if (notes.length < MIN_NOTES) return null;
  const n = notes.length;
  const keys = new Map<string, number>();
  const values = new Map<string, Map<string, number>>();
  const tags = new Map<string, number>();
  const heads = new Map<string, number>();
  for (const f of notes) {
    const m = vault.metadata(f.path);
    const fm = m?.frontmatter ?? {};
    for (const [k, v] of Object.entries(fm)) {
      keys.set(k, (keys.get(k) ?? 0) + 1);
      if (isScalar(v)) { const vs = values.get(k) ?? new Map<string, number>(); vs.set(JSON.stringify(v), (vs.get(JSON.stringify(v)) ?? 0) + 1); values.set(k, vs); }
    }
    for (const t of new Set(noteTags(m?.frontmatter, m?.tags).map((t) => t.toLowerCase()))) tags.set(t, (tags.get(t) ?? 0) + 1);
    for (const h of headingKeys(m)) heads.set(h, (heads.get(h) ?? 0) + 1);
  }
  const top = (m: Map<string, number>, min: number, max: number): [string, number][] => [...m].filter(([, c]) => c / n >= min).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, max);
  const frontmatter = Object.fromEntries(top(keys, KEY_SHARE, 12).map(([k, c]) => [k, share(c, n)]));
  const common: Record<string, unknown> = {};
  for (const k of Object.keys(frontmatter)) {
    const best = [...(values.get(k) ?? [])].sort((a, b) => b[1] - a[1])[0];
    if (best && best[1] / n >= COMMON && best[0] !== 'null' && best[0] !== '""') common[k] = JSON.parse(best[0]);
  }
  const tagShares = Object.fromEntries(top(tags, TAG_SHARE, 10).map(([t, c]) => [t, share(c, n)]));
  const out: InferredConventions = { notes: n, frontmatter };
  if (Object.keys(common).length) out.values = common;
  if (Object.keys(tagShares).length) out.tags = tagShares;
  const template = await matchingTemplate(vault, folder, new Set(Object.keys(frontmatter).filter((k) => frontmatter[k] >= COMMON)), new Set(top(heads, COMMON, 50).map(([h]) => h)));
  if (template) out.template = template;
  return out;
}

/** The template whose frontmatter keys and headings match the folder's best, when one shares a heading or a name word with it. */
async function matchingTemplate(vault: ScopedVault, folder: string, keys: Set<string>, heads: Set<string>): Promise<InferredConventions['template'] | null> {
  const words = (s: string) => new Set(s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2).map((w) => w.replace(/s$/, '')));
  const folderWords = words(basename(folder));
  let best: { path: string; score: number } | null = null;
  for (const f of vault.notes()) {
    if (!dirname(f.path).split('/').some((seg) => TEMPLATE_FOLDER.test(seg))) continue;
    const m = vault.metadata(f.path);
    const headSim = jaccard(headingKeys(m), heads);
    const nameHit = [...words(noteTitle(f.path))].some((w) => folderWords.has(w));
    if (headSim === 0 && !nameHit) continue;
    const score = 2 * headSim + jaccard(new Set(Object.keys(m?.frontmatter ?? {})), keys) + (nameHit ? 0.5 : 0);
    if (!best || score > best.score || (score === best.score && f.path.length < best.path.length)) best = { path: f.path, score };
  }
  if (!best) return null;
  const text = await vault.host.readText(best.path);
  return { path: best.path, content: text.slice(0, TEMPLATE_CHARS), ...(text.length > TEMPLATE_CHARS ? { truncated: true as const } : {}) };
}
