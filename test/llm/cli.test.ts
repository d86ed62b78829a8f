// Headless wiring through the built CLI: --llm-url, --llm-model, --summarize-max-notes and the key
// from OPENAI_API_KEY (a service, never a setting or a flag).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyVault } from '../helpers/vault.js';
import { REPO } from '../helpers/paths.js';
import { startCli, connect, call, textOf, type CliServer } from '../helpers/server.js';
import { startFakeLlm, type FakeLlm } from './fakeLlm.js';
// @ts-expect-error: a plain .mjs helper without types
import { buildIfNeeded } from '../../scripts/build-if-needed.mjs';

const KEY = 'vmcp_cli_llm_key_0123456789abcdef';
const API_KEY = 'sk-cli-SECRET-abcdefghijklmnop';
let llm: FakeLlm;
let srv: CliServer;

before(async () => {
  buildIfNeeded(REPO);
  llm = await startFakeLlm();
  srv = await startCli(copyVault(), {
    env: { VAULT_MCP_TOKEN: KEY, OPENAI_API_KEY: API_KEY },
    args: ['--llm-url', llm.url, '--llm-model', 'cli-model', '--summarize-max-notes', '3', '--job-soft-deadline-ms', '20000'],
  });
});
after(async () => {
  await srv?.stop();
  await llm?.close();
});

test('the CLI flags configure summarize; the key comes from OPENAI_API_KEY', async () => {
  const c = await connect(srv.url, KEY);
  try {
    const t = (await c.listTools()).tools.find((x) => x.name === 'summarize');
    assert.ok(t, 'listed with --llm-url and --llm-model');
    assert.match(t.description!, /At most 3 notes per call/);
    assert.match(c.getInstructions() ?? '', /cli-model at http:\/\/127\.0\.0\.1:\d+\/v1.*at most 3 notes per call/);
    const r = await call(c, 'summarize', { paths: [''] });
    assert.equal(r.isError, undefined, textOf(r));
    const s = r.structuredContent as Record<string, any>;
    assert.equal(s.notes_included, 3);
    assert.ok(s.notes_omitted > 0);
    assert.equal(llm.calls[0].headers.authorization, `Bearer ${API_KEY}`);
    assert.equal(llm.calls[0].body.model, 'cli-model');
    assert.ok(!srv.output().includes(API_KEY), 'the key is never printed');
  } finally { await c.close(); }
});
