// Non-markdown files: write_file and delete_file (attachments, canvases, JSON, images…). Notes go
// through the note tools, which know about frontmatter, sections and links.
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { normalizeFilePath, isNotePath, dirname } from '../../core/paths.js';
import { checkHashArg, requireHash, checkFresh, checkSize, guarded } from '../../services/writeSupport.js';
import { conventionsFor, conventionsText } from '../../services/conventions.js';
import { deleteAny, conventionRow, asCaller } from './notes-write.js';

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write a file',
  family: 'write',
  description: (deps) =>
    'Write a non-markdown file (image, PDF, canvas, JSON, CSV…): content is base64 (default) or text (UTF-8). Missing folders are created. ' +
    'An existing file is only replaced with overwrite=true (else already_exists); pass expected_hash (content_hash from read_file(hash_only=true)) to replace only the version you know. expected_hash for a file that does not exist is refused with no_incumbent. ' +
    `Files over ${deps.settings().maxWriteBytes} bytes are refused (payload_too_large). Markdown notes are refused: use create_note / edit_note. Symbolic links are never written through. To delete use delete_file.`,
  input: z.strictObject({
    path: z.string().describe('Vault-relative file path, e.g. "Attachments/chart.png"'),
    content: z.string().describe('The file bytes: base64 (encoding="base64") or UTF-8 text (encoding="text")'),
    encoding: z.enum(['base64', 'text']).default('base64').describe('"base64" (default) or "text"'),
    overwrite: z.boolean().default(false).describe('Replace an existing file'),
    expected_hash: z.string().optional().describe('content_hash of the file you mean to replace (read_file with hash_only=true)'),
  }),
  output: z.object({ path: z.string(), created: z.boolean(), size: z.number().int(), content_hash: z.string(), conventions: z.array(conventionRow) }),
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
    const conv = await conventionsFor(ctx.vault, dirname(path));
    return {
      structured: { path, created: r.created, size: bytes.length, content_hash: hash, conventions: conv.map((c) => ({ path: c.path, content: c.content, truncated: c.truncated })) },
      text: `${r.created ? 'Created' : 'Replaced'} ${path} (${bytes.length} bytes)\ncontent_hash: ${hash}${conventionsText(conv)}`,
    };
  },
});

export const deleteFile = defineTool({
  name: 'delete_file',
  title: 'Delete a file',
  family: 'write',
  description:
    'Delete a non-markdown file (attachment, canvas, PDF…): to the trash by default (Obsidian: the user\'s "Deleted files" setting; headless: .trash/ with a timestamped, never-overwritten name), or for good with permanent=true. ' +
    'Pass expected_hash (read_file with hash_only=true) to delete only the version you know. Notes are refused (use delete_note); folders and symbolic links are refused.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative file path'),
    permanent: z.boolean().default(false).describe('Delete for good instead of moving to the trash'),
    expected_hash: z.string().optional().describe('content_hash of the file (read_file with hash_only=true)'),
  }),
  output: z.object({ path: z.string(), permanent: z.boolean(), trashed_to: z.string().nullable(), previous_hash: z.string() }),
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
