// The OpenAI-compatible client against the fake backend: endpoint URLs, headers, answers, time
// limits (also for a transport that cannot abort, like Obsidian's requestUrl) and redaction.
import { nodeTransport } from '../../src/llm/nodeTransport.js';
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { chat, chatCompletionsUrl, endpointDisplay, redact, LlmError } from '../../src/llm/client.js';
import { requestUrlTransport } from '../../src/llm/transport.js';
import { startFakeLlm, type FakeLlm } from './fakeLlm.js';

let llm: FakeLlm;
before(async () => { llm = await startFakeLlm(); });
after(async () => { await llm.close(); });
beforeEach(() => llm.reset());

const cfg = () => ({ url: llm.url, model: 'm', apiKey: 'sk-abcdefghijklmnop', timeoutMs: 2000, maxOutputTokens: 64 });
const msgs = [{ role: 'user' as const, content: '<note path="A.md">\nhello\n</note>' }];

test('endpoint URLs: base, /v1, full path; display drops credentials and query', () => {
  assert.equal(chatCompletionsUrl('http://localhost:11434'), 'http://localhost:11434/v1/chat/completions');
  assert.equal(chatCompletionsUrl('http://localhost:11434/v1/'), 'http://localhost:11434/v1/chat/completions');
  assert.equal(chatCompletionsUrl('https://api.example.com/openai/v1/chat/completions'), 'https://api.example.com/openai/v1/chat/completions');
  assert.throws(() => chatCompletionsUrl('ftp://x'), LlmError);
  assert.throws(() => chatCompletionsUrl('not a url'), LlmError);
  assert.equal(endpointDisplay('https://u:p@h.example/v1/?key=s#x'), 'https://h.example/v1');
});

test('redact removes the key, bearer tokens and sk- style keys', () => {
  const key = 'my-very-secret-key-123';
  assert.equal(redact(`bad key ${key}`, key), 'bad key [redacted]');
  assert.doesNotMatch(redact('Authorization: Bearer abc.def'), /abc/);
  assert.doesNotMatch(redact('Incorrect API key provided: sk-proj-****abcd1234'), /abcd1234/);
});

test('a chat call: body, bearer header, answer text without <think> blocks', async () => {
  llm.replyOverride = () => ({ status: 200, body: JSON.stringify({ choices: [{ message: { content: '<think>hmm</think>\nThe answer.' }, finish_reason: 'length' }] }) });
  const r = await chat(cfg(), msgs, { transport: nodeTransport });
  assert.deepEqual(r, { text: 'The answer.', finishReason: 'length' });
  assert.equal(llm.calls[0].headers.authorization, 'Bearer sk-abcdefghijklmnop');
  assert.equal(llm.calls[0].body.max_tokens, 64);
  assert.equal(llm.calls[0].path, '/v1/chat/completions');
});

test('no key: no authorization header (local backends)', async () => {
  await chat({ ...cfg(), apiKey: undefined }, msgs, { transport: nodeTransport });
  assert.equal(llm.calls[0].headers.authorization, undefined);
});

test('time limit with fetch and with a requestUrl-like transport that ignores the signal', async () => {
  llm.delayMs = 1000;
  const fast = { ...cfg(), timeoutMs: 150 };
  await assert.rejects(chat(fast, msgs, { transport: nodeTransport }), (e: LlmError) => e.kind === 'timeout');
  let resolved = false;
  const requestUrl = async (req: { url: string; method?: string; contentType?: string; body?: string; headers?: Record<string, string> }) => {
    const res = await fetch(req.url, { method: req.method, headers: { 'content-type': req.contentType ?? '', ...req.headers }, body: req.body });
    resolved = true;
    return { status: res.status, text: await res.text() };
  };
  await assert.rejects(chat(fast, msgs, { transport: requestUrlTransport(requestUrl) }), (e: LlmError) => e.kind === 'timeout');
  assert.equal(resolved, false, 'gave up before the transport answered');
});

test('cancellation by the caller\'s signal', async () => {
  llm.delayMs = 1000;
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 50);
  await assert.rejects(chat(cfg(), msgs, { signal: ac.signal, transport: nodeTransport }), (e: LlmError) => e.kind === 'aborted');
});

test('HTTP errors carry the status and a redacted message', async () => {
  llm.fail = { status: 429, body: JSON.stringify({ error: { message: 'slow down sk-abcdefghijklmnop' } }) };
  await assert.rejects(chat(cfg(), msgs, { transport: nodeTransport }), (e: LlmError) => {
    assert.equal(e.kind, 'http');
    assert.equal(e.status, 429);
    assert.doesNotMatch(e.message, /abcdefghijklmnop/);
    assert.match(e.message, /rate limiting/);
    return true;
  });
});
