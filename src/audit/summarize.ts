// What the audit log keeps of a call's arguments: never file contents and never a key. Content-like
// arguments (content, updates, find, replace…) are recorded as their length only; every configured
// secret (keys of any shape, e.g. VAULT_MCP_TOKEN, and the language model's API key) and anything
// shaped like an API key is masked in every string and property name BEFORE anything is cut, so no
// prefix of a key survives; the whole summary is cut at 200 characters.
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

/** Secrets shorter than this are not masked (a one-letter "key" would mask every such letter). */
const MIN_SECRET = 8;

/** Replaces every configured secret and every key-shaped run in `s`. */
export function maskSecrets(s: string, secrets: readonly string[] = []): string {
  let out = s;
  for (const k of secrets) if (k.length >= MIN_SECRET && out.includes(k)) out = out.split(k).join('<key>');
  return out.replace(KEYISH, `${KEY_PREFIX}…`);
}

function scrub(v: unknown, depth: number, secrets: readonly string[]): unknown {
  if (typeof v === 'string') {
    const m = maskSecrets(v, secrets);
    return m.length > ARGS_MAX ? `${m.slice(0, 60)}…<${v.length} chars>` : m;
  }
  if (v === null || typeof v !== 'object') return v;
  if (depth > 4) return lengthOf(v);
  if (Array.isArray(v)) return v.length > 20 ? [...v.slice(0, 5).map((x) => scrub(x, depth + 1, secrets)), `…<${v.length} items>`] : v.map((x) => scrub(x, depth + 1, secrets));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[maskSecrets(k, secrets)] = CONTENT_LIKE.test(k) ? lengthOf(x) : scrub(x, depth + 1, secrets);
  return out;
}

export function summarizeArgs(args: unknown, secrets: readonly string[] = []): string {
  let s: string;
  try {
    s = JSON.stringify(scrub(args ?? {}, 0, secrets)) ?? '';
  } catch {
    s = '<unserializable>';
  }
  s = maskSecrets(s, secrets);
  return s.length > ARGS_MAX ? `${s.slice(0, ARGS_MAX - 1)}…` : s;
}
