// End-to-end: the built CLI serving a temp copy of the sample vault, driven by the real SDK client
// over real HTTP. Covers auth, Host/Origin guards, /health, every read tool and its refusals.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../helpers/vault.js';
import { startCli, connect, call, refusalCode, textOf, type CliServer } from '../helpers/server.js';
import { contentHash } from '../../src/core/hash.js';
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const RW = 'vmcp_e2e_readwrite_key_0123456789abcdef';
const RO = 'vmcp_e2e_read_key_0123456789abcdef';
let vault: string;
let srv: CliServer;
let rw: Client;
let ro: Client;

before(async () => {
  vault = copyVault();
  // Byte-fidelity fixtures: CRLF, BOM, NFD file name, a long note, malformed and JSON-hostile YAML.
  writeFileSync(join(vault, 'crlf.md'), '---\r\ntitle: CRLF\r\n---\r\n# Head\r\nline one\r\n');
  writeFileSync(join(vault, 'bom.md'), '\uFEFF# Bom note\nbody\n');
  writeFileSync(join(vault, 'Cafe\u0301.md'), '# Café\nnfd name\n');
  const sections = Array.from({ length: 30 }, (_, i) => `## Part ${i + 1}\n${'lorem ipsum '.repeat(200)}\n`).join('');
  writeFileSync(join(vault, 'Long.md'), `# Long\n${sections}`);
  writeFileSync(join(vault, 'bad-yaml.md'), '---\nkey: [unclosed\n---\nbody\n');
  writeFileSync(join(vault, 'big-int.md'), '---\nn: .inf\n---\nbody\n');
  writeFileSync(join(vault, 'dup.md'), '# A\n## Same\none\n# B\n## Same\ntwo\n');
  mkdirSync(join(vault, '.hidden'), { recursive: true });
  writeFileSync(join(vault, '.hidden', 'secret.md'), 'secret');
  srv = await startCli(vault, { env: { VAULT_MCP_TOKEN: RW, VAULT_MCP_READ_TOKEN: RO } });
  rw = await connect(srv.url, RW);
  ro = await connect(srv.url, RO);
});

after(async () => {
  await rw?.close();
  await ro?.close();
  const code = await srv?.stop();
  assert.equal(code, 0, `server should exit cleanly on SIGTERM:\n${srv?.output()}`);
});

const origin = () => new URL(srv.url).origin;

test('401 with WWW-Authenticate without a key, and with a wrong key', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const none = await fetch(srv.url, { method: 'POST', headers, body });
  assert.equal(none.status, 401);
  assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
  const wrong = await fetch(srv.url, { method: 'POST', headers: { ...headers, authorization: 'Bearer vmcp_nope' }, body });
  assert.equal(wrong.status, 401);
});

test('403 for a foreign Host header and a web Origin; no wildcard CORS', async () => {
  const { request } = await import('node:http');
  const status = (headers: Record<string, string>) => new Promise<{ code: number; cors?: string }>((resolve, reject) => {
    const req = request(srv.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${RW}`, ...headers } }, (res) => {
      res.resume();
      resolve({ code: res.statusCode!, cors: res.headers['access-control-allow-origin'] as string | undefined });
    });
    req.on('error', reject);
    req.end('{}');
  });
  assert.equal((await status({ host: 'evil.example:80' })).code, 403);
  assert.equal((await status({ origin: 'https://evil.example' })).code, 403);
  const local = await status({ origin: 'http://localhost:6274' });
  assert.notEqual(local.code, 403);
  assert.equal(local.cors, 'http://localhost:6274');
});

test('/health needs no key and reveals counts only', async () => {
  const res = await fetch(`${origin()}/health`);
  assert.equal(res.status, 200);
  const h = await res.json();
  assert.equal(h.status, 'ok');
  assert.ok(Array.isArray(h.indexes));
  assert.ok(!JSON.stringify(h).includes('.md'), 'no paths in /health');
});

test('initialize carries instructions that point to get_vault_guide', async () => {
  const instr = rw.getInstructions() ?? '';
  assert.match(instr, /get_vault_guide/);
  assert.match(instr, /expected_hash/);
});

test('every tool has a title, all four annotation hints, an output schema and a short description', async () => {
  const { tools } = await rw.listTools();
  for (const t of tools) {
    assert.ok(t.title, `${t.name} title`);
    for (const h of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) assert.equal(typeof t.annotations?.[h], 'boolean', `${t.name}.${h}`);
    assert.ok(t.outputSchema, `${t.name} outputSchema`);
    assert.ok((t.description ?? '').length > 40 && (t.description ?? '').length < 4000, `${t.name} description length`);
    for (const [k, v] of Object.entries((t.inputSchema as { properties?: Record<string, { description?: string }> }).properties ?? {})) assert.ok(v.description, `${t.name}.${k} is described`);
  }
  for (const name of ['read_note', 'list_notes', 'list_folders', 'get_tags', 'get_vault_guide', 'stats', 'read_file', 'list_files']) {
    assert.ok(tools.some((t) => t.name === name), `${name} listed`);
  }
});

test('a read key lists no write tools', async () => {
  const { tools } = await ro.listTools();
  assert.ok(tools.length > 0);
  // Index rebuilds (admin family) change no note but drop an index: not read-only, destructive.
  const writing = tools.filter((t) => t.annotations?.readOnlyHint !== true);
  assert.ok(writing.every((t) => ['reindex', 'build_embeddings'].includes(t.name) && t.annotations?.destructiveHint === true), `read key sees read-only tools and index rebuilds only: ${writing.map((t) => t.name)}`);
  assert.ok(!tools.some((t) => /^(create|edit|delete|move|write|set)_/.test(t.name)), 'no write tool');
});

test('read_note: whole note, frontmatter, tags, aliases, hash over raw bytes', async () => {
  const r = await call(ro, 'read_note', { path: 'Projects/Garden Redesign.md' });
  assert.equal(r.isError, undefined);
  const s = r.structuredContent!;
  assert.equal(s.path, 'Projects/Garden Redesign.md');
  assert.equal(s.frontmatter.status, 'active');
  assert.deepEqual(s.frontmatter.tags, ['project', 'garden']);
  assert.ok(s.tags.includes('#project') && s.tags.includes('#garden/soil'), `tags: ${s.tags}`);
  assert.equal(s.frontmatter_yaml, undefined, 'the YAML text only when the JSON view cannot show it');
  assert.ok(s.content.startsWith('# Garden Redesign'));
  const raw = readFileSync(join(vault, 'Projects/Garden Redesign.md'));
  assert.equal(s.content_hash, contentHash(raw));
  assert.equal(s.next_offset, undefined);
  assert.equal(s.hint, undefined);
  assert.match(textOf(r), /content_hash: sha256:/);
});

test('read_note: ".md" may be omitted; aliases; comma-string tags', async () => {
  const a = (await call(ro, 'read_note', { path: 'People/Grace Hopper' })).structuredContent!;
  assert.deepEqual(a.frontmatter.aliases, ['Grace', 'Amazing Grace'], 'aliases are in the frontmatter');
  const w = (await call(ro, 'read_note', { path: 'Projects/Website Relaunch.md' })).structuredContent!;
  assert.deepEqual(w.tags.slice(0, 2), ['#project', '#web']);
});

test('read_note: sections by text, Parent/Child path and #N ordinal; unknown section lists headings', async () => {
  const byText = (await call(ro, 'read_note', { path: 'Projects/Garden Redesign.md', section: 'Plan' })).structuredContent!;
  assert.equal(byText.section, '#2 Plan');
  assert.match(byText.content, /^\n1\. Survey the soil/);
  assert.ok(!byText.content.includes('## Tasks'));
  const byOrd = (await call(ro, 'read_note', { path: 'Projects/Garden Redesign.md', section: byText.section })).structuredContent!;
  assert.equal(byOrd.content, byText.content);
  const byPath = (await call(ro, 'read_note', { path: 'Projects/Garden Redesign.md', section: 'Garden Redesign/Tasks' })).structuredContent!;
  assert.equal(byPath.section, '#3 Tasks');
  assert.equal(byPath.content_hash, byText.content_hash, 'hash over the whole file in every mode');
  const dup = await call(ro, 'read_note', { path: 'dup.md', section: 'Same' });
  assert.equal(refusalCode(dup), 'invalid_argument');
  assert.match(textOf(dup), /#2, #4/);
  const second = (await call(ro, 'read_note', { path: 'dup.md', section: 'B/Same' })).structuredContent!;
  assert.equal(second.content, 'two\n');
  const missing = await call(ro, 'read_note', { path: 'Projects/Garden Redesign.md', section: 'Nope' });
  assert.equal(refusalCode(missing), 'not_found');
  assert.match(textOf(missing), /#1 # Garden Redesign/);
  assert.equal(refusalCode(await call(ro, 'read_note', { path: 'dup.md', section: '#99' })), 'not_found');
});

test('read_note: truncation gives next_offset, outline with ordinals, and offset paging reassembles the body', async () => {
  const first = (await call(ro, 'read_note', { path: 'Long.md', limit: 5000 })).structuredContent!;
  assert.ok(first.next_offset <= 5000 && first.next_offset > 4000, `cut near the limit: ${first.next_offset}`);
  assert.ok(first.content.endsWith('\n'), 'a page ends on a line boundary');
  assert.match(first.hint, /offset=/);
  assert.equal(first.outline.length, 31);
  assert.match(first.outline[1], /^#2 .+ \(L\d+, \d+ chars\)$/);
  let body = first.content;
  let next = first.next_offset;
  while (next !== undefined) {
    const page = (await call(ro, 'read_note', { path: 'Long.md', offset: next, limit: 20000 })).structuredContent!;
    body += page.content;
    next = page.next_offset;
  }
  assert.equal(body, readFileSync(join(vault, 'Long.md'), 'utf8'));
  const capped = (await call(ro, 'read_note', { path: 'Long.md' })).structuredContent!;
  assert.ok(capped.content.length <= 40000 && capped.content.length > 40000 - 2420, 'default cap is 40,000 characters, cut after the last whole line');
  assert.equal(refusalCode(await call(ro, 'read_note', { path: 'Long.md', offset: 10_000_000 })), 'invalid_argument');
});

test('read_note: CRLF, BOM and NFC/NFD spellings', async () => {
  const c = (await call(ro, 'read_note', { path: 'crlf.md' })).structuredContent!;
  assert.deepEqual(c.frontmatter, { title: 'CRLF' });
  assert.equal(c.content, '# Head\r\nline one\r\n');
  assert.equal(c.content_hash, contentHash(readFileSync(join(vault, 'crlf.md'))));
  const b = (await call(ro, 'read_note', { path: 'bom.md' })).structuredContent!;
  assert.equal(b.content, '# Bom note\nbody\n');
  const nfc = await call(ro, 'read_note', { path: 'Caf\u00e9.md' });
  const nfd = await call(ro, 'read_note', { path: 'Cafe\u0301.md' });
  assert.equal(nfc.isError, undefined, textOf(nfc));
  assert.deepEqual(nfd.structuredContent, nfc.structuredContent);
});

test('read_note: frontmatter JSON cannot hold is withheld with a reason; malformed YAML too', async () => {
  const bad = (await call(ro, 'read_note', { path: 'bad-yaml.md' })).structuredContent!;
  assert.equal(bad.frontmatter, undefined);
  assert.match(bad.hint, /malformed/);
  assert.equal(bad.frontmatter_yaml, 'key: [unclosed\n');
  const inf = (await call(ro, 'read_note', { path: 'big-int.md' })).structuredContent!;
  assert.equal(inf.frontmatter, undefined);
  assert.match(inf.hint, /JSON/);
});

test('read_note refusals: not_found with suggestion, invalid_path, hidden, folder, non-note, unknown args, wrong types', async () => {
  // A bare name resolves like a wikilink; a path that matches nothing suggests the same file name.
  assert.equal((await call(ro, 'read_note', { path: 'Garden Redesign.md' })).structuredContent!.path, 'Projects/Garden Redesign.md');
  const nf = await call(ro, 'read_note', { path: 'Archive/Garden Redesign.md' });
  assert.equal(refusalCode(nf), 'not_found');
  assert.match(textOf(nf), /Projects\/Garden Redesign\.md/, 'suggests the real path');
  for (const p of ['../etc/passwd', '/etc/passwd', 'C:\\x.md', '.obsidian/app.json', '.hidden/secret.md', 'a/\u0000b.md', 'Projects/../../x.md']) {
    assert.equal(refusalCode(await call(ro, 'read_note', { path: p })), 'invalid_path', p);
  }
  assert.equal(refusalCode(await call(ro, 'read_note', { path: 'Projects' })), 'invalid_argument');
  assert.equal(refusalCode(await call(ro, 'read_note', { path: 'Attachments/logo.png' })), 'invalid_argument');
  const unknown = await call(ro, 'read_note', { path: 'Welcome.md', bogus: 1 });
  assert.equal(refusalCode(unknown), 'invalid_argument');
  assert.match(textOf(unknown), /bogus/);
  assert.equal(refusalCode(await call(ro, 'read_note', { path: 42 })), 'invalid_argument');
  const last = textOf(nf).split('\n').pop()!;
  assert.match(last, /^MCP-REFUSAL \{"code":"not_found"/);
});

test('list_notes: newest first, folder semantics, paging, since/until', async () => {
  const all = (await call(ro, 'list_notes', { limit: 500 })).structuredContent!;
  const times = all.notes.map((n: { modified: string }) => n.modified);
  assert.deepEqual(times, [...times].sort().reverse());
  assert.ok(all.notes.every((n: { path: string }) => !n.path.startsWith('.')));
  for (const f of ['Projects', 'Projects/', '/Projects/', 'Projects\\']) {
    const r = (await call(ro, 'list_notes', { folder: f, order_by: 'path' })).structuredContent!;
    assert.deepEqual(r.notes.map((n: { path: string }) => n.path), ['Projects/Garden Redesign.md', 'Projects/Website Relaunch.md', 'Projects/_conventions.md']);
  }
  const rootOnly = (await call(ro, 'list_notes', { folder: '', limit: 500 })).structuredContent!;
  assert.ok(rootOnly.notes.every((n: { path: string }) => !n.path.includes('/')));
  assert.ok(rootOnly.notes.some((n: { path: string }) => n.path === 'Welcome.md'));
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = (await call(ro, 'list_notes', { limit: 3, order_by: 'path', ...(cursor ? { cursor } : {}) })).structuredContent!;
    seen.push(...page.notes.map((n: { path: string }) => n.path));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  assert.equal(seen.length, all.total);
  assert.equal(new Set(seen).size, seen.length);
  assert.equal((await call(ro, 'list_notes', { since: '2999-01-01' })).structuredContent!.total, 0);
  assert.equal(refusalCode(await call(ro, 'list_notes', { since: 'yesterday-ish' })), 'invalid_argument');
  assert.equal(refusalCode(await call(ro, 'list_notes', { cursor: 'garbage' })), 'invalid_argument');
  assert.equal(refusalCode(await call(ro, 'list_notes', { folder: 'Nope' })), 'not_found');
  assert.equal(refusalCode(await call(ro, 'list_notes', { folder: '../x' })), 'invalid_path');
});

test('list_folders, get_tags, stats with index states', async () => {
  const f = (await call(ro, 'list_folders')).structuredContent!;
  const projects = f.folders.find((x: { path: string }) => x.path === 'Projects');
  assert.deepEqual(projects, { path: 'Projects', notes: 3 }, 'notes_total only when sub-folders add some; files only when any');
  assert.ok(!f.folders.some((x: { path: string }) => x.path.startsWith('.')));
  const t = (await call(ro, 'get_tags', { limit: 100 })).structuredContent!;
  const tag = (name: string) => t.tags.find((x: { tag: string }) => x.tag === name)?.count;
  assert.equal(tag('#project'), 2);
  assert.equal(tag('#person'), 2);
  assert.equal(tag('#meta/sample'), 1);
  assert.equal(tag('#not-a-tag'), undefined, 'tags in code are not tags');
  const s = (await call(ro, 'stats')).structuredContent!;
  assert.equal(s.attachments, 2);
  assert.equal(s.writes, false, 'read key');
  assert.equal(s.indexes[0].name, 'metadata');
  assert.equal(s.indexes[0].state, 'ready');
});

test('get_vault_guide returns the primer and the live CLAUDE.md', async () => {
  const g = (await call(ro, 'get_vault_guide')).structuredContent!;
  assert.equal(g.guide_path, 'CLAUDE.md');
  assert.match(g.guide, /Instructions for agents/);
  assert.match(g.primer, /\[\[Note title\]\]/);
});

test('read_file: text, image content, base64 ranges, hash_only, refusals; list_files', async () => {
  const csv = (await call(ro, 'read_file', { path: 'Reference/people.csv' })).structuredContent!;
  assert.equal(csv.encoding, 'text');
  assert.match(csv.content, /^name,role/);
  const img = await call(ro, 'read_file', { path: 'Attachments/logo.png' });
  const png = readFileSync(join(vault, 'Attachments/logo.png'));
  const block = (img.content as { type: string; data?: string; mimeType?: string }[]).find((c) => c.type === 'image');
  assert.equal(block?.mimeType, 'image/png');
  assert.equal(Buffer.from(block!.data!, 'base64').compare(png), 0);
  const b64 = (await call(ro, 'read_file', { path: 'Attachments/logo.png', encoding: 'base64', offset: 8, limit: 16 })).structuredContent!;
  assert.equal(Buffer.from(b64.content, 'base64').compare(png.subarray(8, 24)), 0);
  assert.equal(b64.next_offset, 24);
  const h = (await call(ro, 'read_file', { path: 'Attachments/logo.png', hash_only: true })).structuredContent!;
  assert.equal(h.content_hash, contentHash(png));
  assert.equal(h.content, undefined);
  assert.equal(refusalCode(await call(ro, 'read_file', { path: 'nope.bin' })), 'not_found');
  assert.equal(refusalCode(await call(ro, 'read_file', { path: '.obsidian/app.json' })), 'invalid_path');
  const lf = (await call(ro, 'list_files', { folder: 'Attachments' })).structuredContent!;
  assert.deepEqual(lf.files.map((x: { path: string }) => x.path), ['Attachments/logo.png']);
  const pngs = (await call(ro, 'list_files', { pattern: '*.PNG', recursive: true })).structuredContent!;
  assert.equal(pngs.total, 1);
  const root = (await call(ro, 'list_files', {})).structuredContent!;
  assert.ok(root.files.every((x: { path: string }) => !x.path.includes('/')));
});

test('the file-size cap refuses with payload_too_large and names the setting', async () => {
  const big = Buffer.alloc(11 * 1024 * 1024, 0);
  writeFileSync(join(vault, 'Attachments/big.bin'), big);
  // The server runs with --no-watch, so the file is unknown until a new server scans it.
  const s2 = await startCli(vault, { env: { VAULT_MCP_TOKEN: RW } });
  const c = await connect(s2.url, RW);
  try {
    const r = await call(c, 'read_file', { path: 'Attachments/big.bin' });
    assert.equal(refusalCode(r), 'payload_too_large');
    assert.match(textOf(r), /maxFileReadBytes/);
    const piece = (await call(c, 'read_file', { path: 'Attachments/big.bin', encoding: 'base64', limit: 1024 })).structuredContent!;
    assert.equal(Buffer.from(piece.content, 'base64').length, 1024);
  } finally {
    await c.close();
    await s2.stop();
  }
});
