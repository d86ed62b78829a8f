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

function service(ctx: ToolContext): TransferService {
  const t = ctx.deps.services.transfer;
  if (!t) refuse('unavailable', 'Transfer links are not available on this server.');
  return t;
}

const available = (deps: ServerDeps) => !!deps.services.transfer;
const expiresIn = z.number().int().min(MIN_TTL_S).max(MAX_TTL_S).optional().describe(`Seconds the link stays valid, ${MIN_TTL_S}–${MAX_TTL_S} (default ${DEFAULT_TTL_S})`);
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export const requestDownload = defineTool({
  name: 'request_download',
  title: 'Link to download a file',
  family: 'transfer',
  description:
    'Make a link the user opens in a browser on this computer to save one vault file, instead of reading a large file (PDF, image, archive) into the conversation. ' +
    `The link works any number of times until it expires (${MIN_TTL_S}–${MAX_TTL_S} s, default ${DEFAULT_TTL_S}), only while your key is valid, and only for the bytes the file has now: if the file changes, the link stops working. Give the user the url; curl_command does the same from a terminal.`,
  input: z.strictObject({
    path: z.string().describe('Vault-relative path of the file, e.g. "Attachments/report.pdf"'),
    expires_in: expiresIn,
  }),
  output: z.object({
    url: z.string().describe('Open in a browser on this computer'),
    path: z.string().describe('Vault-relative path of the file the link serves'),
    size: z.number().int().describe('File size in bytes at mint time'),
    content_hash: z.string().describe('"sha256:…" of the bytes the link is bound to; the link dies if the file changes'),
    expires_at: z.string().describe('When the link stops working (ISO 8601, UTC)'),
    curl_command: z.string().describe('The same download from a terminal (token in an Authorization header)'),
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
    return {
      structured: { url, path: st.path, size: bytes.length, content_hash: hash, expires_at: isoUtc(expires), curl_command: curl },
      text: `Download link for ${st.path} (${bytes.length} bytes), valid until ${isoUtc(expires)}:\n${url}\nGive this link to the user; it opens a page on this computer with a Save button. From a terminal: ${curl}`,
    };
  },
});

export const requestUpload = defineTool({
  name: 'request_upload',
  title: 'Link to upload a file',
  family: 'transfer',
  description: (deps) =>
    'Make a single-use link the user opens in a browser on this computer to put one file (e.g. a PDF they are looking at) into the vault at exactly `path`, without its bytes passing through the conversation. ' +
    `The file lands through the normal safe write path: never replaces an existing file unless overwrite=true (pass expected_hash to replace only the version you know), at most ${landingCap(deps.settings())} bytes, written atomically and indexed. ` +
    `The link expires after expires_in seconds (${MIN_TTL_S}–${MAX_TTL_S}, default ${DEFAULT_TTL_S}) or when your key is revoked. Poll check_upload(upload_id) to learn when it has arrived.`,
  input: z.strictObject({
    path: z.string().describe('Vault-relative destination path, including the file name and extension, e.g. "Inbox/scan.pdf"'),
    overwrite: z.boolean().default(false).describe('Allow replacing an existing file at path'),
    expected_hash: z.string().optional().describe('With overwrite: content_hash of the file you mean to replace (read_file with hash_only=true)'),
    expires_in: expiresIn,
  }),
  output: z.object({
    url: z.string().describe('Open in a browser on this computer'),
    upload_id: z.string().describe('Pass to check_upload'),
    path: z.string().describe('Vault-relative path the upload will land at'),
    overwrite: z.boolean().describe('Whether the upload may replace an existing file'),
    max_bytes: z.number().int().describe('Largest file the link accepts (setting maxWriteBytes)'),
    expires_at: z.string().describe('When the link stops working (ISO 8601, UTC)'),
    curl_command: z.string().describe('The same upload from a terminal (token in an Authorization header)'),
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
    return {
      structured: { url, upload_id: uploadId, path: dest.path, overwrite: dest.overwrite, max_bytes: max, expires_at: isoUtc(expires), curl_command: curl },
      text: `Upload link for ${dest.path} (single use, at most ${max} bytes, valid until ${isoUtc(expires)}):\n${url}\nGive this link to the user; it opens a page on this computer where they pick the file. From a terminal: ${curl}\nThen call check_upload(upload_id="${uploadId}").`,
    };
  },
});

export const checkUpload = defineTool({
  name: 'check_upload',
  title: 'Check an upload link',
  family: 'transfer',
  description:
    'State of an upload link from request_upload: pending (not used yet; last_error says why an attempt failed), uploading, completed (with path, size, sha256 and MIME type), expired, revoked, or unknown (no such upload for your key). Only the key that made the link can see it.',
  input: z.strictObject({ upload_id: z.string().max(100).describe('upload_id returned by request_upload') }),
  output: z.object({
    upload_id: z.string().describe('The id asked about'),
    status: z.enum(['pending', 'uploading', 'completed', 'unknown', 'revoked', 'expired']).describe('"unknown" also for another key\'s id'),
    path: z.string().optional().describe('Vault-relative destination'),
    size: z.number().int().optional().describe('status "completed": bytes written'),
    sha256: z.string().optional().describe('status "completed": SHA-256 of the file, hex'),
    content_hash: z.string().optional().describe('status "completed": "sha256:…", as expected_hash takes it'),
    mime: z.string().optional().describe('status "completed": MIME type (the uploader\'s, else from the extension)'),
    created: z.boolean().optional().describe('True when the upload created the file, false when it replaced one'),
    expires_at: z.string().optional().describe('When a pending link stops working (ISO 8601, UTC)'),
    completed_at: z.string().optional().describe('status "completed": when the file landed (ISO 8601, UTC)'),
    last_error: z.string().optional().describe('Why the last attempt was refused (the link stays pending)'),
  }),
  annotations: READ_ONLY,
  available,
  async handler(args, ctx) {
    const s = service(ctx).store.status(args.upload_id, ctx.caller.keyId);
    const id = args.upload_id;
    if (s.status === 'completed') {
      const out = { upload_id: id, status: s.status, path: s.path, size: s.size, sha256: s.sha256, content_hash: `sha256:${s.sha256}`, mime: s.mime, created: s.created, completed_at: isoUtc(s.completed_at) };
      return { structured: out, text: `completed: ${s.path}, ${s.size} bytes, ${s.mime}, sha256 ${s.sha256}` };
    }
    if (s.status === 'pending' || s.status === 'uploading') {
      const out = { upload_id: id, status: s.status, path: s.path, expires_at: isoUtc(s.expires_at), ...(s.last_error ? { last_error: s.last_error } : {}) };
      return { structured: out, text: `${s.status}: ${s.path}, link valid until ${out.expires_at}${s.last_error ? `; last attempt failed: ${s.last_error}` : ''}` };
    }
    return { structured: { upload_id: id, status: s.status }, text: s.status === 'unknown' ? 'unknown: no upload with this id for your key.' : `${s.status}: the link can no longer be used; make a new one with request_upload.` };
  },
});

export const transferTools = [requestDownload, requestUpload, checkUpload];
