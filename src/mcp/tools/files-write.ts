// Non-markdown files: write_file and delete_file (attachments, canvases, JSON, images…). Notes go
// through the note tools, which know about frontmatter, sections and links.
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { normalizeFilePath, isNotePath, dirname } from '../../core/paths.js';
import { checkHashArg, requireHash, checkFresh, checkSize, guarded } from '../../services/writeSupport.js';
import { asCaller, conventionsEcho, conventionsOut, deleteAny, deleteOut } from './write-shared.js';
import { pathOut } from './results.js';

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write a file',
  family: 'write',
  description: (deps) =>
    `Write a non-markdown file from base64 or text (≤ ${deps.settings().maxWriteBytes} bytes); replaces one only with overwrite=true. Notes: create_note.`,
  input: z.strictObject({
    path: z.string().describe('File path'),
    content: z.string().describe('Base64 or text'),
    encoding: z.enum(['base64', 'text']).default('base64').describe('Encoding'),
    overwrite: z.boolean().default(false).describe('May replace'),
    expected_hash: z.string().optional().describe('Hash of the file replaced'),
  }),
  output: z.object({ path: pathOut, created: z.boolean().describe('False: replaced'), size: z.number().int().describe('Bytes'), content_hash: z.string().describe('sha256'), conventions: conventionsOut }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    const path = normalizeFilePath(args.path);
    if (!ctx.vault.visible(path)) refuse('permission_denied', `"${path}" is outside the folder this key may write ("${ctx.vault.root}/").`);
    if (isNotePath(path)) refuse('invalid_argument', `"${path}" is a markdown note; use create_note to create it or edit_note to change it.`);
    const host = ctx.deps.host;
    if (host.isFolder(path)) refuse('invalid_argument', `"${path}" is a folder; give a file path inside it.`);
    const s = ctx.deps.settings();
    let bytes: Uint8Array;
    if (args.encoding === 'base64') {
      const clean = args.content.replace(/\s+/g, '');
      if (!B64.test(clean)) refuse('invalid_argument', 'content is not valid base64; send standard base64 (A–Z a–z 0–9 + /, "=" padding), or use encoding="text" for text.');
      bytes = new Uint8Array(Buffer.from(clean, 'base64'));
    } else bytes = new TextEncoder().encode(args.content);
    checkSize(bytes.length, s, path);
    const exists = !!host.stat(path);
    if (exists && args.overwrite) requireHash(s, args.expected_hash, 'overwriting a file', 'read_file(hash_only=true)');
    if (!exists && args.expected_hash !== undefined) refuse('no_incumbent', `expected_hash was given but "${path}" does not exist, so there is nothing it could match; nothing was written. Omit it to create the file.`, { path });
    const r = await asCaller(ctx, [{ path, kind: exists ? 'modified' : 'created' }], () => guarded(path, () => host.writer.writeBinary(path, bytes, {
      overwrite: args.overwrite,
      check: (cur) => {
        if (cur === null && args.expected_hash !== undefined) refuse('no_incumbent', `"${path}" disappeared; nothing was written.`, { path });
        if (cur !== null) checkFresh(cur, args.expected_hash, path, 'read_file(hash_only=true)');
      },
    })));
    const hash = contentHash(bytes);
    const conv = await conventionsEcho(ctx, dirname(path));
    return {
      structured: { path, created: r.created, size: bytes.length, content_hash: hash, ...(conv.conventions ? { conventions: conv.conventions } : {}) },
      text: `${r.created ? 'Created' : 'Replaced'} ${path} (${bytes.length} bytes)\ncontent_hash: ${hash}${conv.text}`,
    };
  },
});

export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete a file',
  family: 'write',
  description: 'Delete a non-markdown file: to the trash, or for good with permanent=true.',
  input: z.strictObject({
    path: z.string().describe('File path'),
    permanent: z.boolean().default(false).describe('For good'),
    expected_hash: z.string().optional().describe('Its hash'),
  }),
  output: deleteOut,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    const p = normalizeFilePath(args.path);
    if (isNotePath(p)) refuse('invalid_argument', `"${p}" is a markdown note; delete it with delete_note.`);
    requireHash(ctx.deps.settings(), args.expected_hash, 'deleting a file', 'read_file(hash_only=true)');
    const st = ctx.vault.requireFile(p);
    return deleteAny(ctx, st.path, args.permanent, args.expected_hash, 'read_file(hash_only=true)');
  },
});

export const fileWriteTools = [writeFile, deleteFile];
