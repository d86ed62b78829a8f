// What the model sees of the tool list and of every result (issue 16). A readwrite key with every family
// on (semantic with the GloVe fixture model, an LLM configured, git present):
// - the model-visible definitions (name, title, description, input schema) stay within 24 KB and the
//   output schemas within 20 KB, with no JSON-schema noise and every output field described;
// - for EVERY listed tool, a call that provokes its next steps (pages, cut reads, jobs) answers them in
//   structuredContent: the text copy ends with the same `hint`, and nothing in it that tells the agent
//   what to do next is missing from the structure (Claude Code and VS Code give the model only
//   structuredContent). A tool added without a case here fails the test.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from '../helpers/paths.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { copyVault } from '../helpers/vault.js';
import { startTestRuntime, type TestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf, type ToolResult } from '../helpers/server.js';
import { listingFor } from '../../src/mcp/listing.js';
import { allTools } from '../../src/mcp/tools/index.js';
import { withDefaults } from '../../src/settings.js';
import type { ServerDeps } from '../../src/mcp/tool.js';

const MODEL = join(SHARED, 'fixtures/models/glove-static-100d');
const KB = 1024;
let rt: TestRuntime;
let c: Client;
let vault: string;

before(async () => {
  vault = copyVault();
  const git = (...a: string[]) => execFileSync('git', ['-C', vault, ...a], { stdio: 'ignore', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  git('init', '-q', '-b', 'main'); git('add', '-A'); git('commit', '-q', '-m', 'sample vault');
  rt = await startTestRuntime(vault, { embeddingModel: existsSync(MODEL) ? MODEL : '', llmUrl: 'http://127.0.0.1:9/v1', llmModel: 'm' } as never);
  c = await connect(rt.url, rt.rwKey);
});

after(async () => {
  await c?.close().catch(() => undefined);
  await rt?.stop();
});

type Json = Record<string, unknown>;
const bytes = (o: unknown) => Buffer.byteLength(JSON.stringify(o ?? {}));

test('tool definitions fit the budget: ≤ 24 KB model-visible, output schemas ≤ 20 KB, no schema noise, every output field described', async (t) => {
  if (!existsSync(MODEL)) { t.skip('GloVe fixture model absent (../shared)'); return; }
  const { tools } = await c.listTools();
  const names = tools.map((x) => x.name);
  for (const n of ['semantic_search', 'summarize', 'get_history', 'create_note', 'get_backlinks']) assert.ok(names.includes(n), `every family on: ${n} listed`);
  const visible = tools.reduce((n, x) => n + bytes({ name: x.name, title: x.title, description: x.description, inputSchema: x.inputSchema }), 0);
  const output = tools.reduce((n, x) => n + bytes(x.outputSchema), 0);
  console.log(`# ${tools.length} tools: model-visible ${visible} bytes, output schemas ${output} bytes`);
  assert.ok(visible <= 24 * KB, `model-visible definitions ${visible} bytes > 24 KB`);
  assert.ok(output <= 20 * KB, `output schemas ${output} bytes > 20 KB`);
  const all = JSON.stringify(tools);
  for (const noise of ['"$schema"', '9007199254740991', '"propertyNames":{"type":"string"}', '"default":false']) assert.ok(!all.includes(noise), `no ${noise} in the listing`);
  // Every output field is described (objects inside arrays and records too).
  const undescribed: string[] = [];
  const walk = (s: Json | undefined, at: string) => {
    if (!s || typeof s !== 'object') return;
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Json>)) {
      if (!v.description) undescribed.push(`${at}.${k}`);
      walk(v, `${at}.${k}`);
    }
    if (s.items) walk(s.items as Json, `${at}[]`);
    if (s.additionalProperties && typeof s.additionalProperties === 'object') walk(s.additionalProperties as Json, `${at}{}`);
    for (const alt of (s.anyOf ?? []) as Json[]) walk(alt, at);
  };
  for (const x of tools) walk(x.outputSchema as Json, x.name);
  assert.deepEqual(undescribed, []);
});

test('the listing is built once per settings: the same array until the settings change', async () => {
  const a = await c.listTools();
  const b = await c.listTools();
  assert.deepEqual(a, b);
  const settings = { ...withDefaults({ port: 0 }) };
  const deps = { settings: () => settings } as unknown as ServerDeps;
  const tools = allTools().filter((t) => ['read', 'graph', 'write'].includes(t.family));
  const first = listingFor(tools, deps);
  assert.equal(listingFor(tools, deps), first, 'served from the cache');
  settings.readCapChars = 1234;
  const changed = listingFor(tools, deps);
  assert.notEqual(changed, first, 'rebuilt after a settings change');
  assert.match(changed.find((t) => t.name === 'read_note')!.description, /1234 characters/);
});

// One call per tool, aimed at its next steps: a page with more after it, a cut read, a job still working.
const CASES: Record<string, Json[]> = {
  read_note: [{ path: 'Welcome', limit: 80 }, { path: 'Welcome', match: 'e', context: 0, limit: 40 }, { path: 'Welcome', lines: '1-3' }],
  list_notes: [{ limit: 1 }],
  list_folders: [{}],
  get_tags: [{ limit: 1 }],
  get_vault_guide: [{}],
  stats: [{}],
  read_file: [{ path: 'Welcome.md', limit: 40 }, { path: 'Attachments/logo.png', hash_only: true }],
  list_files: [{ limit: 1, recursive: true }],
  keyword_search: [{ query: 'garden', limit: 1 }],
  reindex: [{}],
  semantic_search: [{ query: 'planting a garden', limit: 1 }],
  hybrid_search: [{ query: 'garden', limit: 1 }],
  find_related: [{ path: 'Projects/Garden Redesign', limit: 1 }],
  build_embeddings: [{}],
  summarize: [{ paths: ['Projects'] }],
  get_job_result: [{ job_id: 'job_unknown' }],
  get_conventions: [{ path: 'Projects' }, { path: 'People' }],
  create_note: [{ path: 'Projects/Listing probe', content: '# Probe\n\nSee [[Welcome]].\n' }],
  edit_note: [{ path: 'Projects/Listing probe', find: 'See', content: 'Read', dry_run: true }, { path: 'Projects/Listing probe', append: true, content: '\nmore\n' }],
  set_frontmatter: [{ path: 'Projects/Listing probe', updates: { status: 'draft' } }],
  move_note: [{ from_path: 'Projects/Listing probe', to_path: 'Projects/Listing probe 2', rewrite_links: true }],
  move_folder: [{ from_dir: 'Daily', to_dir: 'Journal' }],
  delete_note: [{ path: 'Projects/Listing probe 2' }],
  write_file: [{ path: 'Attachments/probe.txt', content: 'hello', encoding: 'text' }],
  delete_file: [{ path: 'Attachments/probe.txt' }],
  get_backlinks: [{ path: 'People/Ada Lovelace', limit: 1, max_links_per_note: 1 }],
  get_links: [{ path: 'Projects/Links', limit: 1 }],
  get_broken_links: [{ limit: 1 }],
  find_orphans: [{ limit: 1 }],
  get_most_linked: [{ limit: 1 }],
  get_neighborhood: [{ path: 'Welcome', limit: 1 }],
  get_connection_path: [{ source: 'People/Grace Hopper', target: 'Orphan' }, { source: 'People/Grace Hopper', target: 'Welcome' }],
  get_toc: [{ path: '', limit: 1 }, { path: 'Projects/Garden Redesign' }],
  get_context: [{ path: 'Projects/Links' }],
  list_tasks: [{ limit: 1 }],
  get_recent: [{ limit: 1 }],
  get_changes: [{ since: 'ev:0', limit: 1 }],
  request_download: [{ path: 'Welcome.md' }],
  request_upload: [{ path: 'Inbox/scan.pdf' }],
  check_upload: [{ upload_id: 'up_unknown' }],
  import_from_url: [{ url: 'https://127.0.0.1:9/x.pdf', path: 'Clippings/x.pdf' }],
  get_history: [{ path: '', limit: 1 }],
  get_diff: [{ path: 'Welcome.md', since_sha: 'HEAD' }],
};

/** Every string value in a structure (keys too, for records keyed by path). */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); strings(x, out); }
  return out;
}

// Words that tell the agent what to do next: a parameter to pass, a tool to call, a retry.
const NEXT_STEP = /\bpass\b|\bcall (?:again|\w+_\w+)|next_cursor|\b(?:offset|lines|cursor|limit|wait_for_pending_writes|expected_hash|force|dry_run)=|\b(?:read_note|keyword_search|get_links|get_backlinks|get_job_result|stats|build_embeddings|reindex|check_upload|request_upload|get_conventions|read_file|list_files)\b|\bgive (?:this|the|it)\b|\bretry\b|\btry again\b|\bshortly\b/i;

test('every tool: hints and next steps are in structuredContent; the text copy adds none', async () => {
  const { tools } = await c.listTools();
  const missing = tools.map((x) => x.name).filter((n) => !CASES[n]);
  assert.deepEqual(missing, [], 'every listed tool has a case here');
  const problems: string[] = [];
  let answered = 0;
  for (const x of tools) {
    for (const args of CASES[x.name]) {
      const r: ToolResult = await call(c, x.name, args);
      if (r.isError) continue; // refusals are text by design (MCP-REFUSAL line); they are not answers
      answered++;
      const s = r.structuredContent;
      const text = textOf(r);
      const where = `${x.name}(${JSON.stringify(args)})`;
      if (!s) { problems.push(`${where}: no structuredContent`); continue; }
      if (s.hint !== undefined) {
        if (typeof s.hint !== 'string' || !s.hint) problems.push(`${where}: empty hint`);
        else if (!text.endsWith(s.hint)) problems.push(`${where}: the text does not end with the hint`);
      }
      // What the text says beyond the structure's own strings must hold no next step.
      let rest = text;
      for (const str of strings(s).filter((v) => v.length >= 6).sort((a, b) => b.length - a.length)) rest = rest.split(str).join(' ');
      for (const line of rest.split('\n')) if (NEXT_STEP.test(line)) problems.push(`${where}: text-only next step: ${line.trim().slice(0, 160)}`);
      // No null and no empty string in a result: absent means "nothing".
      const nulls = JSON.stringify(s, (_k, v: unknown) => (v === null ? '<<NULL>>' : v === '' ? '<<EMPTY>>' : v));
      if (/<<NULL>>/.test(nulls)) problems.push(`${where}: null field`);
    }
  }
  assert.ok(answered >= 40, `most cases answered (${answered})`);
  assert.deepEqual(problems, []);
});
