// A real plugin run for the render page: the BUILT main.js with the fake obsidian on a copy of the sample
// vault, two keys (one confined to a folder, with a quota and a family switched off), real MCP calls from
// both (some refused), then the data folder's files, the tools/list each key got, and the index
// statuses as a UiSnapshot. `seedDays` writes earlier days' counters into usage.json before the start
// (only the screenshots use it, so the 14-day chart has a history; today's bars are the real calls).
import { readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyVault } from '../../helpers/vault.js';
import { connect, call } from '../../helpers/server.js';
import { PLUGIN_DIR, startPlugin } from '../../plugin/harness.js';
import { GLOVE } from '../../semantic/helpers.js';
import { permittedTools, toolListing } from '../../../src/mcp/server.js';
import { callerFor } from '../../../src/http/app.js';
import { indexStatuses } from '../../../src/services/indexReport.js';
import { dayKey, lastDays } from '../../../src/limits/day.js';
import type { ServerDeps } from '../../../src/mcp/tool.js';
import type { KeyStore } from '../../../src/services/keyStore.js';
import type { SemanticService } from '../../../src/semantic/service.js';
import type { UiSnapshot } from './snapshot.js';

export interface Recorded { snapshot: UiSnapshot; calls: { key: string; tool: string; refused: boolean }[] }

type Plugin = Awaited<ReturnType<typeof startPlugin>>['plugin'] & {
  createKey(n: string, s: 'read' | 'readwrite'): Promise<string>;
  keys(): KeyStore;
  connectUrl(): string;
  dataDir: string;
  cacheDir: string;
  runtime: { deps: ServerDeps; server: { port: number; url: string } } | null;
};

/** Earlier days' counters (deterministic), in the usage.json layout (day → key id → counts). */
function seededUsage(now: number, ids: { id: string; name: string }[]): Record<string, Record<string, unknown>> {
  const days: Record<string, Record<string, unknown>> = {};
  lastDays(now, 14).slice(0, -1).forEach((day, i) => {
    days[day] = {};
    ids.forEach((k, j) => {
      const ok = Math.round((j === 0 ? 60 : 25) * (1 + Math.sin(i * 0.9 + j * 2)) + (i % 4 === 3 ? 0 : 10 + 7 * j));
      const refused = (i + j) % 5 === 0 ? 3 + j * 4 : 0;
      days[day][k.id] = { name: k.name, admitted: ok + refused, ok, refused, lastUsed: now - (13 - i) * 86_400_000 };
    });
  });
  return days;
}

export async function recordPluginRun(opts: { seedDays?: boolean } = {}): Promise<Recorded> {
  const vault = copyVault();
  // The settings a user of the screenshots would have: semantic search on the GloVe fixture when present.
  const model = existsSync(GLOVE) ? GLOVE : '';
  const { plugin: p } = await startPlugin(vault, { port: 0, embeddingModel: model, embeddingAutoIndex: false });
  const plugin = p as Plugin;
  if (plugin.state.kind !== 'on') throw new Error(`the plugin did not start: ${JSON.stringify(plugin.state)}`);
  const calls: Recorded['calls'] = [];
  try {
    const rw = await plugin.createKey('claude-code', 'readwrite');
    const ro = await plugin.createKey('research-agent', 'read');
    await plugin.keys().update('research-agent', { root: 'Projects', dailyQuota: 200, disabledFamilies: ['transfer'] });
    if (opts.seedDays) {
      // Past days go straight into the usage store the running server holds (it is flushed with today's).
      const usage = plugin.runtime!.deps.services.limits!.usage as unknown as { days: Record<string, unknown> }; // its private day table
      const today = dayKey(Date.now());
      const seeded = seededUsage(Date.now(), plugin.keys().list().filter((k) => !k.ephemeral).map((k) => ({ id: k.id, name: k.name })));
      for (const [day, v] of Object.entries(seeded)) if (day !== today) usage.days[day] = v;
    }
    const a = await connect(plugin.runtime!.server.url, rw, 'claude-code');
    const b = await connect(plugin.runtime!.server.url, ro, 'research-agent');
    const run = async (client: typeof a, key: string, tool: string, args: Record<string, unknown>) => {
      const r = await call(client, tool, args);
      calls.push({ key, tool, refused: !!r.isError });
    };
    try {
      await run(a, 'claude-code', 'get_vault_guide', {});
      await run(a, 'claude-code', 'list_notes', { limit: 5 });
      await run(a, 'claude-code', 'keyword_search', { query: 'project plan' });
      await run(a, 'claude-code', 'read_note', { path: 'Welcome.md' });
      await run(a, 'claude-code', 'read_note', { path: 'No such note.md' });
      await run(a, 'claude-code', 'get_backlinks', { path: 'Welcome.md' });
      await run(a, 'claude-code', 'create_note', { path: 'Inbox/From Claude.md', content: '# From Claude\nA note written over MCP.\n' });
      await run(a, 'claude-code', 'list_tasks', { limit: 10 });
      await run(b, 'research-agent', 'list_notes', {});
      await run(b, 'research-agent', 'keyword_search', { query: 'roadmap' });
      await run(b, 'research-agent', 'read_note', { path: 'Projects/Website Relaunch.md' });
      await run(b, 'research-agent', 'read_note', { path: 'Welcome.md' });
      await run(b, 'research-agent', 'get_recent', { limit: 3 });
    } finally { await a.close(); await b.close(); }

    const deps = plugin.runtime!.deps;
    const tools: Record<string, unknown[]> = {};
    for (const rec of plugin.keys().list().filter((k) => !k.ephemeral)) tools[rec.name] = permittedTools(deps, callerFor(rec)).map((t) => toolListing(t, deps));
    // What a fresh key of each scope is listed (a key created in the page gets these).
    for (const scope of ['read', 'readwrite'] as const) {
      const fresh = { id: `fresh-${scope}`, name: `fresh-${scope}`, scope, hash: '', created: Date.now(), lastUsed: null } as unknown as Parameters<typeof callerFor>[0];
      tools[`scope:${scope}`] = permittedTools(deps, callerFor(fresh)).map((t) => toolListing(t, deps));
    }
    const keyword = deps.services.keyword as { status(): UiSnapshot['keyword'] } | undefined;
    const semantic = deps.services.semantic as SemanticService | undefined;
    const statuses = indexStatuses(deps);
    const state = plugin.state as UiSnapshot['state'];
    const snapshotBase = {
      settings: JSON.parse(JSON.stringify(plugin.settings)),
      state,
      connectUrl: plugin.connectUrl(),
      dataDir: plugin.dataDir,
      cacheDir: plugin.cacheDir,
      tools,
      statuses,
      keyword: keyword?.status() ?? null,
      semantic: semantic ? { status: semantic.status() as unknown as Record<string, unknown>, paused: semantic.isPaused(), modelFolder: semantic.modelFolder() } : null,
    };
    // Stopping the server flushes the audit log, the usage counters and the keys to the data folder.
    await plugin.unload();
    const dir = join(vault, PLUGIN_DIR);
    const files: Record<string, string> = {};
    for (const f of ['keys.json', 'usage.json', 'audit.jsonl', 'audit-index.json']) if (existsSync(join(dir, f))) files[f] = readFileSync(join(dir, f), 'utf8');
    const existing = [model, ...['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx', 'onnx/model.onnx'].map((f) => join(model, f))].filter((x) => x && existsSync(x));
    return { snapshot: { ...snapshotBase, files, existing, now: Date.now() }, calls };
  } finally {
    await plugin.unload();
  }
}

/** For debugging a render: the snapshot as JSON next to the screenshots. */
export function writeSnapshot(file: string, s: UiSnapshot): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(s, null, 2));
}
