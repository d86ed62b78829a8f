// `models pull` / `models list` and `serve` using the pulled model, as a user runs them: the built CLI,
// a local HTTP mirror serving the GloVe fixture model in the Hugging Face layout (sha256 in the ETag,
// as the hub sends it for LFS files), then semantic search over MCP with progress notifications.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../helpers/paths.js';
import { copyVault, tempDir } from '../helpers/vault.js';
import { startCli, connect, call } from '../helpers/server.js';
import { GLOVE, missing } from '../semantic/helpers.js';

const skip = missing(GLOVE);
const KEY = 'vmcp_models_test_key_0123456789abcdefghijklm';
let mirror: Server;
let base = '';
const served: string[] = [];
/** Files whose ETag is made wrong on purpose (a corrupted transfer). */
const corrupt = new Set<string>();

before(async () => {
  if (skip) return;
  mirror = createServer((req, res) => {
    const m = /^\/([^/]+)\/([^/]+)\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m && join(GLOVE, m[3]);
    if (!m || !file || !existsSync(file)) { res.writeHead(404).end('Entry not found'); return; }
    served.push(`${m[1]}/${m[2]}/${m[3]}`);
    const body = readFileSync(file);
    const sha = createHash('sha256').update(corrupt.has(`${m[1]}/${m[2]}`) ? Buffer.from('other bytes') : body).digest('hex');
    res.writeHead(200, { 'content-length': body.length, 'x-linked-etag': `"${sha}"` }).end(body);
  });
  await new Promise<void>((r) => mirror.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(mirror.address() as { port: number }).port}`;
});
after(() => { mirror?.close(); });

/** The CLI as a child process (asynchronously: the mirror answers from this process). */
function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'models', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('models pull: the settings tab\'s download and checksum code, a progress line per file, then the default', { skip }, async () => {
  const modelsDir = tempDir('vmcp-models-');
  const r = await cli(['pull', 'fixtures/glove', '--base-url', base, '--models-dir', modelsDir]);
  assert.equal(r.status, 0, r.stderr);
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx', 'vocab.txt']) {
    assert.deepEqual(readFileSync(join(modelsDir, 'fixtures/glove', f)), readFileSync(join(GLOVE, f)), f);
    assert.match(r.stderr, new RegExp(`\\[#{24}\\] 100% file \\d/6 ${f.replace('.', '\\.')}`), r.stderr);
  }
  assert.match(r.stdout, /Pulled fixtures\/glove .*\nIt is the default model now/s);
  assert.deepEqual(JSON.parse(readFileSync(join(modelsDir, 'default.json'), 'utf8')), { model: 'fixtures/glove', queryPrefix: '' });

  // A second pull of a complete model fetches nothing.
  served.length = 0;
  assert.equal((await cli(['pull', 'fixtures/glove', '--base-url', base, '--models-dir', modelsDir])).status, 0);
  assert.deepEqual(served.filter((f) => !f.endsWith('special_tokens_map.json')), []);

  // A file that fails its sha256 check is deleted, the pull fails saying so, the default stays.
  corrupt.add('fixtures/bad');
  const bad = await cli(['pull', 'fixtures/bad', '--base-url', base, '--models-dir', modelsDir]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /could not pull fixtures\/bad: config\.json failed its sha256 check and was deleted; retry the download/);
  assert.deepEqual(readdirSync(join(modelsDir, 'fixtures/bad')), []);
  assert.equal(JSON.parse(readFileSync(join(modelsDir, 'default.json'), 'utf8')).model, 'fixtures/glove');
  const unreachable = await cli(['pull', 'fixtures/glove2', '--base-url', 'http://127.0.0.1:9', '--models-dir', modelsDir]);
  assert.match(unreachable.stderr, /could not reach 127\.0\.0\.1:9 .*resumes where it stopped/);

  const list = await cli(['list', '--models-dir', modelsDir]);
  assert.equal(list.status, 0);
  assert.match(list.stdout, /fixtures\/glove {2}\d+\.\d MB {2}ready {2}\(default\)/);
  assert.match(list.stdout, /fixtures\/bad .*unusable/);
  assert.match((await cli(['list', '--models-dir', tempDir('vmcp-nomodels-')])).stdout, /No models in .*models pull/);
  assert.match((await cli(['pull', 'a/b', 'c/d'])).stderr, /takes one model id/);
});

test('serve uses the pulled default model: semantic search headless, build_embeddings with progress', { skip }, async () => {
  const modelsDir = tempDir('vmcp-models-');
  assert.equal((await cli(['pull', 'fixtures/glove', '--base-url', base, '--models-dir', modelsDir])).status, 0);
  const vault = copyVault();
  const server = await startCli(vault, { env: { VAULT_MCP_TOKEN: KEY }, args: ['--models-dir', modelsDir, '--cache-dir', tempDir('vmcp-cache-')] });
  try {
    assert.match(server.output(), /semantic search: fixtures\/glove \(pulled with `models pull`/);
    const c = await connect(server.url, KEY);
    const seen: Progress[] = [];
    const built = await c.callTool({ name: 'build_embeddings', arguments: {} }, undefined, { onprogress: (p) => seen.push(p) });
    assert.ok(!built.isError, JSON.stringify(built));
    assert.equal((built.structuredContent as { status: string }).status, 'done');
    assert.equal(seen[0].progress, 0);
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress);
    const status = (await call(c, 'stats')).structuredContent!.semantic;
    assert.match(String(status.model), /fixtures[/\\]glove \(/);
    assert.ok(status.embedded > 0);
    const hits = await call(c, 'semantic_search', { query: 'flowers and vegetables in the garden' });
    assert.ok(!hits.isError, JSON.stringify(hits));
    assert.ok(JSON.stringify(hits.structuredContent).includes('Garden Redesign'), JSON.stringify(hits.structuredContent).slice(0, 400));
    await c.close();
  } finally { await server.stop(); }

  // Without a pulled model (an empty models folder), serve says semantic search is off and how to get it.
  const off = await startCli(copyVault(), { env: { VAULT_MCP_TOKEN: KEY }, args: ['--models-dir', tempDir('vmcp-nomodels-')] });
  try {
    assert.match(off.output(), /semantic search: off, no embedding model \(`node dist\/cli\.js models pull` downloads one/);
  } finally { await off.stop(); }
});
