// Transfer links: request_download, request_upload, check_upload. Files move between the vault and a
// person by reference, through a link the person opens in a browser on this computer (the token is in
// the URL fragment; see src/transfer/).
import { z } from 'zod';
import { defineTool, READ_ONLY, type ServerDeps, type ToolContext } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { basename } from '../../core/paths.js';
import { isoUtc } from '../../core/time.js';
import { MAX_TTL_S, MIN_TTL_S, DEFAULT_TTL_S } from '../../transfer/tokens.js';
import type { TransferService } from '../../transfer/routes.js';
import { checkDestination, landingCap } from '../../transfer/landing.js';
import { answer, hintOut } from './results.js';

function service(ctx: ToolContext): TransferService {
  const t = ctx.deps.services.transfer;
  if (!t) refuse('unavailable', 'Transfer links are not available on this server.');
  return t;
}

const available = (deps: ServerDeps) => !!deps.services.transfer;
const expiresIn = z.number().int().min(MIN_TTL_S).max(MAX_TTL_S).optional().describe(`Seconds valid (default ${DEFAULT_TTL_S})`);
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const requestDownload = defineTool({
  name: 'request_download',
  title: 'Link to download a file',
  family: 'transfer',
  description:
    'A link the user opens here to save a vault file, instead of reading a big file into the conversation; valid until it expires, while the file is unchanged.',
  input: z.strictObject({
    path: z.string().describe('File path'),
    expires_in: expiresIn,
  }),
  output: z.object({
    url: z.string().describe('Give to the user'),
    path: z.string().describe('File'),
    size: z.number().int().describe('Bytes'),
    content_hash: z.string().describe('Bytes it serves'),
    expires_at: z.string().describe('UTC'),
    curl_command: z.string().describe('Same, from a terminal'),
    hint: hintOut,
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  available,
  async handler(args, ctx) {
    const t = service(ctx);
    const st = ctx.vault.requireFile(args.path);
    const bytes = await ctx.deps.host.readBytes(st.path);
    const hash = contentHash(bytes);
    const { token, expires } = t.store.mintDownload({ keyId: ctx.caller.keyId, keyName: ctx.caller.keyName, path: st.path, contentHash: hash, size: bytes.length, ttlS: args.expires_in });
    const page = t.pageUrl();
    const url = `${page}#t=${token}`;
    const curl = `curl -fo ${quote(basename(st.path))} -H ${quote(`Authorization: Bearer ${token}`)} ${page}/download`;
    return answer(
      { url, path: st.path, size: bytes.length, content_hash: hash, expires_at: isoUtc(expires), curl_command: curl },
      `Download link for ${st.path} (${bytes.length} bytes), valid until ${isoUtc(expires)}:\n${url}\nFrom a terminal: ${curl}`,
      ['Give url to the user: it opens a page on this computer with a Save button.'],
    );
  },
});

export const requestUpload = defineTool({
  name: 'request_upload',
  title: 'Link to upload a file',
  family: 'transfer',
  description: (deps) =>
    'A single-use link the user opens here to put one file into the vault at path, not through the conversation; ' +
    `replaces only with overwrite=true; at most ${landingCap(deps.settings())} bytes. Then check_upload.`,
  input: z.strictObject({
    path: z.string().describe('Destination, e.g. "Inbox/scan.pdf"'),
    overwrite: z.boolean().default(false).describe('May replace a file'),
    expected_hash: z.string().optional().describe('Hash of the file it replaces'),
    expires_in: expiresIn,
  }),
  output: z.object({
    url: z.string().describe('Give to the user'),
    upload_id: z.string().describe('For check_upload'),
    path: z.string().describe('Destination'),
    max_bytes: z.number().int().describe('Largest file'),
    expires_at: z.string().describe('UTC'),
    curl_command: z.string().describe('Same, from a terminal'),
    hint: hintOut,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  available,
  async handler(args, ctx) {
    const t = service(ctx);
    const dest = checkDestination(ctx.deps, ctx.vault, args.path, args.overwrite, args.expected_hash);
    const { token, uploadId, expires } = t.store.mintUpload({ keyId: ctx.caller.keyId, keyName: ctx.caller.keyName, path: dest.path, overwrite: dest.overwrite, expectedHash: dest.expectedHash, ttlS: args.expires_in });
    const page = t.pageUrl();
    const url = `${page}#t=${token}`;
    const max = landingCap(ctx.deps.settings());
    const curl = `curl -f -T FILE -H ${quote(`Authorization: Bearer ${token}`)} ${page}/upload`;
    return answer(
      { url, upload_id: uploadId, path: dest.path, max_bytes: max, expires_at: isoUtc(expires), curl_command: curl },
      `Upload link for ${dest.path} (single use, at most ${max} bytes, valid until ${isoUtc(expires)}):\n${url}\nFrom a terminal: ${curl}`,
      [`Give url to the user: it opens a page on this computer where they pick the file. Then call check_upload(upload_id="${uploadId}") to see it land.`],
    );
  },
});

export const checkUpload = defineTool({
  name: 'check_upload',
  title: 'Check an upload link',
  family: 'transfer',
  description:
    'State of an upload link: pending (last_error after a failed try), uploading, completed (path, size, hash, MIME), expired, revoked or unknown.',
  input: z.strictObject({ upload_id: z.string().max(100).describe('From request_upload') }),
  output: z.object({
    status: z.enum(['pending', 'uploading', 'completed', 'unknown', 'revoked', 'expired']).describe('State'),
    path: z.string().optional().describe('Destination'),
    size: z.number().int().optional().describe('Bytes'),
    content_hash: z.string().optional().describe('sha256'),
    mime: z.string().optional().describe('MIME type'),
    created: z.boolean().optional().describe('False: replaced a file'),
    expires_at: z.string().optional().describe('UTC'),
    last_error: z.string().optional().describe('Why a try failed'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  available,
  async handler(args, ctx) {
    const s = service(ctx).store.status(args.upload_id, ctx.caller.keyId);
    if (s.status === 'completed') {
      const out = { status: s.status, path: s.path, size: s.size, content_hash: `sha256:${s.sha256}`, mime: s.mime, created: s.created };
      return { structured: out, text: `completed: ${s.path}, ${s.size} bytes, ${s.mime}, sha256 ${s.sha256}` };
    }
    if (s.status === 'pending' || s.status === 'uploading') {
      const out = { status: s.status, path: s.path, expires_at: isoUtc(s.expires_at), ...(s.last_error ? { last_error: s.last_error } : {}) };
      return { structured: out, text: `${s.status}: ${s.path}, link valid until ${out.expires_at}${s.last_error ? `; last attempt failed: ${s.last_error}` : ''}` };
    }
    return answer({ status: s.status }, s.status === 'unknown' ? 'unknown: no upload with this id for your key.' : `${s.status}: the link can no longer be used.`, [s.status !== 'unknown' && 'Make a new link with request_upload.']);
  },
});

export const transferTools = [requestDownload, requestUpload, checkUpload];
