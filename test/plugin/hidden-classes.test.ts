// The records the plugin keeps per note (file list, change-feed state, task rows, semantic entries)
// must be fast-mode objects sharing a hidden class. In Node 20's V8, spreads such as `{ ...parsed, line }`
// gave each record a map of its own, and the file list's object literal made dictionary-mode objects
// (about 450 bytes each): at 100k notes the heap after a first build was about 60 MB larger, all of it
// traced by every full collection (bench/longtasks.bench.ts). Each assertion below fails on that code.
// V8's own answer (%HasFastProperties, %HaveSameMap) needs --allow-natives-syntax: a child process.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/vault.js';

test('the per-note records are fast-mode objects sharing a hidden class', () => {
  const vault = join(tempDir('vmcp-shapes-'), 'vault');
  const words = 'vault note link graph search index task project meeting plan draft review garden recipe travel budget'.split(' ');
  const prose = (i: number, n: number) => Array.from({ length: n }, (_, k) => words[(i * 7 + k * k) % words.length]).join(' ');
  for (let f = 0; f < 20; f++) mkdirSync(join(vault, `F${f}`), { recursive: true });
  for (let i = 0; i < 2000; i++) {
    const tasks = i % 2 === 0 ? `\n## Tasks\n- [ ] ${prose(i, 5)} 📅 2026-01-0${1 + (i % 9)}\n- [x] ${prose(i + 1, 4)} ✅ 2026-01-01\n` : '';
    writeFileSync(join(vault, `F${i % 20}`, `Note ${i}.md`), `---\ntags: [t${i % 50}]\nstatus: ${i % 3 ? 'open' : 'done'}\n---\n# Note ${i}\n\n${prose(i, 40)} [[Note ${(i * 7) % 2000}]] [[Note ${(i * 13) % 2000}]] #topic${i % 30}\n\n## Details\n${prose(i + 3, 60)}\n${tasks}`);
  }
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', join(import.meta.dirname, 'hidden-classes.probe.ts'), vault], { encoding: 'utf8', timeout: 120_000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('{'));
  assert.ok(line, `the probe printed no result (status ${r.status}):\n${r.stderr.slice(-2000)}`);
  const got = JSON.parse(line) as Record<string, { count: number; fast: number; maps: number }>;
  const want = { fileStats: 2000, noteStates: 2000, tasks: 2000, vectors: 500 };
  for (const [kind, count] of Object.entries(want)) {
    const s = got[kind];
    assert.equal(s.count, count, `${kind}: every record is there`);
    assert.equal(s.fast, s.count, `${kind}: every record in fast mode (${JSON.stringify(s)})`);
    // A class's map may be generalized once or twice as the values' representations widen (a size
    // read as a Smi, then as a double); one map per record is what must not come back.
    assert.ok(s.maps <= 3, `${kind}: the records share their maps (${JSON.stringify(s)})`);
  }
});
