// summarize + get_job_result end to end: the runtime in-process over a NodeHost, the real SDK client
// over HTTP, and a fake OpenAI-compatible backend on loopback (test/llm/fakeLlm.ts) whose replies
// name the notes each request carried, so coverage, batching and the combine pass are observable.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { copyVault, tempDir } from '../helpers/vault.js';
import { connect, call, refusalCode, textOf, type ToolResult } from '../helpers/server.js';
import { startFakeLlm, type FakeLlm } from './fakeLlm.js';

const KEY_A = 'vmcp_llm_test_key_a_0123456789abcdef';
const KEY_B = 'vmcp_llm_test_key_b_0123456789abcdef';
const API_KEY = 'sk-test-SECRET-0123456789abcdefghij';
const BULK = 12;

let llm: FakeLlm;
let vault: string;
let host: NodeHost;
let rt: Runtime;
let a: Client;
let b: Client;
let clockOffset = 0;
let settings: Settings;

const base = (): Partial<Settings> => ({ port: 0, llmModel: 'test-model', llmTimeoutS: 10, jobSoftDeadlineMs: 20_000, summarizeBatchChars: 16_000, summarizeMaxNotes: 50, llmConcurrency: 2 });

before(async () => {
  llm = await startFakeLlm();
  vault = copyVault();
  for (const sub of ['A', 'B']) mkdirSync(join(vault, 'Bulk', sub), { recursive: true });
  for (let i = 0; i < BULK; i++) {
    const sub = i < 7 ? 'A' : 'B';
    writeFileSync(join(vault, 'Bulk', sub, `Note ${String(i).padStart(2, '0')}.md`), `# Note ${i}\n\n${`Paragraph about topic ${i}. `.repeat(30)}\n`);
  }
  writeFileSync(join(vault, 'Big.md'), `# Big\n\n${'A long line of text that goes on. '.repeat(400)}`); // ~13 600 chars
  writeFileSync(join(vault, 'Gone.md'), '# Gone\n');
  mkdirSync(join(vault, 'Empty'), { recursive: true });
  host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-llm-data-'), 'data'), watch: false });
  await host.ready();
  // A note that is listed and on disk but whose read fails (an I/O error): "unreadable". (Deleting it
  // would not do: the freshness check finds a deleted note gone and answers not_found.)
  const readBytes = host.readBytes.bind(host);
  host.readBytes = (p: string) => (p === 'Gone.md' ? Promise.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })) : readBytes(p));
  const keys = new KeyStore(host.data);
  keys.addEphemeral(KEY_A, 'a', 'readwrite');
  keys.addEphemeral(KEY_B, 'b', 'readwrite');
  settings = withDefaults({ ...base(), llmUrl: llm.url });
  rt = await startRuntime({ host, settings: () => settings, keys, now: () => Date.now() + clockOffset, services: { llmKey: () => API_KEY } });
  a = await connect(rt.server.url, KEY_A);
  b = await connect(rt.server.url, KEY_B);
});

after(async () => {
  await a?.close();
  await b?.close();
  await rt?.stop();
  await host?.close();
  await llm?.close();
});

beforeEach(() => {
  llm.reset();
  settings = withDefaults({ ...base(), llmUrl: llm.url });
});

const sum = (c: Client, args: Record<string, unknown>) => call(c, 'summarize', args);
const sc = (r: ToolResult) => r.structuredContent as Record<string, any>;

function refusal(r: ToolResult): { code: string; [k: string]: unknown } {
  const line = textOf(r).split('\n').filter((l) => l.startsWith('MCP-REFUSAL ')).pop()!;
  return JSON.parse(line.slice('MCP-REFUSAL '.length));
}

test('summarize is listed with the running note limit in its description and in the instructions', async () => {
  const { tools } = await a.listTools();
  const t = tools.find((x) => x.name === 'summarize');
  assert.ok(t, 'summarize is listed');
  assert.match(t.description!, /At most 50 notes per call/);
  assert.match(t.description!, /test-model at http:\/\/127\.0\.0\.1:\d+\/v1/);
  assert.equal(t.annotations?.readOnlyHint, true);
  assert.equal(t.annotations?.openWorldHint, true);
  assert.ok(tools.some((x) => x.name === 'get_job_result'));
  assert.match(a.getInstructions() ?? '', /at most 50 notes per call/);
  settings.summarizeMaxNotes = 7;
  const c = await connect(rt.server.url, KEY_A);
  try {
    assert.match(c.getInstructions() ?? '', /at most 7 notes per call/);
    const t7 = (await c.listTools()).tools.find((x) => x.name === 'summarize')!;
    assert.match(t7.description!, /At most 7 notes per call/);
  } finally { await c.close(); }
});

test('synthesis: one backend call covering every note, citing paths, full coverage', async () => {
  const r = await sum(a, { paths: ['People/Ada Lovelace.md', 'People/Grace Hopper'], focus: 'who owns what' });
  assert.equal(r.isError, undefined, textOf(r));
  const s = sc(r);
  assert.equal(s.status, 'completed');
  assert.equal(llm.calls.length, 1);
  assert.equal(s.backend_calls, 1);
  assert.deepEqual(llm.calls[0].notes, ['People/Ada Lovelace.md', 'People/Grace Hopper.md']);
  assert.equal(s.summary, 'SUMMARY(n=2) [People/Ada Lovelace.md] [People/Grace Hopper.md]');
  assert.deepEqual(s.sources, ['People/Ada Lovelace.md', 'People/Grace Hopper.md']);
  assert.equal(s.truncated, false);
  assert.equal(s.notes_included, 2);
  assert.equal(s.notes_omitted, 0);
  assert.equal(s.hint, undefined, 'fully covered: nothing to do next');
  assert.equal(s.skipped, undefined);
  const req = llm.calls[0];
  assert.equal(req.headers.authorization, `Bearer ${API_KEY}`);
  assert.equal(req.body.model, 'test-model');
  assert.equal(req.body.stream, false);
  assert.match(req.body.messages.at(-1)!.content, /Focus: who owns what/);
  assert.match(req.body.messages.at(-1)!.content, /Owns \[\[Garden Redesign\]\]/, 'the note text is sent');
  assert.match(textOf(r), /Sources: People\/Ada Lovelace\.md, People\/Grace Hopper\.md/);
});

test('per_note: one call and one summary per note; a folder stands for its notes, de-duplicated', async () => {
  const r = await sum(a, { paths: ['People', 'People/Ada Lovelace.md', '/People/'], mode: 'per_note' });
  const s = sc(r);
  assert.equal(llm.calls.length, 2);
  assert.deepEqual(llm.calls.map((c) => c.notes).sort(), [['People/Ada Lovelace.md'], ['People/Grace Hopper.md']]);
  assert.deepEqual(s.per_note, {
    'People/Ada Lovelace.md': 'SUMMARY(n=1) [People/Ada Lovelace.md]',
    'People/Grace Hopper.md': 'SUMMARY(n=1) [People/Grace Hopper.md]',
  });
  assert.equal(s.summary, undefined, 'per_note: the summaries are said once, by note');
  assert.match(textOf(r), /^## Ada Lovelace \(People\/Ada Lovelace\.md\)/m);
  assert.equal(s.notes_included, 2);
  assert.equal(s.truncated, false);
});

test('folder expansion covers sub-folders in path order', async () => {
  const s = sc(await sum(a, { paths: ['Bulk/'] }));
  assert.equal(s.notes_included, BULK);
  assert.equal(s.sources[0], 'Bulk/A/Note 00.md');
  assert.equal(s.sources[BULK - 1], 'Bulk/B/Note 11.md');
  assert.equal(llm.calls.length, 1, 'fits one request at the default budget');
});

test('the note limit: max_notes narrows it, cannot raise it; omitted notes are counted with a per-folder hint', async () => {
  let s = sc(await sum(a, { paths: ['Bulk'], max_notes: 5 }));
  assert.equal(s.notes_included, 5);
  assert.equal(s.notes_omitted, BULK - 5);
  assert.equal(s.truncated, true);
  assert.match(s.hint, /7 note\(s\) beyond the limit of 5/);
  assert.match(s.hint, /"Bulk\/B" \(5 notes\)/);
  assert.match(s.hint, /"Bulk\/A" \(2 notes\)/);
  assert.deepEqual(llm.calls[0].notes, s.sources);
  settings.summarizeMaxNotes = 4;
  s = sc(await sum(a, { paths: ['Bulk'], max_notes: 100 }));
  assert.equal(s.notes_included, 4);
  assert.equal(s.notes_omitted, BULK - 4);
});

test('skipped paths: not_found, invalid_path, non-notes and unreadable notes, with reasons and a hint', async () => {
  const r = await sum(a, { paths: ['Nope.md', '../etc/passwd', '.obsidian/app.json', 'Attachments/logo.png', 'Empty', 'Gone.md', 'Welcome'] });
  const s = sc(r);
  assert.equal(s.notes_included, 1);
  assert.deepEqual(s.sources, ['Welcome.md']);
  assert.deepEqual(Object.entries(s.skipped).map(([p, why]) => [p, (why as string).split(':')[0]]), [
    ['Nope.md', 'not_found'], ['../etc/passwd', 'invalid_path'], ['.obsidian/app.json', 'invalid_path'],
    ['Attachments/logo.png', 'invalid_path'], ['Empty', 'not_found'], ['Gone.md', 'unreadable'],
  ]);
  assert.equal(s.truncated, true);
  assert.match(s.hint, /named no note/);
  assert.match(s.hint, /could not be read/);
  assert.deepEqual(llm.calls[0].notes, ['Welcome.md']);
});

test('over the read limit is skipped; notes all unreadable is its own refusal', async () => {
  settings.maxFileReadBytes = 5000;
  const s = sc(await sum(a, { paths: ['Big.md', 'Welcome.md'] }));
  assert.deepEqual(Object.entries(s.skipped).map(([p, why]) => [p, (why as string).split(':')[0]]), [['Big.md', 'over_read_limit']]);
  assert.match(s.hint, /larger than the read limit/);
  const r = await sum(a, { paths: ['Big.md', 'Gone.md'] });
  assert.equal(refusalCode(r), 'notes_unreadable');
  assert.equal(llm.calls.length, 1);
});

test('refusals for bad arguments and selections without a note (invalid_argument)', async () => {
  for (const args of [{ paths: [] }, { paths: ['Welcome.md'], mode: 'bullets' }, { paths: ['Welcome.md'], max_notes: 0 }, { paths: ['Nope.md', 'Empty'] }, { paths: ['Welcome.md'], extra: 1 }]) {
    const r = await sum(a, args);
    assert.equal(refusalCode(r), 'invalid_argument', JSON.stringify(args) + textOf(r));
  }
  assert.equal(llm.calls.length, 0);
});

test('map-reduce: batches up to the character budget, then one combine pass', async () => {
  settings.summarizeBatchChars = 3500; // ≈ 3 bulk notes (~900 chars each) per request after the prompt overhead
  const s = sc(await sum(a, { paths: ['Bulk'] }));
  const maps = llm.calls.filter((c) => c.kind === 'notes');
  const combines = llm.calls.filter((c) => c.kind === 'combine');
  assert.ok(maps.length >= 3, `several batches, got ${maps.length}`);
  assert.equal(combines.length, 1);
  assert.equal(s.backend_calls, maps.length + 1);
  assert.deepEqual(maps.flatMap((c) => c.notes).sort(), [...s.sources].sort(), 'every note in exactly one batch');
  for (const c of maps) assert.ok(c.body.messages.at(-1)!.content.length <= 3500, 'request within the budget');
  assert.match(s.summary, new RegExp(`^COMBINED\\(parts=${maps.length}\\)`));
  for (let i = 0; i < BULK; i++) assert.ok(s.summary.includes(`Note ${String(i).padStart(2, '0')}.md]`), `combined summary cites note ${i}`);
  assert.match(maps[0].body.messages.at(-1)!.content, /batch 1 of \d+/);
  assert.equal(s.truncated, false);
});

test('the combine pass runs in rounds when the partial summaries do not fit one request', async () => {
  settings.summarizeBatchChars = 600; // the smallest budget: one (cut) bulk note per batch, a few partials per combine
  const s = sc(await sum(a, { paths: ['Bulk'] }));
  const maps = llm.calls.filter((c) => c.kind === 'notes');
  const combines = llm.calls.filter((c) => c.kind === 'combine');
  assert.equal(maps.length, BULK, 'one batch per note');
  assert.ok(combines.length >= 3, `grouped combines, then a final one (got ${combines.length})`);
  assert.equal(s.backend_calls, maps.length + combines.length);
  assert.ok(combines.slice(0, -1).every((c) => (c.body.messages.at(-1)!.content.match(/<partial /g) ?? []).length < BULK), 'first-round combines take a group each');
  assert.match(s.summary, /^COMBINED\(parts=\d+\)/);
  for (let i = 0; i < BULK; i++) assert.ok(s.summary.includes(`Note ${String(i).padStart(2, '0')}.md]`), `the final summary still cites note ${i}`);
  assert.equal(s.truncated, true, 'the notes were cut to fit');
});

test('a note larger than the budget is cut and marked', async () => {
  settings.summarizeBatchChars = 4000;
  const s = sc(await sum(a, { paths: ['Big.md', 'Welcome.md'] }));
  assert.ok(s.sources.includes('Big.md'));
  assert.equal(s.truncated, true);
  assert.match(s.hint, /cut to fit one request.*"Big\.md"/);
  const big = llm.calls.find((c) => c.notes.includes('Big.md'))!;
  assert.match(big.body.messages.at(-1)!.content, /\[… cut: only the first \d+ of \d+ characters fit in one request\]/);
});

test('an answer cut at the model\'s output limit (finish_reason "length") counts as content lost, with a hint', async () => {
  // One map batch of three is cut: the combined summary is complete as text but lacks part of that batch.
  settings.summarizeBatchChars = 3500;
  let maps = 0;
  llm.finishReason = (c) => (c.kind === 'notes' && ++maps === 2 ? 'length' : 'stop');
  const s = sc(await sum(a, { paths: ['Bulk'] }));
  assert.equal(s.status, 'completed');
  assert.equal(s.truncated, true, 'a cut answer is content lost');
  assert.equal(s.notes_omitted, 0);
  assert.equal(s.skipped, undefined);
  assert.ok(s.hint.includes(`(batch 2 of ${llm.calls.filter((c) => c.kind === 'notes').length})`), s.hint);
  assert.match(s.hint, /1 answer\(s\) of the model were cut at its output limit of 1024 tokens/);
  assert.match(s.hint, /fewer notes per call/);
  assert.match(s.hint, /llmMaxOutputTokens/);
  // The same through the combine pass and in per_note mode; a full answer stays untruncated.
  llm.reset();
  llm.finishReason = (c) => (c.kind === 'combine' ? 'length' : 'stop');
  const s2 = sc(await sum(a, { paths: ['Bulk'] }));
  assert.equal(s2.truncated, true);
  assert.match(s2.hint, /\(the combine pass\)/);
  llm.reset();
  settings.summarizeBatchChars = 16_000;
  llm.finishReason = (c) => (c.notes.includes('Welcome.md') ? 'length' : 'stop');
  const s3 = sc(await sum(a, { paths: ['Welcome.md', 'People'], mode: 'per_note' }));
  assert.equal(s3.truncated, true);
  assert.match(s3.hint, /\(note "Welcome\.md"\)/);
  assert.match(s3.hint, /narrower focus/);
  assert.match(textOf(await sum(a, { paths: ['Welcome.md'] })), /1 answer\(s\) cut at the model's output limit/);
  llm.reset();
  const ok = sc(await sum(a, { paths: ['Welcome.md'] }));
  assert.deepEqual([ok.truncated, ok.hint], [false, undefined]);
});

test('a backend call over its time limit is summarize_timeout', async () => {
  settings.llmTimeoutS = 0.3;
  llm.delayMs = 1500;
  const r = await sum(a, { paths: ['Welcome.md'] }); // the reply would come after 1.5 s: the 0.3 s limit fired first
  assert.equal(refusalCode(r), 'summarize_timeout');
  assert.match(textOf(r), /Narrow the request/);
});

test('backend errors are backend_error with the status and never the API key', async () => {
  llm.fail = { status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}. Header was Bearer ${API_KEY}` } }) };
  let r = await sum(a, { paths: ['Welcome.md'] });
  assert.equal(refusalCode(r), 'backend_error');
  assert.equal(refusal(r).status, 401);
  assert.match(textOf(r), /HTTP 401/);
  assert.match(textOf(r), /Check the API key/);
  assert.ok(!JSON.stringify(r).includes(API_KEY), 'key not leaked');
  assert.ok(!JSON.stringify(r).includes('SECRET'), 'no part of the key leaked');
  llm.fail = { status: 500, body: '<html><body>Internal meltdown</body></html>' };
  r = await sum(a, { paths: ['Welcome.md'] });
  assert.equal(refusal(r).status, 500);
  assert.match(textOf(r), /Internal meltdown/);
  llm.fail = null;
  llm.replyOverride = () => ({ status: 200, body: 'not json' });
  r = await sum(a, { paths: ['Welcome.md'] });
  assert.equal(refusalCode(r), 'backend_error');
  llm.replyOverride = null;
  settings.llmUrl = 'http://user:pw@127.0.0.1:9/v1?api_key=' + API_KEY; // nothing listens on port 9
  r = await sum(a, { paths: ['Welcome.md'] });
  assert.equal(refusalCode(r), 'backend_error');
  assert.match(textOf(r), /Could not reach the language model at http:\/\/127\.0\.0\.1:9\/v1/);
  assert.ok(!JSON.stringify(r).includes(API_KEY) && !JSON.stringify(r).includes('pw@'));
});

test('a failing batch fails the whole call (no partial summary passed off as complete)', async () => {
  settings.summarizeBatchChars = 3500;
  llm.replyOverride = (c) => (c.notes.includes('Bulk/B/Note 10.md') ? { status: 503, body: '{"error":"overloaded"}' } : null);
  const r = await sum(a, { paths: ['Bulk'] });
  assert.equal(refusalCode(r), 'backend_error');
  assert.match(textOf(r), /HTTP 503: overloaded/);
});

async function pollUntilDone(c: Client, id: string): Promise<ToolResult> {
  for (let i = 0; i < 100; i++) {
    const r = await call(c, 'get_job_result', { job_id: id, wait_s: 1 });
    if (sc(r).status !== 'working') return r;
  }
  throw new Error('job never finished');
}

test('slow calls become jobs: working answer, polling, completion; invisible to another key; expire after an hour', async () => {
  settings.jobSoftDeadlineMs = 150;
  llm.delayMs = 600;
  const r = await sum(a, { paths: ['People'] });
  const w = sc(r);
  assert.equal(w.status, 'working', 'answered at the soft deadline, before the backend replied');
  assert.match(w.job_id, /^job_[0-9a-f]{24}$/);
  assert.ok(w.retry_after_s >= 1);
  assert.match(w.hint, new RegExp(`get_job_result\\(job_id="${w.job_id}"\\)`));
  const early = sc(await call(a, 'get_job_result', { job_id: w.job_id }));
  assert.equal(early.status, 'working');
  assert.equal(early.tool, 'summarize');
  assert.ok(early.retry_after_s >= 1);

  const other = await call(b, 'get_job_result', { job_id: w.job_id });
  const unknown = await call(b, 'get_job_result', { job_id: 'job_000000000000000000000000' });
  assert.equal(refusalCode(other), 'not_found');
  assert.equal(textOf(other).replace(w.job_id, 'ID'), textOf(unknown).replace('job_000000000000000000000000', 'ID'), 'another key\'s job answers exactly like an unknown one');

  const done = await pollUntilDone(a, w.job_id);
  const d = sc(done);
  assert.equal(d.status, 'completed');
  assert.equal(d.result.status, 'completed');
  assert.equal(d.result.summary, 'SUMMARY(n=2) [People/Ada Lovelace.md] [People/Grace Hopper.md]');
  assert.equal(d.result.notes_included, 2);
  assert.match(textOf(done), /Sources: People\/Ada Lovelace\.md/);
  assert.equal(llm.calls.length, 1, 'the background work ran once');
  assert.equal(sc(await call(a, 'get_job_result', { job_id: w.job_id })).status, 'completed', 'still there after completion');
  assert.equal(refusalCode(await call(b, 'get_job_result', { job_id: w.job_id })), 'not_found');

  clockOffset += 61 * 60 * 1000;
  try {
    assert.equal(refusalCode(await call(a, 'get_job_result', { job_id: w.job_id })), 'not_found', 'expired an hour after finishing');
  } finally { clockOffset = 0; }
});

test('a job that fails reports failed with the refusal code', async () => {
  settings.jobSoftDeadlineMs = 100;
  llm.delayMs = 400;
  llm.fail = { status: 500, body: `{"error":{"message":"boom ${API_KEY}"}}` };
  const w = sc(await sum(a, { paths: ['Welcome.md'] }));
  assert.equal(w.status, 'working');
  const r = await pollUntilDone(a, w.job_id);
  const f = sc(r);
  assert.equal(f.status, 'failed');
  assert.match(f.error, /^backend_error: .*HTTP 500: boom \[redacted\]/);
  assert.ok(!JSON.stringify(r).includes(API_KEY));
});

test('without a backend summarize is not listed (get_job_result still is)', async () => {
  const h = new NodeHost(vault, { dataDir: join(tempDir('vmcp-llm-data-'), 'data'), watch: false });
  await h.ready();
  const keys = new KeyStore(h.data);
  keys.addEphemeral(KEY_A, 'a', 'readwrite');
  const s = withDefaults({ port: 0, llmModel: 'test-model' }); // a model but no URL
  const rt2 = await startRuntime({ host: h, settings: () => s, keys, services: { llmKey: () => API_KEY } });
  const c = await connect(rt2.server.url, KEY_A);
  try {
    const names = (await c.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('summarize'));
    assert.ok(names.includes('get_job_result'));
    assert.doesNotMatch(c.getInstructions() ?? '', /summarize/);
    assert.notEqual(refusalCode(await call(c, 'summarize', { paths: ['Welcome.md'] })), null);
  } finally {
    await c.close();
    await rt2.stop();
    await h.close();
  }
});
