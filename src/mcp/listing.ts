// What tools/list says about a tool, built once: the JSON schemas of a tool never change (they are
// converted from zod once per tool), and a caller's whole listing is kept until the settings or the
// set of tools it may use change. The schemas are lean: what a model reads is paid for in context on
// every turn, so JSON-schema noise goes ($schema, ±2^53 bounds of every integer, additionalProperties
// (the dispatcher refuses an unknown argument by name), `propertyNames: string` of records, `anyOf
// [T, null]` where a type list says the same, `default: false` of a boolean flag).
//
// Output schemas document results; the server checks every result against the full zod schema itself
// (dispatch), and clients only validate. So they keep the shape (objects, arrays, records, enums) and
// a brief description of every field, and leave out what the description and the value already say:
// `required`, and the type of a scalar field ("size": "Bytes", not {"type": "integer"}).
import { z } from 'zod';
import type { ServerDeps, ToolDef } from './tool.js';

type Json = Record<string, unknown>;

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  outputSchema: { type: 'object'; [k: string]: unknown };
  annotations: ToolDef['annotations'] & { title: string };
}

const SAFE = Number.MAX_SAFE_INTEGER;
const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const isScalar = (t: unknown) => (Array.isArray(t) ? t.every((x) => SCALARS.has(x as string)) : SCALARS.has(t as string));
const isEmpty = (s: unknown) => !!s && typeof s === 'object' && !Array.isArray(s) && Object.keys(s).length === 0;

/** A JSON schema without the noise (see above); `output` for a result's schema. */
export function leanSchema(schema: unknown, output: boolean, top = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => leanSchema(s, output, false));
  if (!schema || typeof schema !== 'object') return schema;
  const o = schema as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === '$schema') continue;
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    // A count or offset is at least 0 or 1 without saying so (a 0 limit is refused by name).
    if (k === 'minimum' && (v === 0 || v === 1) && o.type === 'integer') continue;
    if (k === 'additionalProperties' && v === false) continue;
    // An optional flag is off unless passed: `default: false` on a boolean says nothing.
    if (k === 'default' && v === false && o.type === 'boolean') continue;
    if (k === 'required' && output) continue;
    if (k === 'type' && output && !top && (isScalar(v) || Array.isArray(o.enum) || 'const' in o)) continue;
    // Object keys are strings in JSON: a record's `propertyNames: {type: string}` says nothing.
    if (k === 'propertyNames' && JSON.stringify(v) === '{"type":"string"}') continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, leanSchema(s, output, false)])) : leanSchema(v, output, false);
  }
  if (output) {
    // Nothing left to say about a record's values or an array's items once their scalar type is gone.
    for (const k of ['items', 'additionalProperties']) if (isEmpty(out[k])) delete out[k];
    const any = out.anyOf as Json[] | undefined;
    if (Array.isArray(any) && any.every((s) => isEmpty(s) || (s.type === 'null' && Object.keys(s).length === 1))) delete out.anyOf;
    return out;
  }
  // anyOf [{type: T, …}, {type: 'null'}] → {type: [T, 'null'], …}
  const any = out.anyOf as Json[] | undefined;
  if (Array.isArray(any) && any.length === 2 && any.some((s) => s.type === 'null' && Object.keys(s).length === 1)) {
    const other = any.find((s) => !(s.type === 'null' && Object.keys(s).length === 1))!;
    if (typeof other.type === 'string' && !('anyOf' in other)) {
      delete out.anyOf;
      Object.assign(out, other, { type: [other.type, 'null'] }, Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {});
    }
  }
  return out;
}

const schemas = new WeakMap<ToolDef, { input: ToolListing['inputSchema']; output: ToolListing['outputSchema'] }>();

function schemasOf(t: ToolDef) {
  let s = schemas.get(t);
  if (!s) {
    s = {
      input: leanSchema(z.toJSONSchema(t.input, { io: 'input' }), false) as ToolListing['inputSchema'],
      output: leanSchema(z.toJSONSchema(t.output, { io: 'output' }), true) as ToolListing['outputSchema'],
    };
    schemas.set(t, s);
  }
  return s;
}

export function toolListing(t: ToolDef, deps: ServerDeps): ToolListing {
  const s = schemasOf(t);
  return {
    name: t.name,
    title: t.title,
    description: typeof t.description === 'function' ? t.description(deps) : t.description,
    inputSchema: s.input,
    outputSchema: s.output,
    annotations: { title: t.title, ...t.annotations },
  };
}

/**
 * A caller's listing, rebuilt only when the settings (descriptions quote limits) or the tools it may
 * use changed. Keyed by the settings' JSON: the plugin edits its settings object in place.
 */
const cache = new Map<string, ToolListing[]>();
const CACHE_MAX = 32;

export function listingFor(tools: ToolDef[], deps: ServerDeps): ToolListing[] {
  const key = `${JSON.stringify(deps.settings())}\u0000${tools.map((t) => t.name).join(',')}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = tools.map((t) => toolListing(t, deps));
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(key, hit);
  }
  return hit;
}
