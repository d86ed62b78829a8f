// Model download against a local HTTP server (never the internet): resume with Range, sha256 check,
// a clear message when the host is unreachable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { downloadModel, DownloadError } from '../../src/semantic/download.js';
import { nodeHttpGet as get } from '../../src/semantic/httpGet.js';
import { modelProblem } from '../../src/semantic/embedder.js';
import { tempDir } from '../helpers/vault.js';
import { TINY, missing } from './helpers.js';

test('download, resume and verify a model from a local mirror', { skip: missing(TINY) }, async () => {
  const ranges: string[] = [];
  const server = createServer((req, res) => {
    const m = /^\/org\/tiny\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m && join(TINY, m[1]);
    if (!file || !existsSync(file)) { res.writeHead(404).end(); return; }
    const body = readFileSync(file);
    const etag = createHash('sha256').update(body).digest('hex');
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
    if (range) { ranges.push(m![1]); const from = Number(range[1]); res.writeHead(206, { 'content-length': body.length - from, 'x-linked-etag': `"${etag}"` }).end(body.subarray(from)); return; }
    res.writeHead(200, { 'content-length': body.length, 'x-linked-etag': `"${etag}"` }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const modelsDir = tempDir('vmcp-models-');
    // A half-finished earlier download of the model file.
    mkdirSync(join(modelsDir, 'org/tiny/onnx'), { recursive: true });
    writeFileSync(join(modelsDir, 'org/tiny/onnx/model_quantized.onnx.part'), readFileSync(join(TINY, 'onnx/model_quantized.onnx')).subarray(0, 5000));
    const seen: string[] = [];
    const folder = await downloadModel({ id: 'org/tiny', modelsDir, get, baseUrl: base, onProgress: (p) => seen.push(p.file) });
    assert.equal(modelProblem(folder), null);
    assert.deepEqual(ranges, ['onnx/model_quantized.onnx']);
    assert.deepEqual(readFileSync(join(folder, 'onnx/model_quantized.onnx')), readFileSync(join(TINY, 'onnx/model_quantized.onnx')));
    assert.ok(seen.includes('tokenizer.json'));
    await assert.rejects(downloadModel({ id: '../etc', modelsDir, get, baseUrl: base }), DownloadError);
  } finally { server.close(); }
  await assert.rejects(downloadModel({ id: 'org/tiny', modelsDir: tempDir('vmcp-models-'), get, baseUrl: 'http://127.0.0.1:1' }), /could not reach 127\.0\.0\.1:1.*resumes/);
});
