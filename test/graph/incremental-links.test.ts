// NodeHost keeps resolvedLinks/unresolvedLinks incrementally (only rows whose links could resolve
// differently are recomputed). Property: after any sequence of creations, edits, deletions and
// renames through the writer, the incremental maps equal both a full recomputation on the same host
// and a fresh host's first pass over the same folder. Names collide on purpose (same file name in
// several folders, case variants, attachments, relative and partial-path links) so the tie rules and
// the "a new file captures a link" cases are exercised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { linkNameKeys, nameKeyOf, resolveLinkpath, LinkIndex } from '../../src/core/markdown/links.js';
import { extractArchive, tempDir } from '../helpers/vault.js';
import { GraphService } from '../../src/graph/service.js';
import { LinkGraph } from '../../src/graph/linkGraph.js';
import { adjacency } from '../helpers/graphDump.js';
import { sharedFixture } from '../helpers/paths.js';

const FOLDERS = ['', 'a', 'a/b', 'c'];
const NAMES = ['X.md', 'x.md', 'Y.md', 'img.png', 'X.png'];
const LINKS = ['[[X]]', '[[x]]', '[[Y]]', '[[a/X]]', '[[b/X]]', '[[./X]]', '[[../X]]', '[[../../Y]]', '![[img.png]]', '[[X.png]]', '[t](X.md)', '[t](../Y.md)', '[[X#Part]]', '[[#Part]]', '[[a/b/Y|alias]]', '[[Missing]]'];

const pathArb = fc.tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES)).map(([f, n]) => (f ? `${f}/${n}` : n));
const bodyArb = fc.array(fc.constantFrom(...LINKS), { maxLength: 4 }).map((ls) => `# Note\n\n${ls.join(' and ')}\n`);
type Op =
  | { op: 'write'; path: string; body: string }
  | { op: 'delete'; path: string }
  | { op: 'rename'; from: string; to: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('write' as const), path: pathArb, body: bodyArb }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), path: pathArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('rename' as const), from: pathArb, to: pathArb }) },
);

async function apply(host: NodeHost, o: Op): Promise<void> {
  try {
    if (o.op === 'write') {
      if (host.stat(o.path)) await host.writer.process(o.path, () => o.body);
      else await host.writer.create(o.path, o.body);
    } else if (o.op === 'delete') {
      if (host.stat(o.path)) await host.writer.remove(o.path);
    } else if (host.stat(o.from) && !host.stat(o.to) && !host.isFolder(o.to) && o.from !== o.to) {
      await host.writer.rename(o.from, o.to);
    }
  } catch (e) {
    // A case-only collision on a case-insensitive file system is refused by the writer: fine.
    if (!(e instanceof Error && e.name === 'WriteError')) throw e;
  }
}

const snapshot = (h: NodeHost) => structuredClone({ resolved: h.resolvedLinks(), unresolved: h.unresolvedLinks() });

test('linkNameKeys covers every file a resolution can land on', () => {
  const paths = FOLDERS.flatMap((f) => NAMES.map((n) => (f ? `${f}/${n}` : n)));
  const index = new LinkIndex(paths);
  for (const src of paths.filter((p) => p.endsWith('.md'))) {
    for (const l of LINKS) {
      const lp = l.replace(/^!?\[\[|\]\]$|\|.*$/g, '').replace(/^\[t\]\((.*)\)$/, '$1').replace(/#.*$/, '');
      if (!lp) continue;
      const hit = resolveLinkpath(lp, src, index);
      if (hit) assert.ok(linkNameKeys(lp, src).includes(nameKeyOf(hit)), `${lp} from ${src} → ${hit}`);
    }
  }
});

test('incremental link maps equal a full rebuild after any sequence of vault events', async () => {
  await fc.assert(fc.asyncProperty(fc.array(pathArb, { maxLength: 6 }), bodyArb, fc.array(opArb, { minLength: 1, maxLength: 14 }), async (initial, body, ops) => {
    const vault = tempDir('vmcp-inc-');
    const dataDir = join(tempDir('vmcp-inc-data-'), 'data');
    for (const f of FOLDERS) if (f) mkdirSync(join(vault, f), { recursive: true });
    const host = new NodeHost(vault, { dataDir, watch: false });
    await host.ready();
    try {
      for (const p of initial) if (!host.stat(p)) await host.writer.create(p, body).catch(() => undefined);
      host.resolvedLinks(); // the full pass; everything after is incremental
      const graph = new GraphService(host);
      graph.start();
      graph.get(); // the graph service's full build; structural events after it only apply changed rows
      try {
        for (const o of ops) {
          await apply(host, o);
          const inc = snapshot(host); // queried after every event, so each is applied on its own
          const fresh = new NodeHost(vault, { dataDir, watch: false });
          await fresh.ready();
          const want = snapshot(fresh);
          assert.deepStrictEqual(inc, want, `after ${JSON.stringify(o)}`);
          assert.deepStrictEqual(adjacency(graph.get()), adjacency(LinkGraph.build(want.resolved, want.unresolved)), `graph after ${JSON.stringify(o)}`);
          await fresh.close();
        }
      } finally { graph.stop(); }
      const inc = snapshot(host);
      assert.deepStrictEqual(inc, structuredClone(host.fullLinkRebuild()));
    } finally {
      await host.close();
    }
  }), { numRuns: 40 });
});

test('on the Obsidian Help vault (all languages): renames, deletions and creations keep the maps equal to a full rebuild', { timeout: 120_000 }, async (t) => {
  const fx = sharedFixture('fixtures/vaults/obsidian-help.tar.gz');
  if (!fx.path) { console.log(`# skipped: ${fx.reason}`); t.skip(fx.reason); return; }
  const dir = extractArchive(fx.path);
  const top = readdirSync(dir);
  const vault = join(tempDir('vmcp-inc-help-'), 'vault');
  cpSync(top.length === 1 ? join(dir, top[0]) : dir, vault, { recursive: true });
  const host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-inc-data-'), 'data'), watch: false });
  await host.ready();
  try {
    const resolved = host.resolvedLinks();
    // The most-linked notes: renaming them changes how many other notes' links resolve.
    const counts = new Map<string, number>();
    for (const row of Object.values(resolved)) for (const tgt of Object.keys(row)) counts.set(tgt, (counts.get(tgt) ?? 0) + 1);
    const hubs = [...counts].filter(([p]) => p.endsWith('.md')).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 6).map(([p]) => p);
    assert.equal(hubs.length, 6);
    await host.writer.rename(hubs[0], `Elsewhere/${hubs[0].replace(/^.*\//, '')}`); // same name, new folder
    await host.writer.rename(hubs[1], hubs[1].replace(/\.md$/, ' renamed.md')); // new name: links dangle
    await host.writer.remove(hubs[2]);
    await host.writer.create(hubs[2].replace(/^[^/]+\//, ''), '# Captures links by name\n'); // same name at the root
    await host.writer.create(`Elsewhere/${hubs[3].replace(/^.*\//, '')}`, '# A second note with a hub\'s name\n');
    await host.writer.rename('Elsewhere', 'Moved folder');
    const inc = structuredClone({ resolved: host.resolvedLinks(), unresolved: host.unresolvedLinks() });
    assert.deepStrictEqual(inc, structuredClone(host.fullLinkRebuild()));
  } finally {
    await host.close();
  }
});
