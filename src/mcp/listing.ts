// What tools/list says about a tool, built once: the JSON schemas of a tool never change (they are
// converted from zod once per tool), and a caller's whole listing is kept until the settings or the
// set of tools it may use change. The schemas are lean: what a model reads is paid for in context on
// every turn, so JSON-schema noise goes ($schema, ±2^53 bounds of every integer, additionalProperties
// and required of output objects, `anyOf [T, null]` where a type list says the same).
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

/** A JSON schema without the noise (see above); `output` also drops required and additionalProperties. */
export function leanSchema(schema: unknown, output: boolean, top = true): unknown {
  if (Array.isArray(schema)) return schema.map((s) => leanSchema(s, output, false));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    if (k === '$schema') continue;
    if ((k === 'minimum' && v === -SAFE) || (k === 'maximum' && v === SAFE)) continue;
    // Unknown arguments are refused by the dispatcher with a clear message; the flag is kept on the
    // top-level input object only, where it tells the client the argument list is closed.
    if (k === 'additionalProperties' && v === false && (output || !top)) continue;
    if (k === 'required' && output) continue;
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, leanSchema(s, output, false)])) : leanSchema(v, output, false);
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
