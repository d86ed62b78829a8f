// Agent tasks on the Obsidian Hub vault over HTTP: what an agent pays in calls and in bytes that reach
// the model for twelve everyday tasks. Claude Code and VS Code give the model only
// JSON.stringify(structuredContent) when a result has one (errors reach it as text), so that is what
// is counted; tools/list is measured apart (model-visible part: name, title, description, input schema).
//
//   npm run bench agent                                   # this checkout, compared with bench/agent-tasks.before.json
//   node --import tsx bench/agent-tasks.bench.ts --root DIR --out FILE.json   # another checkout (e.g. the "before" commit)
//
// The server is the checkout's own CLI (`node --import tsx <root>/src/cli.ts serve`), on a fresh copy
// of the vault each run. The agent adapts to what the server offers (it reads tools/list): with
// read_note(match=…) it reads by match, with get_vault_guide's digest it orients in one call, and so
// on; without them it does what an agent had to do before. Every step checks its outcome, so a figure
// is only printed for a task that was really done.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..');
const argv = process.argv.slice(2);
const arg = (n: string) => { const i = argv.indexOf(n); return i >= 0 ? argv[i + 1] : undefined; };
const ROOT = resolve(arg('--root') ?? REPO);
const OUT = arg('--out');
const BEFORE = arg('--compare') ?? join(HERE, 'agent-tasks.before.json');
const HUB = resolve(REPO, '../shared/fixtures/vaults/obsidian-hub.tar.gz');
const KEY = 'vmcp_agent_bench_key_0123456789abcdefghijklmn';

type Json = Record<string, any>;
interface Step { tool: string; bytes: number; error?: string }
interface TaskResult { task: string; calls: number; bytes: number; steps: Step[] }

const P = {
  seekingHelp: '01 - Community/Contributing to the Community/Plugins seeking help.md',
  dataview: '02 - Community Expansions/02.05 All Community Expansions/Plugins/dataview.md',
  people: '01 - Community/People',
  introDataview: '04 - Guides, Workflows, & Courses/Guides/An Introduction to Dataview.md',
  corePlugins: '05 - Concepts/Obsidian Core Plugins.md',
  garden: '05 - Concepts/Obsidian Sync.md',
};

async function startServer(vault: string): Promise<{ url: string; child: ChildProcess }> {
  const data = mkdtempSync(join(tmpdir(), 'vmcp-agent-data-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli.ts'), 'serve', '--vault', vault, '--port', '0', '--data-dir', data, '--cache-dir', join(data, 'cache'), '--no-watch'], {
    cwd: ROOT, env: { ...process.env, VAULT_MCP_TOKEN: KEY }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += d; });
  child.stderr!.on('data', (d) => { out += d; });
  const url = await new Promise<string>((res, rej) => {
    const t = setTimeout(() => rej(new Error(`server did not start:\n${out}`)), 180_000);
    const check = () => { const m = /listening on (http:\/\/\S+\/mcp)/.exec(out); if (m) { clearTimeout(t); res(m[1]); } };
    child.stdout!.on('data', check);
    child.on('exit', (c) => { clearTimeout(t); rej(new Error(`server exited ${c}:\n${out}`)); });
  });
  return { url, child };
}

async function connect(url: string): Promise<Client> {
  const c = new Client({ name: 'agent-bench', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${KEY}` } } }));
  return c;
}

/** What the model receives for one result. */
function modelBytes(r: Json): number {
  if (!r.isError && r.structuredContent) return Buffer.byteLength(JSON.stringify(r.structuredContent));
  return Buffer.byteLength((r.content ?? []).filter((c: Json) => c.type === 'text').map((c: Json) => c.text).join('\n'));
}

class Agent {
  steps: Step[] = [];
  tools = new Map<string, Json>();
  constructor(readonly c: Client) {}
  async init() { for (const t of (await this.c.listTools()).tools) this.tools.set(t.name, t); }
  has(tool: string, arg?: string): boolean {
    const t = this.tools.get(tool);
    return !!t && (!arg || Object.prototype.hasOwnProperty.call(t.inputSchema.properties ?? {}, arg));
  }
  async call(tool: string, args: Json = {}, expectError = false): Promise<Json> {
    const r = (await this.c.callTool({ name: tool, arguments: args })) as Json;
    const text = (r.content ?? []).map((c: Json) => c.text ?? '').join('\n');
    if (!!r.isError !== expectError) throw new Error(`${tool}(${JSON.stringify(args).slice(0, 200)}) ${r.isError ? `refused: ${text.slice(0, 400)}` : 'succeeded where a refusal was expected'}`);
    this.steps.push({ tool, bytes: modelBytes(r), ...(r.isError ? { error: (/MCP-REFUSAL (\{.*\})/.exec(text)?.[1]) ?? 'error' } : {}) });
    return r.isError ? { text } : r.structuredContent;
  }
  take(): Step[] { const s = this.steps; this.steps = []; return s; }
}

function must(cond: unknown, what: string): void { if (!cond) throw new Error(`task check failed: ${what}`); }

/** The tasks, in order (later ones rely on the vault state earlier ones leave). */
function tasks(startIso: string): [string, (a: Agent, mem: Json) => Promise<void>][] {
  return [
    ['orient in the vault', async (a, mem) => {
      const g = await a.call('get_vault_guide');
      if (g.digest) {
        const n = (x: unknown) => (Array.isArray(x) ? x.length : x && typeof x === 'object' ? Object.keys(x).length : 0);
        must(n(g.digest.folders) && n(g.digest.most_linked) && n(g.digest.tags), 'digest has folders, hubs and tags');
        mem.cursor = g.digest.changes_cursor;
        return;
      }
      await a.call('stats');
      await a.call('list_folders');
      await a.call('get_tags');
      await a.call('get_most_linked');
    }],
    ['find a note by a vague description', async (a) => {
      const s = await a.call('keyword_search', { query: 'plugin to draw sketches and diagrams', limit: 5 });
      const hit = s.results.find((r: Json) => /Plugins\/(simple-sketch|drawio-obsidian|obsidian-excalidraw-plugin)\.md$/.test(r.path)) ?? s.results[0];
      must(hit, 'a result');
      if (hit.section && a.has('read_note', 'match')) await a.call('read_note', { path: hit.path, section: hit.section });
      else await a.call('read_note', { path: hit.path });
    }],
    ['find a word, read the right part of a long note', async (a) => {
      const s = await a.call('keyword_search', { query: 'dataview documentation issues help', limit: 5 });
      must(s.results.some((r: Json) => r.path === P.seekingHelp), 'the 75 KB note is in the top 5');
      if (a.has('read_note', 'match')) {
        const r = await a.call('read_note', { path: P.seekingHelp, match: 'dataview' });
        must(JSON.stringify(r).includes('Minor Text Update add-metadata page'), 'the Dataview documentation issues are in the answer');
        return;
      }
      // Before: the whole note is cut at the read cap; its outline points at the Documentation section.
      const r = await a.call('read_note', { path: P.seekingHelp });
      const doc = (r.outline ?? []).find((o: Json) => o.text === 'Documentation');
      must(doc, 'the outline has a Documentation section');
      const sec = await a.call('read_note', { path: P.seekingHelp, section: doc.ordinal });
      must(sec.content.includes('Minor Text Update add-metadata page'), 'the section has the Dataview documentation issues');
    }],
    ['backlinks of a hub note', async (a) => {
      const r = await a.call('get_backlinks', { path: a.has('get_backlinks', 'max_links_per_note') ? 'dataview' : P.dataview });
      must(r.total_notes > 30, 'the hub has its backlinks');
    }],
    ['open tasks', async (a) => {
      const r = await a.call('list_tasks', {});
      must(r.total > 0, 'tasks listed');
    }],
    ['create a note following the folder\'s conventions', async (a) => {
      const c = await a.call('get_conventions', { path: P.people });
      let template: string;
      if (c.inferred?.template?.content) template = c.inferred.template.content;
      else {
        const l = await a.call('list_notes', { folder: P.people, limit: 3 });
        const peer = await a.call('read_note', { path: l.notes[0].path });
        template = `---\n${peer.frontmatter_yaml}---\n\n# {{title}}\n`;
      }
      const body = template.replace(/\{\{title\}\}/g, 'Ada Example');
      await a.call('create_note', { path: `${P.people}/Ada Example.md`, content: body });
    }],
    ['append to a note', async (a) => {
      await a.call('edit_note', { path: `${P.people}/Ada Example.md`, append: true, content: '\n- Met at the 2026 community call.\n' });
    }],
    ['find and replace in a note', async (a) => {
      const find = 'The *official documentation* which you can use for reference is available here:';
      const r = a.has('read_note', 'match')
        ? await a.call('read_note', { path: P.introDataview, match: 'official documentation' })
        : await a.call('read_note', { path: P.introDataview });
      must(JSON.stringify(r).includes('official documentation'), 'the phrase was read');
      await a.call('edit_note', { path: P.introDataview, find, content: 'The *official documentation*, which you can use for reference, is here:', expected_hash: r.content_hash });
    }],
    ['rename a note and its links', async (a) => {
      const r = await a.call('move_note', { from_path: P.corePlugins, to_path: '05 - Concepts/Core Plugins.md', rewrite_links: true });
      must(r.links.links_rewritten > 0, 'links rewritten');
    }],
    ['what changed since the start', async (a, mem) => {
      const r = await a.call('get_changes', { since: mem.cursor ?? startIso });
      must(r.changes.filter((c: Json) => c.kind !== 'gap').length >= 3, 'the three writes are listed');
    }],
    ['edit after someone else changed the note', async (a, mem) => {
      const find = '#placeholder/description';
      const read = a.has('read_note', 'match')
        ? await a.call('read_note', { path: P.garden, match: find })
        : await a.call('read_note', { path: P.garden });
      // Another writer (the user in Obsidian) appends a line meanwhile; not counted for the agent.
      await mem.other.callTool({ name: 'edit_note', arguments: { path: P.garden, append: true, content: '\nAdded by the user meanwhile.\n' } });
      const edit = { path: P.garden, find, content: 'Obsidian Sync keeps a vault in step across devices, end-to-end encrypted.', expected_hash: read.content_hash };
      if (a.has('edit_note') && JSON.stringify(a.tools.get('edit_note')!.outputSchema ?? {}).includes('rebased_from')) {
        const r = await a.call('edit_note', edit);
        must(r.rebased_from === read.content_hash, 'applied on the current note (rebased)');
        return;
      }
      const refused = await a.call('edit_note', edit, true);
      must(/stale_precondition/.test(refused.text), 'refused as stale');
      const again = await a.call('read_note', { path: P.garden });
      await a.call('edit_note', { ...edit, expected_hash: again.content_hash });
    }],
    ['broken links', async (a) => {
      const r = await a.call('get_broken_links', {});
      must(r.total > 100, 'broken links listed');
    }],
  ];
}

async function run(): Promise<{ root: string; commit: string; tools: number; list_bytes: number; list_model_bytes: number; tasks: TaskResult[] }> {
  if (!existsSync(HUB)) { console.log(`skipped: ${HUB} is not present (fresh clone without ../shared)`); process.exit(0); }
  const tmp = mkdtempSync(join(tmpdir(), 'vmcp-agent-'));
  execFileSync('tar', ['-xzf', HUB, '-C', tmp]);
  const vault = join(tmp, 'obsidian-hub');
  const startIso = new Date(Date.now() - 1000).toISOString();
  const { url, child } = await startServer(vault);
  try {
    const c = await connect(url);
    const other = await connect(url);
    const agent = new Agent(c);
    const listed = (await c.listTools()).tools;
    await agent.init();
    const modelVisible = listed.reduce((n, t) => n + Buffer.byteLength(JSON.stringify({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema })), 0);
    const mem: Json = { other };
    const results: TaskResult[] = [];
    for (const [name, fn] of tasks(startIso)) {
      await fn(agent, mem);
      const steps = agent.take();
      results.push({ task: name, calls: steps.length, bytes: steps.reduce((n, s) => n + s.bytes, 0), steps });
    }
    await c.close();
    await other.close();
    let commit = '';
    try { commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim(); } catch { /* not a git checkout */ }
    return { root: ROOT, commit, tools: listed.length, list_bytes: Buffer.byteLength(JSON.stringify(listed)), list_model_bytes: modelVisible, tasks: results };
  } finally {
    child.kill('SIGTERM');
    rmSync(tmp, { recursive: true, force: true });
  }
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;

const now = await run();
if (OUT) writeFileSync(OUT, JSON.stringify(now, null, 2) + '\n');
const before = !OUT && existsSync(BEFORE) ? (JSON.parse(readFileSync(BEFORE, 'utf8')) as typeof now) : null;
const lines: string[] = [];
lines.push(`Hub vault, ${now.tools} tools; tools/list ${kb(now.list_bytes)} (model-visible ${kb(now.list_model_bytes)})${before ? `; before (${before.commit}): ${before.tools} tools, ${kb(before.list_bytes)} (model-visible ${kb(before.list_model_bytes)})` : ''}`);
lines.push(before ? '| task | calls before | calls now | bytes before | bytes now | ratio |' : '| task | calls | bytes to the model |');
lines.push(before ? '| --- | --- | --- | --- | --- | --- |' : '| --- | --- | --- |');
let tb = 0, tn = 0, cb = 0, cn = 0;
for (const t of now.tasks) {
  const b = before?.tasks.find((x) => x.task === t.task);
  tn += t.bytes; cn += t.calls;
  if (b) { tb += b.bytes; cb += b.calls; }
  lines.push(before && b ? `| ${t.task} | ${b.calls} | ${t.calls} | ${kb(b.bytes)} | ${kb(t.bytes)} | ${(t.bytes / b.bytes).toFixed(2)}× |` : `| ${t.task} | ${t.calls} | ${kb(t.bytes)} |`);
}
lines.push(before ? `| all tasks | ${cb} | ${cn} | ${kb(tb)} | ${kb(tn)} | ${(tn / tb).toFixed(2)}× |` : `| all tasks | ${cn} | ${kb(tn)} |`);
console.log(lines.join('\n'));
if (process.env.AGENT_BENCH_STEPS) for (const t of now.tasks) console.log(`${t.task}: ${t.steps.map((s) => `${s.tool} ${s.bytes}${s.error ? ` (${s.error})` : ''}`).join(', ')}`);
if (process.env.AGENT_BENCH_LOG) appendFileSync(process.env.AGENT_BENCH_LOG, lines.join('\n') + '\n');
