// Real vaults from ../shared: every note of both vaults reads through read_note without error, and
// every heading of the English help vault is readable as a section. Skips when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { sharedFixture } from '../helpers/paths.js';
import { extractArchive } from '../helpers/vault.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call, textOf } from '../helpers/server.js';

// Bulk reads are not what the limits are for: switch them off for this sweep.
const UNLIMITED = { rateLimitPerMinute: 0, defaultDailyQuota: 0 } as Record<string, number>;

async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => { while (i < items.length) await fn(items[i++]); }));
}

function vaultRoot(archive: string): string {
  const dir = extractArchive(archive);
  const top = readdirSync(dir);
  return top.length === 1 ? join(dir, top[0]) : dir;
}

for (const [name, rel] of [['Obsidian Help', 'fixtures/vaults/obsidian-help.tar.gz'], ['Obsidian Hub', 'fixtures/vaults/obsidian-hub.tar.gz']] as const) {
  test(`every note of the ${name} vault reads without error`, async (t) => {
    const fx = sharedFixture(rel);
    if (!fx.path) { console.log(`# skipped: ${fx.reason}`); t.skip(fx.reason); return; }
    const rt = await startTestRuntime(vaultRoot(fx.path), UNLIMITED);
    const client = await connect(rt.url, rt.readKey);
    try {
      const notes = rt.host.files().filter((f) => f.path.endsWith('.md'));
      assert.ok(notes.length > 6000, `${notes.length} notes`);
      const failures: string[] = [];
      await pool(notes, 16, async (f) => {
        const r = await call(client, 'read_note', { path: f.path });
        if (r.isError) failures.push(`${f.path}: ${textOf(r)}`);
        else if (r.structuredContent!.path !== f.path) failures.push(`${f.path}: answered for ${r.structuredContent!.path}`);
      });
      assert.deepEqual(failures.slice(0, 10), []);
    } finally {
      await client.close();
      await rt.stop();
    }
  });
}

test('every heading of the English help vault is readable as a section, by ordinal and by text', async (t) => {
  const fx = sharedFixture('fixtures/vaults/obsidian-help.tar.gz');
  if (!fx.path) { console.log(`# skipped: ${fx.reason}`); t.skip(fx.reason); return; }
  const rt = await startTestRuntime(vaultRoot(fx.path), UNLIMITED);
  const client = await connect(rt.url, rt.readKey);
  try {
    const notes = rt.host.files().filter((f) => f.path.startsWith('en/') && f.path.endsWith('.md'));
    assert.ok(notes.length > 100);
    let sections = 0;
    const failures: string[] = [];
    await pool(notes, 8, async (f) => {
      const headings = rt.host.metadata(f.path)?.headings ?? [];
      const counts = new Map<string, number>();
      for (const h of headings) counts.set(h.heading.trim(), (counts.get(h.heading.trim()) ?? 0) + 1);
      for (let i = 0; i < headings.length; i++) {
        const r = await call(client, 'read_note', { path: f.path, section: `#${i + 1}` });
        sections++;
        if (r.isError) { failures.push(`${f.path} #${i + 1}: ${textOf(r)}`); continue; }
        if (r.structuredContent!.section !== `#${i + 1} ${headings[i].heading}`) failures.push(`${f.path} #${i + 1}: section ${r.structuredContent!.section} != #${i + 1} ${headings[i].heading}`);
        // Unique heading texts resolve by text to the same section.
        const text = headings[i].heading.trim();
        if (counts.get(text) === 1 && text !== '' && !/^#\d+$/.test(text)) {
          const byText = await call(client, 'read_note', { path: f.path, section: text });
          if (byText.isError || !byText.structuredContent!.section.startsWith(`#${i + 1} `)) failures.push(`${f.path} "${text}": ${byText.isError ? textOf(byText) : byText.structuredContent!.section}`);
        }
      }
    });
    console.log(`# ${sections} sections read in ${notes.length} English help notes`);
    assert.ok(sections > 500);
    assert.deepEqual(failures.slice(0, 10), []);
  } finally {
    await client.close();
    await rt.stop();
  }
});
