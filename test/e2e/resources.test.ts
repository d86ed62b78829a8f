// MCP resources, prompts and completion over real HTTP with the SDK client: paging, reads, templates,
// subscriptions that fire on agent and human changes, and the key's limits (root confinement,
// switched-off families, quota, audit) applied exactly as for tools.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { connect, call } from '../helpers/server.js';
import { startSec, makeVault, INSIDE, OUTSIDE, MARKERS } from '../security/helpers.js';
import { RESOURCE_PAGE } from '../../src/mcp/resources.js';
import { noteUri } from '../../src/mcp/resourceUris.js';
import { readAllEntries } from '../../src/audit/log.js';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { startRuntime } from '../../src/runtime.js';
import { withDefaults } from '../../src/settings.js';
import { tempDir } from '../helpers/vault.js';

/** Resolves with the first notification of `schema` whose uri is `uri`. */
function nextUpdate(c: Client, uri: string): Promise<string> {
  return new Promise((resolve) => {
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { if (n.params.uri === uri) resolve(n.params.uri); });
  });
}

async function allResources(c: Client): Promise<{ uris: string[]; pages: number }> {
  const uris: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await c.listResources(cursor ? { cursor } : {});
    pages++;
    uris.push(...r.resources.map((x) => x.uri));
    cursor = r.nextCursor;
  } while (cursor);
  return { uris, pages };
}

/** The text of a read's first content. */
function text0(r: { contents: unknown[] }): string {
  return String((r.contents[0] as { text?: string }).text);
}

async function refusal(p: Promise<unknown>): Promise<McpError> {
  try { await p; } catch (e) { if (e instanceof McpError) return e; throw e; }
  throw new Error('expected an MCP error');
}

test('resources: paged list, note/toc/guide reads, templates, path completion', async () => {
  const files: Record<string, string> = { ...INSIDE, ...OUTSIDE };
  for (let i = 0; i < RESOURCE_PAGE + 37; i++) files[`Bulk/Note ${String(i).padStart(3, '0')}.md`] = `# Bulk ${i}\n\n## Part\n\ntext ${i}\n`;
  const vault = makeVault(files);
  const t = await startSec(vault);
  try {
    const c = await connect(t.url, await t.key({ name: 'reader', scope: 'read' }));
    assert.deepEqual(c.getServerCapabilities()?.resources, { subscribe: true, listChanged: true });
    const { uris, pages } = await allResources(c);
    const notes = Object.keys(files).filter((p) => p.endsWith('.md')).sort();
    assert.equal(pages, 2);
    assert.deepEqual(uris, ['vault://guide', ...notes.map(noteUri)]);
    assert.ok(uris.includes('vault://note/Caf%C3%A9/Note.md'));

    const note = await c.readResource({ uri: noteUri('Team/Plan.md') });
    assert.equal(text0(note), INSIDE['Team/Plan.md']);
    assert.equal(note.contents[0].mimeType, 'text/markdown');
    // An unencoded spelling of the same path reads the same note.
    assert.equal(text0(await c.readResource({ uri: 'vault://note/Café/Note.md' })), OUTSIDE['Café/Note.md']);
    const toc = await c.readResource({ uri: 'vault://toc/Team/Plan.md' });
    assert.match(String(text0(toc)), /Budget/);
    const guide = await c.readResource({ uri: 'vault://guide' });
    assert.match(String(text0(guide)), /ROOTGUIDE/);

    const missing = await refusal(c.readResource({ uri: noteUri('Team/Nope.md') }));
    assert.equal(missing.code, -32002);
    assert.match(missing.message, /No note at "Team\/Nope\.md"/);
    assert.equal((await refusal(c.readResource({ uri: 'vault://note/../x.md' }))).code, -32602);
    assert.equal((await refusal(c.readResource({ uri: 'test://static-text' }))).code, -32002);

    const templates = await c.listResourceTemplates();
    assert.deepEqual(templates.resourceTemplates.map((x) => x.uriTemplate), ['vault://note/{+path}', 'vault://toc/{+path}']);
    const done = await c.complete({ ref: { type: 'ref/resource', uri: 'vault://note/{+path}' }, argument: { name: 'path', value: 'team/p' } });
    assert.deepEqual(done.completion.values, ['Team/Plan.md']);
    const bulk = await c.complete({ ref: { type: 'ref/resource', uri: 'vault://toc/{+path}' }, argument: { name: 'path', value: 'Bulk/' } });
    assert.equal(bulk.completion.values.length, 100);
    assert.equal(bulk.completion.total, RESOURCE_PAGE + 37);
    assert.equal(bulk.completion.hasMore, true);
    // By file name when the path does not start with what was typed, then anywhere in the path.
    assert.deepEqual((await c.complete({ ref: { type: 'ref/resource', uri: 'vault://note/{+path}' }, argument: { name: 'path', value: 'deep' } })).completion.values, ['Team/Sub/Deep.md', 'Private/Deep/More.md']);
    await c.close();
  } finally { await t.stop(); }
});

test('resources: a root-confined key lists, reads, completes and hears only inside its root', async () => {
  const vault = makeVault({ ...INSIDE, ...OUTSIDE });
  const t = await startSec(vault);
  try {
    const c = await connect(t.url, await t.key({ name: 'team', scope: 'readwrite', root: 'Team' }));
    const { uris } = await allResources(c);
    assert.deepEqual(uris, ['vault://guide', ...Object.keys(INSIDE).filter((p) => p.endsWith('.md')).sort().map(noteUri)]);
    // Outside the root answers exactly like a note that does not exist.
    const outside = await refusal(c.readResource({ uri: noteUri('Private/Secret.md') }));
    const nowhere = await refusal(c.readResource({ uri: noteUri('Private/Nosuch.md') }));
    assert.equal(outside.code, nowhere.code);
    assert.equal(outside.message.replace('Secret', 'Nosuch'), nowhere.message);
    assert.equal((await refusal(c.readResource({ uri: 'vault://toc/Private/Secret.md' }))).code, -32002);
    // The guide is the root's own CLAUDE.md, not the vault's.
    const guide = String(text0(await c.readResource({ uri: 'vault://guide' })));
    assert.match(guide, /Team guide/);
    const everything = (await c.complete({ ref: { type: 'ref/resource', uri: 'vault://note/{+path}' }, argument: { name: 'path', value: '' } })).completion.values;
    assert.ok(everything.length > 0 && everything.every((p) => p.startsWith('Team/')), everything.join(', '));
    const folders = (await c.complete({ ref: { type: 'ref/prompt', name: 'summarize-folder' }, argument: { name: 'folder', value: '' } })).completion.values;
    assert.deepEqual(folders, ['Team', 'Team/Sub']);

    // A subscription outside the root is accepted (as for a missing note) and never fires: the
    // changes below happen outside first, then inside, and the first notice is the inside one.
    await c.subscribeResource({ uri: noteUri('Private/Secret.md') });
    await c.subscribeResource({ uri: noteUri('Team/Notes.md') });
    const heard: string[] = [];
    const inside = new Promise<void>((resolve) => c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { heard.push(n.params.uri); if (n.params.uri === noteUri('Team/Notes.md')) resolve(); }));
    const owner = await connect(t.url, await t.key({ name: 'owner', scope: 'readwrite' }));
    const secret = await call(owner, 'read_note', { path: 'Private/Secret.md' });
    assert.ok(!(await call(owner, 'edit_note', { path: 'Private/Secret.md', content: '\nmore', append: true, expected_hash: secret.structuredContent!.content_hash })).isError);
    const notes = await call(owner, 'read_note', { path: 'Team/Notes.md' });
    assert.ok(!(await call(owner, 'edit_note', { path: 'Team/Notes.md', content: '\nmore', append: true, expected_hash: notes.structuredContent!.content_hash })).isError);
    await inside;
    assert.deepEqual(heard, [noteUri('Team/Notes.md')]);
    for (const text of [JSON.stringify(uris), guide, JSON.stringify(everything)]) for (const m of MARKERS) assert.ok(!text.includes(m), m);
    await owner.close();
    await c.close();
  } finally { await t.stop(); }
});

test('resources: subscriptions fire on agent writes and on changes made on disk, list_changed on creation', async () => {
  const vault = makeVault(INSIDE);
  // With the file watcher on, so saves by other programs are seen as they happen.
  const host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-res-'), 'data'), watch: true });
  await host.ready();
  const keys = new KeyStore(host.data);
  const rt = await startRuntime({ host, settings: () => withDefaults({ port: 0 }), keys });
  try {
    const raw = (await keys.add({ name: 'watcher', scope: 'readwrite' })).raw;
    const c = await connect(rt.server.url, raw);
    const planUri = noteUri('Team/Plan.md');
    await c.subscribeResource({ uri: planUri });
    await c.subscribeResource({ uri: 'vault://toc/Team/Plan.md' });
    await c.subscribeResource({ uri: 'vault://guide' });

    // An agent's write (another session) notifies.
    const agentEdit = nextUpdate(c, planUri);
    const agent = await connect(rt.server.url, raw);
    const r = await call(agent, 'read_note', { path: 'Team/Plan.md' });
    assert.ok(!(await call(agent, 'edit_note', { path: 'Team/Plan.md', content: '\n## Added by an agent\n', append: true, expected_hash: r.structuredContent!.content_hash })).isError);
    await agentEdit;

    // A person's save in another program, seen by the watcher: the note and its outline.
    const humanNote = nextUpdate(c, planUri);
    writeFileSync(join(vault, 'Team/Plan.md'), '# Plan\n\n## Rewritten by hand\n');
    await humanNote;
    const outline = new Promise<void>((resolve) => c.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
      if (n.params.uri !== 'vault://toc/Team/Plan.md') return;
      if (/Rewritten by hand/.test(String(text0(await c.readResource({ uri: n.params.uri }))))) resolve();
    }));
    await outline;

    // The vault guide follows the root CLAUDE.md; a new note changes the resource list.
    const listed = async () => (await c.listResources()).resources.map((r) => r.uri);
    assert.ok(!(await listed()).includes('vault://note/CLAUDE.md'));
    const listChanged = new Promise<void>((resolve) => c.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
    const guide = nextUpdate(c, 'vault://guide');
    writeFileSync(join(vault, 'CLAUDE.md'), '# New guide\n');
    await Promise.all([guide, listChanged]);
    assert.ok((await listed()).includes('vault://note/CLAUDE.md'), 'the list follows a created note');
    assert.match(String(text0(await c.readResource({ uri: 'vault://guide' }))), /New guide/);

    await c.unsubscribeResource({ uri: planUri });
    await agent.close();
    await c.close();
  } finally { await rt.stop(); await host.close(); }
});

test('resources and prompts follow the key: families off, quota and audit like tool calls', async () => {
  const vault = makeVault({ ...INSIDE, ...OUTSIDE });
  const t = await startSec(vault, { defaultDailyQuota: 4 });
  try {
    const noRead = await connect(t.url, await t.key({ name: 'no-read', scope: 'read', disabledFamilies: ['read'] }));
    assert.deepEqual((await noRead.listResources()).resources, []);
    assert.deepEqual((await noRead.listResourceTemplates()).resourceTemplates, []);
    assert.deepEqual((await noRead.listPrompts()).prompts, []);
    const denied = await refusal(noRead.readResource({ uri: noteUri('Team/Plan.md') }));
    assert.match(denied.message, /switched off/);
    assert.equal((denied.data as { code: string }).code, 'permission_denied');
    await noRead.close();

    const q = await connect(t.url, await t.key({ name: 'quota', scope: 'read' }));
    await q.readResource({ uri: noteUri('Team/Plan.md') });
    await q.readResource({ uri: 'vault://guide' });
    await q.getPrompt({ name: 'discuss-note', arguments: { path: 'Team/Plan.md' } });
    await call(q, 'stats');
    const over = await refusal(q.readResource({ uri: noteUri('Team/Notes.md') }));
    assert.equal((over.data as { code: string }).code, 'over_quota');
    assert.ok((over.data as { retry_after_seconds: number }).retry_after_seconds > 0);
    await q.close();
    await t.rt.deps.services.audit?.flush();
    const lines = (await readAllEntries(t.rt.deps.host.data)).filter((l) => l.key === 'quota');
    assert.deepEqual(lines.map((l) => [l.tool, l.outcome]), [['resources/read', 'ok'], ['resources/read', 'ok'], ['prompts/get', 'ok'], ['stats', 'ok'], ['resources/read', 'over_quota']]);
    assert.match(lines[0].args, /Team\/Plan\.md/);
  } finally { await t.stop(); }
});
