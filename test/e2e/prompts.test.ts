// MCP prompts over real HTTP with the SDK client: listed per key, arguments completed from what the
// key may see, and messages that embed real vault data (the folder's notes, the change feed, broken
// links, the note itself); summarize-folder hands off to summarize when an LLM is configured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, call } from '../helpers/server.js';
import { startSec, makeVault, INSIDE, OUTSIDE, MARKERS } from '../security/helpers.js';
import { startFakeLlm } from '../llm/fakeLlm.js';
import { sinceTime } from '../../src/mcp/prompts.js';

const texts = (r: GetPromptResult) => r.messages.map((m) => (m.content.type === 'text' ? m.content.text : JSON.stringify(m.content))).join('\n');

async function mcpError(p: Promise<unknown>): Promise<McpError> {
  try { await p; } catch (e) { if (e instanceof McpError) return e; throw e; }
  throw new Error('expected an MCP error');
}

test('prompts: listed per key, completed, and filled with the vault\'s own data', async () => {
  const vault = makeVault({ ...INSIDE, ...OUTSIDE, 'Team/Broken.md': '# Broken\n\nSee [[Nowhere Note]] and [[Plan]].\n' });
  const t = await startSec(vault);
  try {
    const rw = await connect(t.url, await t.key({ name: 'writer', scope: 'readwrite' }));
    const list = (await rw.listPrompts()).prompts;
    assert.deepEqual(list.map((p) => p.name), ['summarize-folder', 'daily-review', 'tidy-links', 'discuss-note']);
    for (const p of list) assert.ok(p.description && p.title, p.name);
    assert.deepEqual(list[0].arguments?.map((a) => [a.name, a.required]), [['folder', true], ['focus', false]]);

    // A read key cannot edit, so it is not offered "tidy links".
    const ro = await connect(t.url, await t.key({ name: 'reader', scope: 'read' }));
    assert.deepEqual((await ro.listPrompts()).prompts.map((p) => p.name), ['summarize-folder', 'daily-review', 'discuss-note']);
    assert.equal((await mcpError(ro.getPrompt({ name: 'tidy-links' }))).code, -32602);
    await ro.close();

    // Completion of prompt arguments.
    const folders = await rw.complete({ ref: { type: 'ref/prompt', name: 'summarize-folder' }, argument: { name: 'folder', value: 'tea' } });
    assert.deepEqual(folders.completion.values, ['Team', 'Team/Sub', 'Teamwork', 'team']);
    assert.deepEqual((await rw.complete({ ref: { type: 'ref/prompt', name: 'daily-review' }, argument: { name: 'since', value: 'ye' } })).completion.values, ['yesterday']);
    assert.deepEqual((await rw.complete({ ref: { type: 'ref/prompt', name: 'discuss-note' }, argument: { name: 'path', value: 'team/pl' } })).completion.values, ['Team/Plan.md']);
    assert.equal((await mcpError(rw.complete({ ref: { type: 'ref/prompt', name: 'no-such-prompt' }, argument: { name: 'x', value: '' } }))).code, -32602);

    // summarize-folder without an LLM: the agent is guided, with the folder's notes listed.
    const sf = texts(await rw.getPrompt({ name: 'summarize-folder', arguments: { folder: 'Team/Sub', focus: 'budget' } }));
    assert.match(sf, /Team\/Sub\/Deep\.md/);
    assert.match(sf, /focusing on: budget/);
    assert.match(sf, /read_note/);
    assert.doesNotMatch(sf, /Team\/Plan\.md|summarize tool/);
    assert.match((await mcpError(rw.getPrompt({ name: 'summarize-folder', arguments: { folder: 'Nope' } }))).message, /No folder "Nope"/);
    assert.match((await mcpError(rw.getPrompt({ name: 'summarize-folder', arguments: {} }))).message, /needs the argument "folder"/);

    // daily-review embeds the change feed: a note this key just made is in it, attributed to it.
    assert.ok(!(await call(rw, 'create_note', { path: 'Team/Today.md', content: '# Today\n' })).isError);
    const dr = texts(await rw.getPrompt({ name: 'daily-review', arguments: { since: 'today' } }));
    assert.match(dr, /created Team\/Today\.md by writer/);

    // tidy-links embeds the dangling links of the folder.
    const tl = texts(await rw.getPrompt({ name: 'tidy-links', arguments: { folder: 'Team' } }));
    assert.match(tl, /Nowhere Note/);
    assert.match(tl, /edit_note/);

    // discuss-note embeds the note as a resource.
    const dn = await rw.getPrompt({ name: 'discuss-note', arguments: { path: 'Team/Plan.md' } });
    const embedded = dn.messages.find((m) => m.content.type === 'resource');
    assert.ok(embedded && embedded.content.type === 'resource');
    assert.equal(embedded.content.resource.uri, 'vault://note/Team/Plan.md');
    assert.equal((embedded.content.resource as { text: string }).text, INSIDE['Team/Plan.md']);
    await rw.close();

    // A root-confined key: its prompts see only its root.
    const team = await connect(t.url, await t.key({ name: 'team', scope: 'readwrite', root: 'Team' }));
    const teamSum = texts(await team.getPrompt({ name: 'summarize-folder', arguments: { folder: '' } }));
    assert.match(teamSum, /Team\/Plan\.md/);
    const teamLinks = texts(await team.getPrompt({ name: 'tidy-links' }));
    for (const text of [teamSum, teamLinks]) for (const m of MARKERS) assert.ok(!text.includes(m), m);
    assert.match((await mcpError(team.getPrompt({ name: 'discuss-note', arguments: { path: 'Private/Secret.md' } }))).message, /No note at "Private\/Secret\.md"/);
    await team.close();
  } finally { await t.stop(); }
});

test('prompts: summarize-folder hands off to summarize when the vault owner configured an LLM', async () => {
  const llm = await startFakeLlm();
  const vault = makeVault(INSIDE);
  const t = await startSec(vault, { llmUrl: llm.url, llmModel: 'test-model' });
  try {
    const c = await connect(t.url, await t.key({ name: 'writer', scope: 'readwrite' }));
    const text = texts(await c.getPrompt({ name: 'summarize-folder', arguments: { folder: 'Team', focus: 'the launch' } }));
    assert.match(text, /Call the summarize tool with paths=\["Team"\] and focus="the launch"/);
    // The hand-off works as written.
    const r = await call(c, 'summarize', { paths: ['Team'], focus: 'the launch' });
    assert.ok(!r.isError, JSON.stringify(r));
    await c.close();
  } finally { await t.stop(); await llm.close(); }
});

test('prompts: daily-review reads "today", "yesterday", "last N days" and dates', () => {
  const now = new Date(2026, 5, 15, 14, 30).getTime();
  assert.equal(sinceTime('today', now), new Date(2026, 5, 15).toISOString());
  assert.equal(sinceTime(undefined, now), new Date(2026, 5, 15).toISOString());
  assert.equal(sinceTime('yesterday', now), new Date(2026, 5, 14).toISOString());
  assert.equal(sinceTime('last 7 days', now), new Date(now - 7 * 86_400_000).toISOString());
  assert.equal(sinceTime('2026-01-31', now), new Date('2026-01-31').toISOString());
  assert.throws(() => sinceTime('someday', now), /not "today", "yesterday", "last N days" or a date/);
});
