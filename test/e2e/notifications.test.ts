// What sessions hear without asking, over real HTTP with the SDK client: index problems as log
// messages at warning (filtered by logging/setLevel, kept from root-confined keys when vault-wide),
// tools/list_changed when a setting or a key change adds or removes tools, and notifications/progress
// from reindex and summarize when the call carries a progress token.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, PromptListChangedNotificationSchema, ToolListChangedNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { connect, call } from '../helpers/server.js';
import { startSec, makeVault, INSIDE, OUTSIDE } from '../security/helpers.js';
import { startFakeLlm } from '../llm/fakeLlm.js';
import { sessionHub } from '../../src/mcp/sessionHub.js';

type Log = { level: string; logger?: string; data: unknown };

function logsOf(c: Client): { logs: Log[]; next(pred: (l: Log) => boolean): Promise<Log> } {
  const logs: Log[] = [];
  const waiters: { pred: (l: Log) => boolean; resolve: (l: Log) => void }[] = [];
  c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
    for (const w of [...waiters]) if (w.pred(n.params)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(n.params); }
  });
  return {
    logs,
    next: (pred) => new Promise((resolve) => { const hit = logs.find(pred); if (hit) resolve(hit); else waiters.push({ pred, resolve }); }),
  };
}

test('logging: index problems reach sessions at warning, filtered by their level and by their key', async () => {
  const big = `# Big\n\n${'word '.repeat(3000)}`;
  const vault = makeVault({ ...INSIDE, ...OUTSIDE, 'Private/Huge.md': big });
  const t = await startSec(vault, { keywordMaxNoteBytes: 4096 } as Record<string, number>);
  try {
    const warned = await connect(t.url, await t.key({ name: 'warned', scope: 'read' }));
    const quiet = await connect(t.url, await t.key({ name: 'quiet', scope: 'read' }));
    const team = await connect(t.url, await t.key({ name: 'team', scope: 'read', root: 'Team' }));
    assert.deepEqual(warned.getServerCapabilities()?.logging, {});
    await quiet.setLoggingLevel('error');
    const w = logsOf(warned);
    const q = logsOf(quiet);
    const tm = logsOf(team);
    // The keyword index skips the note over keywordMaxNoteBytes: a vault-wide problem, told at warning.
    assert.ok(!(await call(warned, 'keyword_search', { query: 'word' })).isError);
    const warning = await w.next((l) => l.logger === 'keyword index');
    assert.equal(warning.level, 'warning');
    assert.match(String(warning.data), /1 note\(s\) could not be indexed/);
    // Then an error-level line for everyone: the "error" session's first message is that one (the
    // warning before it was filtered), and the root-confined key heard neither vault-wide count.
    await sessionHub(t.rt.deps).tick();
    sessionHub(t.rt.deps).log({ level: 'error', logger: 'test', data: 'marker error' });
    await q.next((l) => l.data === 'marker error');
    assert.deepEqual(q.logs.map((l) => l.data), ['marker error']);
    await tm.next((l) => l.data === 'marker error');
    assert.deepEqual(tm.logs.map((l) => l.data), ['marker error']);
    // A failure a feature reports to the host log reaches sessions too (paths kept from confined keys).
    t.rt.deps.services.log?.('change feed: write failed: EACCES');
    await w.next((l) => l.data === 'change feed: write failed: EACCES' && l.logger === 'change feed');
    for (const c of [warned, quiet, team]) await c.close();
  } finally { await t.stop(); }
});

test('tools/list_changed: read-only mode and a key\'s families change the tool list of open sessions', async () => {
  const vault = makeVault(INSIDE);
  const t = await startSec(vault);
  try {
    const c = await connect(t.url, await t.key({ name: 'editor', scope: 'readwrite' }));
    assert.deepEqual(c.getServerCapabilities()?.tools, { listChanged: true });
    let changes = 0;
    let heard: () => void = () => undefined;
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => { changes++; heard(); });
    const nextChange = () => new Promise<void>((r) => { heard = r; });
    const names = async () => (await c.listTools()).tools.map((x) => x.name);
    assert.ok((await names()).includes('edit_note'));

    // Read-only mode also takes away the prompt that edits (tidy-links): prompts/list_changed.
    const promptsChanged = new Promise<void>((r) => c.setNotificationHandler(PromptListChangedNotificationSchema, () => r()));
    let wait = nextChange();
    t.settings.readOnly = true;
    await Promise.all([wait, promptsChanged]);
    assert.ok(!(await names()).includes('edit_note'));
    assert.ok(!(await c.listPrompts()).prompts.some((p) => p.name === 'tidy-links'));

    wait = nextChange();
    t.settings.readOnly = false;
    await wait;
    assert.ok((await names()).includes('edit_note'));

    // The key loses its graph tools (as the settings tab or `keys set` would do it).
    wait = nextChange();
    await t.rt.keys.update('editor', { disabledFamilies: ['graph'] });
    await wait;
    assert.ok(!(await names()).includes('get_backlinks'));
    // Nothing changed since: a tick sends nothing.
    await sessionHub(t.rt.deps).tick();
    assert.equal(changes, 3);
    await c.close();
  } finally { await t.stop(); }
});

test('progress: reindex and summarize report notifications/progress to a caller with a progress token', async () => {
  const llm = await startFakeLlm();
  const vault = makeVault({ ...INSIDE, 'Docs/A.md': '# A\n\nalpha\n', 'Docs/B.md': '# B\n\nbeta\n', 'Docs/C.md': '# C\n\ngamma\n' });
  const t = await startSec(vault, { llmUrl: llm.url, llmModel: 'test-model' });
  try {
    const c = await connect(t.url, await t.key({ name: 'admin', scope: 'readwrite' }));
    const run = async (name: string, args: Record<string, unknown>) => {
      const seen: Progress[] = [];
      const r = await c.callTool({ name, arguments: args }, undefined, { onprogress: (p) => seen.push(p) });
      assert.ok(!r.isError, JSON.stringify(r));
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, JSON.stringify(seen));
      return seen;
    };
    const re = await run('reindex', { force: true });
    assert.equal(re[0].progress, 0);
    assert.equal(re[0].message, 'reindex started');
    assert.match(String(re.at(-1)!.message), /reindex done|notes/);

    const per = await run('summarize', { paths: ['Docs'], mode: 'per_note' });
    const counted = per.filter((p) => p.total === 3).map((p) => p.progress);
    assert.deepEqual(counted, [1, 2, 3]);
    assert.equal(per.at(-1)!.progress, 3);

    // Without a token: no progress at all.
    let any = 0;
    const plain = await c.callTool({ name: 'reindex', arguments: {} });
    assert.ok(!plain.isError);
    c.fallbackNotificationHandler = async (n) => { if (n.method === 'notifications/progress') any++; };
    await call(c, 'stats');
    assert.equal(any, 0);
    await c.close();
  } finally { await t.stop(); await llm.close(); }
});
