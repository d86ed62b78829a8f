// SIGKILL of the real CLI server while MCP clients write (appends, creates, frontmatter changes) and
// while its background saves run (keys' last use, audit, usage, index, change feed, creation
// times). After every kill: each note is whole (every line one of ours, complete), every write a
// client saw acknowledged is on disk, no created note is partial, the data files parse, and the
// server starts again on the same folders (its stale lock taken over) and serves what was written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync, writeFileSync, readFileSync, readdirSync, existsSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, call, startCli, textOf } from '../../helpers/server.js';
import { tempDir } from '../../helpers/vault.js';
import { KeyStore } from '../../../src/services/keyStore.js';
import { FsDataStore } from '../../../src/host/fsDataStore.js';
import { Category, report } from './report.js';

const NOTES = 6;
const HEAD = (i: number) => `---\nn: ${i}\n---\n# Note ${i}\n`;

test('SIGKILL during writes: notes whole, acknowledged writes kept, data files readable, restart serves', { timeout: 600_000 }, async () => {
  const cat = new Category('SIGKILL during writes');
  const root = tempDir('vmcp-kill-');
  const vault = join(root, 'vault');
  const data = join(root, 'data');
  mkdirSync(vault, { recursive: true });
  for (let i = 0; i < NOTES; i++) writeFileSync(join(vault, `n${i}.md`), HEAD(i));
  const { raw } = await new KeyStore(new FsDataStore(data)).add({ name: 'k', scope: 'readwrite' });
  const acked = new Set<string>(); // "line c-n" appended and acknowledged
  const created = new Map<string, string>(); // path → content, acknowledged
  for (let round = 0; round < 6; round++) {
    const t0 = Date.now();
    const srv = await startCli(vault, { dataDir: data, args: ['--rate-limit', '0', '--write-rate-limit', '0', '--default-quota', '0'] });
    const clients: Client[] = [];
    for (let k = 0; k < 4; k++) clients.push(await connect(srv.url, raw));
    let stop = false;
    let first!: () => void;
    const started = new Promise<void>((r) => { first = r; });
    const writer = async (k: number) => {
      for (let n = 0; !stop; n++) {
        const c = clients[k];
        const id = `${round}.${k}-${n}`;
        try {
          const r = await call(c, 'edit_note', { path: `n${(k + n) % NOTES}.md`, content: `line ${id}`, append: true });
          if (!r.isError) { acked.add(`line ${id}`); first(); }
          const p = `new/${id}.md`;
          const body = `# ${id}\n\n${'created body '.repeat(200)}\n`;
          const cr = await call(c, 'create_note', { path: p, content: body });
          if (!cr.isError) created.set(p, body);
          await call(c, 'set_frontmatter', { path: `n${(k + n + 1) % NOTES}.md`, updates: { [`k${k}`]: n } });
        } catch { return; } // the server is gone
      }
    };
    const running = clients.map((_, k) => writer(k));
    const t1 = Date.now();
    await started;
    if (process.env.VMCP_TRACE) console.log(`round ${round}: start ${t1 - t0} ms, first ack after ${Date.now() - t1} ms`);
    await new Promise((r) => setTimeout(r, 200 + Math.floor(Math.random() * 1500)));
    srv.child.kill('SIGKILL');
    await new Promise<void>((r) => srv.child.once('exit', () => r()));
    stop = true;
    // Closing the clients ends their calls in flight (the SDK would otherwise wait 60 s for answers that never come).
    for (const c of clients) await c.close().catch(() => undefined);
    await Promise.all(running);
    if (process.env.VMCP_TRACE) console.log(`round ${round}: killed and clients done at ${Date.now() - t0} ms`);
    // Every note whole: the head (its frontmatter may have changed), then only complete lines of ours.
    const lines = new Set<string>();
    for (let i = 0; i < NOTES; i++) {
      const text = readFileSync(join(vault, `n${i}.md`), 'utf8');
      cat.check(`round ${round} n${i}.md has its head`, /^---\n[\s\S]*\n---\n# Note \d\n/.test(text), text.slice(0, 80));
      const body = text.slice(text.indexOf(`# Note ${i}\n`) + `# Note ${i}\n`.length);
      for (const l of body.split('\n').filter(Boolean)) {
        cat.check(`round ${round} n${i}.md line is whole`, /^line \d+\.\d+-\d+$/.test(l), JSON.stringify(l));
        lines.add(l);
      }
    }
    const lost = [...acked].filter((l) => !lines.has(l));
    cat.check(`round ${round}: every acknowledged append is on disk`, lost.length === 0, `${lost.length} lost, e.g. ${lost[0]}`);
    for (const [p, body] of created) cat.check(`round ${round}: ${p} whole`, existsSync(join(vault, p)) && readFileSync(join(vault, p), 'utf8') === body);
    for (const name of existsSync(join(vault, 'new')) ? readdirSync(join(vault, 'new')) : []) {
      if (name.startsWith('.')) continue; // a staged temp file the kill left: hidden from every tool
      const text = readFileSync(join(vault, 'new', name), 'utf8');
      cat.check(`round ${round}: new/${name} not partial`, text.endsWith(`${'created body '.repeat(200)}\n`), `${text.length} bytes`);
    }
    for (const f of ['keys.json', 'usage.json', 'ctimes.json', 'changes-state.json']) {
      if (!existsSync(join(data, f))) continue;
      const t = readFileSync(join(data, f));
      cat.check(`round ${round}: ${f} readable`, f === 'changes-state.json' ? t.length > 0 : (() => { try { JSON.parse(t.toString('utf8')); return true; } catch { return false; } })());
    }
    if (existsSync(join(data, 'audit.jsonl'))) {
      const al = readFileSync(join(data, 'audit.jsonl'), 'utf8').split('\n');
      const bad = al.slice(0, -1).filter((l) => l && (() => { try { JSON.parse(l); return false; } catch { return true; } })());
      cat.check(`round ${round}: audit.jsonl lines parse (but a torn last one)`, bad.length === 0, bad[0]);
    }
  }
  // A last start on the same folders: the dead server's lock is taken over; what was written is served.
  const srv = await startCli(vault, { dataDir: data });
  try {
    const c = await connect(srv.url, raw);
    await cat.attempt('restart: a created note reads back', async () => {
      const [p, body] = [...created][created.size - 1];
      const r = await call(c, 'read_note', { path: p });
      assert.equal(r.isError, undefined, textOf(r));
      assert.ok(JSON.stringify(r.structuredContent).includes(body.trim().slice(-30)), JSON.stringify(r.structuredContent).slice(0, 200));
    });
    await cat.attempt('restart: keyword search finds the last created note', async () => {
      const [p] = [...created][created.size - 1];
      const r = await call(c, 'keyword_search', { query: p.slice(4, -3), wait_for_pending_writes: true });
      assert.ok(JSON.stringify(r.structuredContent).includes(p), textOf(r).slice(0, 300));
    });
    await c.close();
  } finally { await srv.stop(); }
  console.log(`# SIGKILL during writes: 6 kills; ${acked.size} acknowledged appends and ${created.size} acknowledged creates, all on disk`);
  report(cat);
});
