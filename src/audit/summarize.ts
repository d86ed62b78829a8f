// What the audit log keeps of a call's arguments: never file contents and never a key. Content-like
// arguments (content, updates, find, replace…) are recorded as their length only; anything shaped
// like an API key is masked; the whole summary is cut at 200 characters.
import { KEY_PREFIX } from '../core/keys.js';

export const ARGS_MAX = 200;

const CONTENT_LIKE = /^(content|contents|text|body|updates|update|find|replace|replacement|search_text|old_text|new_text|old_string|new_string|append|prepend|insert|patch|diff|data|base64|bytes|value|values|edits|changes|frontmatter|properties|lines|template|markdown|message)$/i;
const KEYISH = new RegExp(`${KEY_PREFIX}[A-Za-z0-9_-]{4,}`, 'g');

function lengthOf(v: unknown): string {
  if (typeof v === 'string') return `<${v.length} chars>`;
  if (Array.isArray(v)) return `<${v.length} items, ${JSON.stringify(v)?.length ?? 0} chars>`;
  if (v && typeof v === 'object') return `<${Object.keys(v).length} fields, ${JSON.stringify(v)?.length ?? 0} chars>`;
  return `<${typeof v}>`;
}

function scrub(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return v.length > ARGS_MAX ? `${v.slice(0, 60)}…<${v.length} chars>` : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth > 4) return lengthOf(v);
  if (Array.isArray(v)) return v.length > 20 ? [...v.slice(0, 5).map((x) => scrub(x, depth + 1)), `…<${v.length} items>`] : v.map((x) => scrub(x, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = CONTENT_LIKE.test(k) ? lengthOf(x) : scrub(x, depth + 1);
  return out;
}

export function summarizeArgs(args: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(scrub(args ?? {}, 0)) ?? '';
  } catch {
    s = '<unserializable>';
  }
  s = s.replace(KEYISH, `${KEY_PREFIX}…`);
  return s.length > ARGS_MAX ? `${s.slice(0, ARGS_MAX - 1)}…` : s;
}
