// The headless chat transport: node's http(s) client, abortable through the request's signal. A
// redirect is not followed (the client reports the 3xx status), as an API endpoint never redirects.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Transport } from './transport.js';

export const nodeTransport: Transport = (req) => new Promise((resolve, reject) => {
  const u = new URL(req.url);
  const send = u.protocol === 'https:' ? httpsRequest : u.protocol === 'http:' ? httpRequest : null;
  if (!send) { reject(new Error(`${u.protocol} is not http(s)`)); return; }
  const r = send(u, { method: req.method, headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) }, signal: req.signal }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    res.on('error', reject);
  });
  r.on('error', reject);
  r.end(req.body);
});
