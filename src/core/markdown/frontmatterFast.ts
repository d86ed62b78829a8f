// Frontmatter helpers of the parser: links written as "[[…]]" values, and a fast path for the
// simple YAML most notes have (checked against the `yaml` package by tests).
import type { FrontmatterLinkCache } from './metadata.js';

// ---------------------------------------------------------------------------------------------
// Frontmatter links

export function frontmatterLinks(data: Record<string, unknown>): FrontmatterLinkCache[] {
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

export function simpleYaml(text: string): Record<string, unknown> | null {
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

