// The first search after start answers. The keyword index's first build is held (its note reads wait
// on a gate) so the test does not depend on machine speed: a search that arrives while it builds
// waits for it (bounded) and answers completely once it is done; a build that outlasts the wait is
// answered from what is indexed, with the staleness in structuredContent's hint (what Claude Code shows
// the model), never a refusal. hybrid_search without a semantic model used to refuse here
// ("arms: none … the keyword index is being built").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync } from 'node:fs';
import { NodeHost } from '../../../src/host/node/nodeHost.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { withDefaults } from '../../../src/settings.js';
import { startRuntime } from '../../../src/runtime.js';
import { connect, call, textOf } from '../../helpers/server.js';
import { tempDir } from '../../helpers/vault.js';
import { Category, report } from './report.js';

async function gatedServer() {
  const root = tempDir('vmcp-first-');
  const vault = join(root, 'vault');
  mkdirSync(vault, { recursive: true });
  for (let i = 0; i < 60; i++) writeFileSync(join(vault, `Note ${i}.md`), `# Note ${i}\n\nfiller text ${i}\n`);
  writeFileSync(join(vault, 'Target.md'), '# Target\n\nquetzalcoatlword lives here\n');
  const host = new NodeHost(vault, { dataDir: join(root, 'data'), watch: false });
  await host.ready();
  let open!: () => void;
  const gate = new Promise<void>((r) => { open = r; });
  // Every note read waits on the gate (the index reads text; snippets and previews read either).
  const readBytes = host.readBytes.bind(host);
  const readText = host.readText.bind(host);
  host.readBytes = async (p: string) => { await gate; return readBytes(p); };
  host.readText = async (p: string) => { await gate; return readText(p); };
  const keys = new KeyStore(host.data);
  const key = (await keys.add({ name: 'k', scope: 'read' })).raw;
  const rt = await startRuntime({ host, settings: () => withDefaults({ port: 0 }), keys });
  return { url: rt.server.url, key, open, stop: async () => { open(); await rt.stop(); await host.close(); } };
}

test('first search after start: waits for the first build, or answers with the staleness stated', { timeout: 120_000 }, async () => {
  const cat = new Category('first search after start');
  for (const tool of ['keyword_search', 'hybrid_search']) {
    // The build finishes while the call waits: a complete answer.
    const a = await gatedServer();
    try {
      const c = await connect(a.url, a.key);
      const pending = call(c, tool, { query: 'quetzalcoatlword' });
      setTimeout(a.open, 300);
      const r = await pending;
      await cat.attempt(`${tool}: build done during the wait → complete answer`, () => {
        assert.equal(r.isError, undefined, textOf(r));
        assert.doesNotMatch(String(r.structuredContent!.hint ?? ''), /still building/, JSON.stringify(r.structuredContent));
        assert.equal(r.structuredContent!.results[0]?.path, 'Target.md', JSON.stringify(r.structuredContent));
      });
      await c.close();
    } finally { await a.stop(); }
    // The build outlasts the wait: an answer from what is indexed, saying so.
    const b = await gatedServer();
    try {
      const c = await connect(b.url, b.key);
      const r = await call(c, tool, { query: 'quetzalcoatlword' });
      await cat.attempt(`${tool}: build still running → answer with the staleness in its hint`, () => {
        assert.equal(r.isError, undefined, textOf(r));
        assert.match(String(r.structuredContent!.hint), /still building: .*(being built|loading)/, JSON.stringify(r.structuredContent));
        assert.equal((r as { _meta?: { index_stale?: boolean } })._meta?.index_stale, true, 'and _meta.index_stale');
      });
      b.open();
      const again = await call(c, tool, { query: 'quetzalcoatlword', ...(tool === 'keyword_search' ? { wait_for_pending_writes: true } : {}) });
      await cat.attempt(`${tool}: once built, the next call is complete`, () => {
        assert.equal(again.structuredContent!.results[0]?.path, 'Target.md', JSON.stringify(again.structuredContent));
      });
      await c.close();
    } finally { await b.stop(); }
  }
  report(cat);
});
