// move_note(rewrite_links=true) on a copy of the English Obsidian Help vault, through the SDK client:
// afterwards every link that resolved before resolves to the same file (at its new path), and the
// other notes differ only inside link text. Skips with a reason when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, cpSync } from 'node:fs';
import { join } from 'node:path';
import { sharedFixture } from '../helpers/paths.js';
import { extractArchive, tempDir } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';
import { parseMarkdown } from '../../src/core/markdown/parse.js';
import { linkpathOf } from '../../src/core/markdown/links.js';
import type { NodeHost } from '../../src/host/node/nodeHost.js';

const LOOSE = { rateLimitPerMinute: 1e6, rateLimitBurst: 1e6, writeRateLimitPerMinute: 1e6, writeRateLimitBurst: 1e6, maxConcurrentCallsPerKey: 1000, maxConcurrentCalls: 1000, defaultDailyQuota: 0 };

interface Ref { start: number; end: number; lp: string }

function refsOf(text: string): Ref[] {
  const m = parseMarkdown(text);
  const out: Ref[] = [...(m.links ?? []), ...(m.embeds ?? [])].map((r) => ({ start: r.position.start.offset, end: r.position.end.offset, lp: linkpathOf(r.link) }));
  if (m.frontmatterPosition) {
    const block = text.slice(0, m.frontmatterPosition.end.offset);
    for (const x of block.matchAll(/\[\[([^\[\]\n]+)\]\]/g)) out.push({ start: x.index!, end: x.index! + x[0].length, lp: linkpathOf(x[1].split('|')[0].trim()) });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The text with every reference replaced by a marker: what must not change. */
function skeleton(text: string, refs: Ref[]): string {
  let out = '';
  let last = 0;
  for (const r of refs) { out += text.slice(last, r.start) + '\u0000LINK\u0000'; last = r.end; }
  return out + text.slice(last);
}

function snapshot(host: NodeHost, root: string) {
  const notes = new Map<string, { text: string; refs: (Ref & { target: string | null })[] }>();
  for (const f of host.files()) {
    if (!f.path.endsWith('.md')) continue;
    const text = readFileSync(join(root, f.path), 'utf8');
    notes.set(f.path, { text, refs: refsOf(text).map((r) => ({ ...r, target: r.lp === '' ? f.path : host.resolveLink(r.lp, f.path) })) });
  }
  return notes;
}

test('move_note(rewrite_links=true) on the Obsidian Help vault breaks no link and changes only link text', { timeout: 180_000 }, async (t) => {
  const fx = sharedFixture('fixtures/vaults/obsidian-help.tar.gz');
  if (!fx.path) { console.log(`# skipped: ${fx.reason}`); t.skip(fx.reason); return; }
  const dir = extractArchive(fx.path);
  const top = readdirSync(dir);
  const en = join(dir, top.length === 1 ? top[0] : '', 'en');
  const vault = join(tempDir('vmcp-help-'), 'vault');
  cpSync(en, vault, { recursive: true });
  const rt = await startTestRuntime(vault, LOOSE);
  try {
    const c = await connect(rt.url, rt.rwKey);
    const moves: [string, string][] = [
      ['Linking notes and files/Internal links.md', 'Archive/Old docs/Links between notes.md'],
      ['Linking notes and files/Embed files.md', 'Embedding.md'],
    ];
    for (const [from, to] of moves) {
      const before = snapshot(rt.host, vault);
      const incoming = [...before.values()].reduce((n, x) => n + x.refs.filter((r) => r.target === from).length, 0);
      assert.ok(incoming > 5, `${from} has incoming links (${incoming})`);
      const r = await call(c, 'move_note', { from_path: from, to_path: to, rewrite_links: true });
      assert.equal(r.isError, undefined, textOf(r));
      assert.ok(r.structuredContent!.links.links_rewritten >= 1);
      const after = snapshot(rt.host, vault);
      const mapped = (p: string) => (p === from ? to : p);
      let checked = 0;
      for (const [path, pre] of before) {
        const post = after.get(mapped(path));
        assert.ok(post, `${path} still exists`);
        assert.equal(post.refs.length, pre.refs.length, `${path}: same number of links`);
        pre.refs.forEach((ref, i) => {
          if (ref.target === null) return;
          checked++;
          assert.equal(post.refs[i].target, mapped(ref.target), `${mapped(path)}: link #${i} "${post.text.slice(post.refs[i].start, post.refs[i].end)}" resolves as before`);
        });
        if (post.text !== pre.text) assert.equal(skeleton(post.text, post.refs), skeleton(pre.text, pre.refs), `${path}: only link text changed`);
      }
      assert.ok(checked > 1000, `checked ${checked} links`);
      console.log(`# ${from} → ${to}: ${r.structuredContent!.links.links_rewritten} links in ${(r.structuredContent!.links.notes ?? []).length}+ notes rewritten; ${checked} resolved links verified`);
    }
    await c.close();
  } finally { await rt.stop(); }
});
