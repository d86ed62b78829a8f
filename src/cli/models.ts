// `models pull [ID]` and `models list`: the headless way to get an embedding model. The download is the
// settings tab's own (src/semantic/download.ts: resumable .part files, size and sha256 checks), into
// one models folder shared by every vault on this machine; the model pulled last is the default that
// `serve` uses when no --embedding-model flag and no plugin setting names one.
import { parseArgs } from 'node:util';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_MODELS, QUERY_PREFIX_HINT, downloadModel, type DownloadProgress } from '../semantic/download.js';
import { nodeHttpGet } from '../semantic/httpGet.js';
import { modelProblem, resolveModelFolder } from '../semantic/modelFolder.js';
import { cacheBase } from '../host/cacheDir.js';

/** The shared models folder: <Obsidian's data folder or the OS cache>/vault-mcp-server/models. */
export function defaultModelsDir(): string {
  return join(cacheBase(), 'vault-mcp-server', 'models');
}

const DEFAULT_FILE = 'default.json';

export interface PulledDefault { model: string; folder: string; queryPrefix: string }

/** The model `models pull` made the default, when its folder is complete; null otherwise. */
export function pulledDefault(modelsDir: string): PulledDefault | null {
  try {
    const d = JSON.parse(readFileSync(join(modelsDir, DEFAULT_FILE), 'utf8')) as { model?: unknown; queryPrefix?: unknown };
    if (typeof d.model !== 'string') return null;
    const folder = resolveModelFolder(d.model, modelsDir);
    if (modelProblem(folder)) return null;
    return { model: d.model, folder, queryPrefix: typeof d.queryPrefix === 'string' ? d.queryPrefix : '' };
  } catch { return null; }
}

const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;

/**
 * The download's progress: on a terminal one bar redrawn in place (a line kept per finished file);
 * elsewhere (logs, CI) a line at each quarter of a large file and one per finished file.
 */
export function progressPrinter(out: { write(s: string): unknown; isTTY?: boolean }): (p: DownloadProgress) => void {
  let lastDone = -1;
  let lastDraw = 0;
  let quarter = 0;
  const bar = (pct: number) => { const fill = Math.round((pct / 100) * 24); return `[${'#'.repeat(fill)}${'-'.repeat(24 - fill)}] ${String(pct).padStart(3)}%`; };
  return (p) => {
    const finished = p.done > lastDone && lastDone >= 0 && p.done > 0 && (p.total === null || p.received >= p.total);
    if (p.done !== lastDone) { lastDone = p.done; quarter = 0; }
    const pct = finished ? 100 : p.total ? Math.min(99, Math.floor((p.received / p.total) * 100)) : 0;
    const label = `file ${finished ? p.done : p.done + 1}/${p.files} ${p.file} ${mb(p.received)}${p.total && !finished ? ` of ${mb(p.total)}` : ''}`;
    if (out.isTTY) {
      const now = Date.now();
      if (!finished && now - lastDraw < 100) return;
      lastDraw = now;
      out.write(`\r${bar(pct)} ${label}\u001b[K${finished ? '\n' : ''}`);
    } else if (finished) {
      out.write(`${bar(100)} ${label}\n`);
    } else if (p.total && p.total > 4 * 1048576 && Math.floor(pct / 25) > quarter) {
      quarter = Math.floor(pct / 25);
      out.write(`${bar(quarter * 25)} ${label}\n`);
    }
  };
}

function fail(msg: string): never {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(2);
}

const USAGE = `  node dist/cli.js models pull [ID] [--models-dir DIR] [--base-url URL] [--keep-default]
  node dist/cli.js models list [--models-dir DIR]
ID defaults to ${DEFAULT_MODELS[0]} (also suggested: ${DEFAULT_MODELS.slice(1).join(', ')}); any transformers.js model id
with an onnx/ folder works. The models folder defaults to ${defaultModelsDir()}.`;

async function pull(id: string, modelsDir: string, baseUrl: string | undefined, keepDefault: boolean): Promise<void> {
  process.stderr.write(`Pulling ${id} into ${modelsDir} from ${baseUrl ?? 'https://huggingface.co'} (about 25–35 MB for the suggested models; nothing from your vaults is sent)\n`);
  const folder = await downloadModel({ id, modelsDir, baseUrl, get: nodeHttpGet, onProgress: progressPrinter(process.stderr) });
  const problem = modelProblem(folder);
  if (problem) fail(`${id} downloaded, but ${problem}`);
  const prior = pulledDefault(modelsDir);
  if (!keepDefault || !prior) {
    const tmp = join(modelsDir, `${DEFAULT_FILE}.${process.pid}.tmp`);
    await fs.writeFile(tmp, JSON.stringify({ model: id, queryPrefix: QUERY_PREFIX_HINT[id] ?? '' }, null, 2) + '\n');
    await fs.rename(tmp, join(modelsDir, DEFAULT_FILE));
  }
  const isDefault = !keepDefault || !prior;
  process.stdout.write(`Pulled ${id} (${mb(folderSize(folder))}) into ${folder}${isDefault ? '\nIt is the default model now: `node dist/cli.js serve --vault DIR` uses it for semantic search (unless --embedding-model or the plugin\'s setting names another).' : ''}\n`);
}

function folderSize(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? folderSize(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

/** Model ids under the models folder (owner/name folders), complete or not. */
function listModels(modelsDir: string): { id: string; folder: string; problem: string | null; bytes: number; partial: boolean }[] {
  if (!existsSync(modelsDir)) return [];
  const out = [];
  for (const owner of readdirSync(modelsDir, { withFileTypes: true })) {
    if (!owner.isDirectory()) continue;
    for (const name of readdirSync(join(modelsDir, owner.name), { withFileTypes: true })) {
      if (!name.isDirectory()) continue;
      const folder = join(modelsDir, owner.name, name.name);
      const files: string[] = [];
      const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true })) { if (e.isDirectory()) walk(join(d, e.name)); else files.push(e.name); } };
      walk(folder);
      out.push({ id: `${owner.name}/${name.name}`, folder, problem: modelProblem(folder), bytes: folderSize(folder), partial: files.some((f) => f.endsWith('.part')) });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : 1));
}

export async function modelsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const options = { 'models-dir': { type: 'string' as const }, 'base-url': { type: 'string' as const }, 'keep-default': { type: 'boolean' as const } };
    parsed = parseArgs({ args: rest, strict: true, allowPositionals: true, options });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${USAGE}`);
  }
  const modelsDir = parsed.values['models-dir'] ? resolve(String(parsed.values['models-dir'])) : defaultModelsDir();
  if (sub === 'pull') {
    if (parsed.positionals.length > 1) fail(`models pull takes one model id, got ${parsed.positionals.length}.\n\n${USAGE}`);
    const id = parsed.positionals[0] ?? DEFAULT_MODELS[0];
    try {
      await pull(id, modelsDir, parsed.values['base-url'] as string | undefined, !!parsed.values['keep-default']);
    } catch (e) {
      fail(`could not pull ${id}: ${(e as Error).message}`);
    }
  } else if (sub === 'list') {
    const rows = listModels(modelsDir);
    const def = pulledDefault(modelsDir);
    if (!rows.length) { process.stdout.write(`No models in ${modelsDir}. Pull one with: node dist/cli.js models pull\n`); return; }
    process.stdout.write(`Models in ${modelsDir}:\n`);
    for (const r of rows) {
      const state = r.problem ? (r.partial ? `incomplete (run models pull ${r.id} to resume)` : `unusable: ${r.problem}`) : 'ready';
      process.stdout.write(`  ${r.id}  ${mb(r.bytes)}  ${state}${def?.model === r.id ? '  (default)' : ''}\n`);
    }
  } else fail(`unknown models command "${sub ?? ''}"; use pull or list.\n\n${USAGE}`);
}
