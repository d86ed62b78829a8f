// The ONE place a model reaches the disk over the network, on the user's explicit action (settings
// tab "Download", or a CLI command). Files go to <models>/<id>/ in the transformers.js layout,
// each as <file>.part first: an interrupted download resumes with an HTTP Range request, every file is
// checked against the size the server announced and, for LFS files, the sha256 in its ETag, and only
// then renamed into place. transformers.js itself never fetches (env.allowRemoteModels stays false).
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import type { GetResponse, HttpGet } from './httpGet.js';

export const DEFAULT_MODELS = ['Xenova/all-MiniLM-L6-v2', 'Xenova/bge-small-en-v1.5'] as const;
export const QUERY_PREFIX_HINT: Record<string, string> = {
  'Xenova/bge-small-en-v1.5': 'Represent this sentence for searching relevant passages: ',
};

const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'];
const OPTIONAL = ['special_tokens_map.json', 'vocab.txt'];

export interface DownloadProgress { file: string; received: number; total: number | null; done: number; files: number }

export interface DownloadOptions {
  id: string;
  modelsDir: string;
  baseUrl?: string;
  /** How files are fetched: nodeHttpGet (httpGet.ts) headless, the app's requestUrl in the plugin. */
  get: HttpGet;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}

export class DownloadError extends Error {}

function checkId(id: string): void {
  if (!/^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/.test(id) || id.includes('..')) throw new DownloadError(`"${id}" is not a model id like "Xenova/all-MiniLM-L6-v2"`);
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Downloads (or resumes) a model; returns its folder. */
export async function downloadModel(o: DownloadOptions): Promise<string> {
  checkId(o.id);
  const get = o.get;
  const base = (o.baseUrl ?? 'https://huggingface.co').replace(/\/$/, '');
  const folder = join(o.modelsDir, ...o.id.split('/'));
  const files = [...REQUIRED, ...OPTIONAL];
  let done = 0;
  for (const file of files) {
    const dest = join(folder, file);
    if (existsSync(dest)) { done++; continue; }
    const part = `${dest}.part`;
    await fs.mkdir(dirname(dest), { recursive: true });
    const have = existsSync(part) ? (await fs.stat(part)).size : 0;
    let res: GetResponse;
    try {
      res = await get(`${base}/${o.id}/resolve/main/${file}`, have ? { Range: `bytes=${have}-` } : {}, o.signal);
    } catch (e) {
      throw new DownloadError(`could not reach ${new URL(base).host} (${(e as Error).message}); check the internet connection and try again; the download resumes where it stopped`);
    }
    if (res.status === 404 && OPTIONAL.includes(file)) { done++; continue; }
    if (res.status === 404) throw new DownloadError(`${o.id} has no ${file}: is it a transformers.js model (with an onnx/ folder)?`);
    if (res.status === 416) { await fs.rm(part, { force: true }); throw new DownloadError(`the partial ${file} did not match the server's; retry to start it over`); }
    if (res.status < 200 || res.status > 299) throw new DownloadError(`downloading ${file} failed: HTTP ${res.status}`);
    const append = have > 0 && res.status === 206;
    const len = Number(res.header('content-length') ?? NaN);
    const total = Number.isFinite(len) ? len + (append ? have : 0) : null;
    const fh = await fs.open(part, append ? 'a' : 'w');
    let received = append ? have : 0;
    try {
      for await (const chunk of res.body) {
        await fh.write(chunk);
        received += chunk.length;
        o.onProgress?.({ file, received, total, done, files: files.length });
      }
    } finally { await fh.close(); }
    if (total !== null && received !== total) throw new DownloadError(`${file} is incomplete (${received} of ${total} bytes); retry to resume`);
    const etag = (res.header('x-linked-etag') ?? res.header('etag') ?? '').replace(/^W\//, '').replace(/"/g, '');
    if (/^[0-9a-f]{64}$/.test(etag) && (await sha256File(part)) !== etag) {
      await fs.rm(part, { force: true });
      throw new DownloadError(`${file} failed its sha256 check and was deleted; retry the download`);
    }
    await fs.rename(part, dest);
    done++;
    o.onProgress?.({ file, received, total, done, files: files.length });
  }
  return folder;
}
