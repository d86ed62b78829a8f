// The /transfer routes on the same local server (mounted through createHttpApp's extraRoutes, so the
// plugin and the CLI both serve them): the page, its script and style, and the three token calls.
// A token is accepted only from an `Authorization: Bearer` header, never from the URL, so it appears
// in no request line and no log. Every bad token (unknown, expired, used, revoked, key gone, file
// changed) gets the same 404. The minting key must still be live and still allowed the path.
import type express from 'express';
import type { Request, Response } from 'express';
import type { ServerDeps } from '../mcp/tool.js';
import type { KeyRecord } from '../core/keys.js';
import { Refusal } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import { basename } from '../core/paths.js';
import { visibleIn } from '../services/scopedVault.js';
import { mimeOf } from '../core/mime.js';
import { bearerToken } from '../http/guards.js';
import type { TransferStore, Link, UploadLink } from './tokens.js';

export type { TransferService } from './tokens.js';
import { PAGE_CSS, PAGE_HTML, PAGE_JS, TRANSFER_CSP } from './pages.js';
import { land, landingCap } from './landing.js';


const GONE = { error: 'not found', hint: 'This transfer link is unknown, expired, already used or revoked; ask the agent for a new one.' };

function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', TRANSFER_CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

function gone(res: Response): void {
  res.status(404).json(GONE);
}

const MIME = /^[A-Za-z0-9][\w.+-]{0,63}\/[A-Za-z0-9][\w.+-]{0,127}$/;

export function mountTransferRoutes(app: express.Express, deps: ServerDeps, store: TransferStore): void {
  const keys = () => deps.services.keys;

  /** The link a request's token opens, with the minting key's live record, or null (then answered 404). */
  const resolve = async (req: Request, kind: Link['kind'] | null): Promise<{ link: Link; rec: KeyRecord } | null> => {
    const link = store.redeem(bearerToken(req));
    if (!link || (kind && link.kind !== kind)) return null;
    const ks = keys();
    if (!ks) return null;
    await ks.refresh().catch(() => undefined); // a revocation made a moment ago (CLI or settings tab) counts now
    store.sweep((id) => ks.isLive(id));
    const rec = ks.list().find((k) => k.id === link.keyId);
    if (!rec || !ks.isLive(rec.id) || link.revoked) return null;
    // The key's current restrictions still have to allow the link.
    if (!visibleIn(deps.host, rec.root ?? '', link.path) || (rec.disabledFamilies ?? []).includes('transfer')) return null;
    if (link.kind === 'upload' && (rec.scope !== 'readwrite' || deps.settings().readOnly)) return null;
    if (link.kind === 'download') {
      const st = deps.host.stat(link.path);
      if (!st) return null;
    }
    return { link, rec };
  };

  const safe = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response) => {
    secure(res);
    fn(req, res).catch(() => { if (!res.headersSent) res.status(500).json({ error: 'internal error' }); });
  };

  app.get('/transfer', (_req, res) => { secure(res); res.type('html').send(PAGE_HTML); });
  app.get('/transfer/app.js', (_req, res) => { secure(res); res.type('application/javascript').send(PAGE_JS); });
  app.get('/transfer/app.css', (_req, res) => { secure(res); res.type('text/css').send(PAGE_CSS); });

  app.get('/transfer/info', safe(async (req, res) => {
    const hit = await resolve(req, null);
    if (!hit) return gone(res);
    const { link } = hit;
    if (link.kind === 'download') res.json({ kind: 'download', path: link.path, name: basename(link.path), size: link.size, expires_at: link.expires });
    else res.json({ kind: 'upload', path: link.path, name: basename(link.path), overwrite: link.overwrite, max_bytes: landingCap(deps.settings()), expires_at: link.expires });
  }));

  app.get('/transfer/download', safe(async (req, res) => {
    const hit = await resolve(req, 'download');
    if (!hit || hit.link.kind !== 'download') return gone(res);
    const link = hit.link;
    const bytes = await deps.host.readBytes(link.path).catch(() => null);
    // Bound to the bytes at mint time: a changed file ends the link instead of serving other content.
    if (!bytes || contentHash(bytes) !== link.contentHash) { link.revoked = true; return gone(res); }
    const name = basename(link.path);
    res.setHeader('Content-Type', 'application/octet-stream');
    res.setHeader('Content-Disposition', `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    res.setHeader('Content-Length', String(bytes.length));
    res.setHeader('X-Content-Hash', link.contentHash);
    res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  }));

  app.put('/transfer/upload', safe(async (req, res) => {
    const hit = await resolve(req, 'upload');
    if (!hit || hit.link.kind !== 'upload') return gone(res);
    const link: UploadLink = hit.link;
    const cap = landingCap(deps.settings());
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > cap) {
      store.fail(link, `file of ${declared} bytes is over the ${cap}-byte limit`);
      res.setHeader('Connection', 'close');
      res.status(413).json({ error: `The file is ${declared} bytes, over the ${cap}-byte limit (setting maxWriteBytes, CLI --max-write).` });
      req.resume();
      return;
    }
    store.begin(link);
    const chunks: Buffer[] = [];
    let n = 0;
    let over = false;
    try {
      for await (const c of req as AsyncIterable<Buffer>) {
        n += c.length;
        if (n > cap) { over = true; break; }
        chunks.push(c);
      }
    } catch {
      store.fail(link, 'the upload was interrupted');
      return;
    }
    if (over) {
      store.fail(link, `file over the ${cap}-byte limit`);
      res.setHeader('Connection', 'close');
      res.status(413).json({ error: `The file is over the ${cap}-byte limit (setting maxWriteBytes, CLI --max-write).` });
      req.destroy();
      return;
    }
    const bytes = new Uint8Array(Buffer.concat(chunks));
    try {
      const r = await land(deps, link.keyName, { path: link.path, overwrite: link.overwrite, ...(link.expectedHash ? { expectedHash: link.expectedHash } : {}) }, bytes);
      const ct = String(req.headers['content-type'] ?? '').split(';')[0].trim();
      const mime = MIME.test(ct) && ct !== 'application/octet-stream' ? ct.toLowerCase() : mimeOf(link.path);
      const result = { path: link.path, size: r.size, sha256: r.content_hash.slice('sha256:'.length), mime, created: r.created };
      store.complete(link, result);
      res.status(r.created ? 201 : 200).json({ ...result, content_hash: r.content_hash });
    } catch (e) {
      const code = e instanceof Refusal ? e.code : 'internal_error';
      const msg = e instanceof Refusal ? e.message : 'The file could not be written.';
      store.fail(link, msg);
      const status = code === 'already_exists' || code === 'stale_precondition' || code === 'concurrent_write' ? 409
        : code === 'payload_too_large' ? 413 : code === 'internal_error' ? 500 : 400;
      res.status(status).json({ error: msg, code });
    }
  }));

  app.all(/^\/transfer(\/.*)?$/, (_req, res) => { secure(res); res.status(405).setHeader('Allow', 'GET, PUT'); res.json({ error: 'method not allowed' }); });
}
