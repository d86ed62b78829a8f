// The task index follows host events: initial build (settle waits for reads in flight), edits,
// renames, deletions, notes that lose their tasks; and the graph service's incremental rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { TaskService } from '../../src/tasks/service.js';
import { GraphService } from '../../src/graph/service.js';
import { LinkGraph } from '../../src/graph/linkGraph.js';
import { adjacency } from '../helpers/graphDump.js';
import { tempDir } from '../helpers/vault.js';

function vaultWith(n: number): string {
  const dir = join(tempDir('vmcp-tasks-'), 'vault');
  mkdirSync(join(dir, 'a'), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(join(dir, 'a', `n${i}.md`), `# N${i}\n\n[[n${(i + 1) % n}]]\n\n- [ ] task ${i} 📅 2026-01-${String(1 + (i % 28)).padStart(2, '0')}\n`);
  writeFileSync(join(dir, 'plain.md'), '# no tasks\n');
  return dir;
}

test('task index: initial build is complete when settle says so; edits, renames and deletes follow', async () => {
  const vault = vaultWith(150);
  const host = new NodeHost(vault, { watch: false, dataDir: join(tempDir('vmcp-d-'), 'd') });
  const svc = new TaskService(host);
  try {
    await svc.start();
    assert.equal(await svc.settle(10_000), true);
    assert.equal(svc.notesWithTasks(), 150);
    assert.equal(svc.pending(), 0);
    writeFileSync(join(vault, 'plain.md'), '# now with one\n\n- [/] started\n');
    await host.refresh('plain.md');
    await svc.settle(0);
    assert.deepEqual(svc.ofNote('plain.md').map((t) => [t.status, t.text, t.line]), [['in_progress', 'started', 3]]);
    writeFileSync(join(vault, 'plain.md'), '# gone again\n');
    await host.refresh('plain.md');
    await svc.settle(0);
    assert.deepEqual(svc.ofNote('plain.md'), []);
    renameSync(join(vault, 'a/n1.md'), join(vault, 'moved.md'));
    await host.renamed('a/n1.md', 'moved.md');
    await svc.settle(0);
    assert.equal(svc.ofNote('a/n1.md').length, 0);
    assert.deepEqual(svc.ofNote('moved.md').map((t) => [t.text, t.line]), [['task 1', 5]]);
    assert.deepEqual([...svc.notes()].filter(([p]) => p === 'moved.md' || p === 'a/n1.md').map(([p]) => p), ['moved.md']);
    rmSync(join(vault, 'a/n2.md'));
    await host.refresh('a/n2.md');
    assert.equal(svc.ofNote('a/n2.md').length, 0);
    assert.equal(svc.notesWithTasks(), 149);
  } finally {
    await svc.stop();
    await host.close();
  }
});

test('graph service: a re-parsed note updates its own row; creations re-resolve others', async () => {
  const vault = vaultWith(5);
  const host = new NodeHost(vault, { watch: false, dataDir: join(tempDir('vmcp-d-'), 'd') });
  await host.ready();
  const g = new GraphService(host);
  g.start();
  try {
    assert.deepEqual([...g.get().incoming('a/n1.md').keys()], ['a/n0.md']);
    writeFileSync(join(vault, 'a/n0.md'), '# N0\n\n[[n3]] [[Later]]\n');
    await host.refresh('a/n0.md');
    assert.deepEqual([...g.get().incoming('a/n1.md').keys()], []);
    assert.deepEqual([...g.get().incoming('a/n3.md').keys()].sort(), ['a/n0.md', 'a/n2.md']);
    assert.equal(g.get().unresolvedOf('a/n0.md').get('Later'), 1);
    writeFileSync(join(vault, 'Later.md'), '# later\n');
    await host.refresh('Later.md');
    assert.deepEqual([...g.get().incoming('Later.md').keys()], ['a/n0.md'], 'a new note resolves links written before it existed');
    assert.equal(g.get().hasUnresolved('a/n0.md'), false);
    rmSync(join(vault, 'a/n3.md'));
    await host.refresh('a/n3.md');
    assert.equal(g.get().linkedTargets().includes('a/n3.md'), false);
    assert.equal(g.get().unresolvedOf('a/n2.md').get('n3'), 1);
    writeFileSync(join(vault, 'a/n4.md'), '# N4\n\n[[Later]] [[Later#x]] ![[n0]] [[#self]] [[nope]]\n');
    await host.refresh('a/n4.md');
    // The incrementally kept graph equals a fresh build from the host's own maps.
    assert.deepEqual(adjacency(g.get()), adjacency(LinkGraph.build(host.resolvedLinks(), host.unresolvedLinks())));
  } finally {
    g.stop();
    await host.close();
  }
});
