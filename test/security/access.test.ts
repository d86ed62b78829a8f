// Scope, global read-only mode, switched-off families, revocation and edited restrictions, end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { connect, call, refusalCode } from '../helpers/server.js';
import { allTools } from '../../src/mcp/tools/index.js';
import { startSec, makeVault, INSIDE, OUTSIDE } from './helpers.js';

const familyOf = new Map(allTools().map((t) => [t.name, t.family]));
const writeNames = allTools().filter((t) => !t.annotations.readOnlyHint).map((t) => t.name);
// Index rebuilds (admin family) change no note but drop an index: listed as not read-only, destructive.
const writing = (tools: { name: string; annotations?: { readOnlyHint?: boolean } }[]) => tools.filter((x) => !x.annotations?.readOnlyHint && familyOf.get(x.name) !== 'admin').map((x) => x.name);

test('global read-only mode: no write tool is listed for any key, and calling one is refused', async () => {
  const vault = makeVault(INSIDE);
  const t = await startSec(vault, { readOnly: true });
  try {
    const c = await connect(t.url, await t.key({ name: 'rw', scope: 'readwrite' }));
    const listed = (await c.listTools()).tools;
    assert.ok(listed.length > 5);
    assert.deepEqual(writing(listed), []);
    if (writeNames.includes('create_note')) {
      const r = await call(c, 'create_note', { path: 'Team/New.md', content: 'x' });
      assert.equal(refusalCode(r), 'permission_denied');
      assert.ok(!existsSync(join(vault, 'Team/New.md')));
    }
    await c.close();
  } finally {
    await t.stop();
  }
});

test('read scope hides write tools; switched-off families are absent from tools/list and refused', async () => {
  const t = await startSec(makeVault(INSIDE));
  try {
    const full = await connect(t.url, await t.key({ name: 'full', scope: 'readwrite' }));
    const ro = await connect(t.url, await t.key({ name: 'ro', scope: 'read' }));
    const narrow = await connect(t.url, await t.key({ name: 'narrow', scope: 'readwrite', disabledFamilies: ['search', 'graph', 'files', 'write'] }));
    const fullList = (await full.listTools()).tools;
    const roList = (await ro.listTools()).tools;
    const narrowList = (await narrow.listTools()).tools;
    assert.ok(writing(fullList).length > 0, 'readwrite sees write tools');
    assert.deepEqual(writing(roList), []);
    const off = narrowList.filter((x) => ['search', 'graph', 'files', 'write'].includes(familyOf.get(x.name)!));
    assert.deepEqual(off.map((x) => x.name), []);
    assert.ok(narrowList.some((x) => x.name === 'read_note'));
    assert.ok(JSON.stringify(narrowList).length < JSON.stringify(fullList).length / 1.5, 'the agent pays less context');
    assert.equal(refusalCode(await call(narrow, 'read_file', { path: 'Team/diagram.txt' })), 'permission_denied');
    for (const c of [full, ro, narrow]) await c.close();
  } finally {
    await t.stop();
  }
});

test('revocation takes effect on the next request of an open session', async () => {
  const t = await startSec(makeVault(INSIDE));
  try {
    const c = await connect(t.url, await t.key({ name: 'doomed', scope: 'read' }));
    assert.equal(refusalCode(await call(c, 'stats')), null);
    assert.ok(await t.rt.keys.revoke('doomed'));
    await assert.rejects(call(c, 'stats'), /401|Unauthorized/);
    await c.close().catch(() => undefined);
  } finally {
    await t.stop();
  }
});

test('an expired key is refused; a root or families edited in settings apply to open sessions', async () => {
  const t = await startSec(makeVault({ ...INSIDE, ...OUTSIDE }));
  try {
    await assert.rejects(connect(t.url, await t.key({ name: 'old', scope: 'read', expires: Date.now() - 1000 })), /401|Unauthorized/);
    const c = await connect(t.url, await t.key({ name: 'edit-me', scope: 'read' }));
    assert.equal(refusalCode(await call(c, 'read_note', { path: 'Private/Secret.md' })), null);
    await t.rt.keys.update('edit-me', { root: 'Team' });
    assert.equal(refusalCode(await call(c, 'read_note', { path: 'Private/Secret.md' })), 'not_found');
    assert.equal(refusalCode(await call(c, 'read_note', { path: 'Team/Plan.md' })), null);
    await t.rt.keys.update('edit-me', { disabledFamilies: ['read'] });
    assert.equal(refusalCode(await call(c, 'read_note', { path: 'Team/Plan.md' })), 'permission_denied');
    assert.ok(!(await c.listTools()).tools.some((x) => x.name === 'read_note'));
    await c.close();
  } finally {
    await t.stop();
  }
});

test('a link from inside the root to an outside note shows as dangling, never as the outside path', async () => {
  const t = await startSec(makeVault({ ...INSIDE, ...OUTSIDE }));
  try {
    const c = await connect(t.url, await t.key({ name: 'team', scope: 'read', root: 'Team' }));
    for (const name of ['get_links', 'get_backlinks', 'get_neighborhood', 'get_context']) {
      if (!familyOf.has(name)) continue;
      const r = JSON.stringify(await call(c, name, { path: 'Team/Plan.md' }));
      assert.ok(!r.includes('Private/Secret.md') && !r.includes('Private/Deep'), `${name}: ${r.slice(0, 300)}`);
    }
    await c.close();
  } finally {
    await t.stop();
  }
});

test('links are re-resolved inside the root: an outside match gives way to the inside note or dangles', async () => {
  const t = await startSec(makeVault({ ...INSIDE, ...OUTSIDE }));
  try {
    const all = await connect(t.url, await t.key({ name: 'all', scope: 'read' }));
    const team = await connect(t.url, await t.key({ name: 'team', scope: 'read', root: 'Team' }));
    const targets = async (c: typeof all, path: string) => ((await call(c, 'get_links', { path })).structuredContent as { links: { link: string; target: string | null }[] }).links.map((l) => [l.link, l.target]);
    // Vault-wide, [[Notes]] from Team/Sub/ opens the root-level Notes.md; inside Team/ it opens Team/Notes.md.
    assert.deepEqual(await targets(all, 'Team/Sub/Deep.md'), [['Plan#Budget', 'Team/Plan.md'], ['Notes', 'Notes.md']]);
    assert.deepEqual(await targets(team, 'Team/Sub/Deep.md'), [['Plan#Budget', 'Team/Plan.md'], ['Notes', 'Team/Notes.md']]);
    // Links that only match outside dangle, and are listed as broken for the confined key alone.
    assert.deepEqual(await targets(team, 'Team/Plan.md'), [['Secret', undefined], ['Private/Secret', undefined], ['Notes', 'Team/Notes.md']]);
    const broken = JSON.stringify((await call(team, 'get_broken_links', {})).structuredContent);
    assert.match(broken, /: Secret"/);
    assert.ok(!broken.includes('Private/Secret.md'), broken);
    const back = (await call(team, 'get_backlinks', { path: 'Team/Notes.md' })).structuredContent as { backlinks: { path: string }[] };
    assert.deepEqual(back.backlinks.map((b) => b.path), ['Team/Plan.md', 'Team/Sub/Deep.md']);
    const hood = JSON.stringify((await call(team, 'get_neighborhood', { path: 'Team/Sub/Deep.md', depth: 3 })).structuredContent);
    assert.ok(!/"Notes\.md"|Private\//.test(hood), hood);
    for (const c of [all, team]) await c.close();
  } finally {
    await t.stop();
  }
});
