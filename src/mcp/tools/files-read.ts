// read_file and list_files: any file, by reference and in bounded pieces.
import { z } from 'zod';
import { pageCursor } from './args.js';
import { answer, cursorField, hintOut, moreHint, nextCursorOut, pathOut } from './results.js';
import { defineTool, READ_ONLY } from '../tool.js';
import { contentHash } from '../../core/hash.js';
import { basename, inFolder } from '../../core/paths.js';
import { refuse } from '../../core/errors.js';
import { isoUtc } from '../../core/time.js';
import { pageAfter } from '../../core/cursor.js';
import { compileGlob, GLOB_MAX_LENGTH } from '../../core/glob.js';
import { mimeOf, isTextLike } from '../../core/mime.js';

export const readFile = defineTool({
  name: 'read_file',
  title: 'Read any file',
  family: 'files',
  description: (deps) =>
    'Read any file: text as text, images as image content, others as base64; hash_only=true: size, type and hash only. ' +
    `Over ${Math.round(deps.settings().maxFileReadBytes / 1048576)} MB only in pieces (offset/limit). Notes: read_note.`,
  input: z.strictObject({
    path: z.string().describe('File path'),
    encoding: z.enum(['auto', 'text', 'base64']).default('auto').describe('auto, text or base64'),
    offset: z.number().int().min(0).default(0).describe('Start character or byte'),
    limit: z.number().int().min(1).optional().describe('Max characters or bytes'),
    hash_only: z.boolean().default(false).describe('No content'),
  }),
  output: z.object({
    path: pathOut,
    size: z.number().int().describe('Bytes'),
    mime_type: z.string().describe('MIME type'),
    modified: z.string().describe('UTC'),
    content_hash: z.string().describe('sha256'),
    encoding: z.enum(['text', 'base64', 'image', 'none']).describe('How content is given'),
    content: z.string().optional().describe('Text or base64'),
    next_offset: z.number().int().optional().describe('Cut: offset to go on'),
    total: z.number().int().describe('Characters or bytes'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const st = ctx.vault.requireFile(args.path);
    const s = ctx.deps.settings();
    const bytes = await ctx.deps.host.readBytes(st.path);
    const mime = mimeOf(st.path);
    const base = { path: st.path, size: bytes.length, mime_type: mime, modified: isoUtc(st.mtime), content_hash: contentHash(bytes) };
    if (args.hash_only) {
      return { structured: { ...base, encoding: 'none' as const, total: bytes.length }, text: `${st.path}: ${bytes.length} bytes, ${mime}, ${base.content_hash}` };
    }
    const asText = args.encoding === 'text' || (args.encoding === 'auto' && isTextLike(st.path, bytes));
    const ranged = args.offset > 0 || args.limit !== undefined;
    if (asText) {
      const text = new TextDecoder('utf-8').decode(bytes);
      const cap = Math.min(args.limit ?? Infinity, s.readCapChars);
      if (args.offset > text.length) refuse('invalid_argument', `offset ${args.offset} is past the end (${text.length} characters).`);
      const end = Math.min(text.length, args.offset + cap);
      const content = text.slice(args.offset, end);
      const truncated = end < text.length;
      return answer({ ...base, encoding: 'text' as const, content, ...(truncated ? { next_offset: end } : {}), total: text.length }, content, [truncated && `Cut at character ${end} of ${text.length}: go on with offset=${end}.`]);
    }
    const isImage = args.encoding === 'auto' && mime.startsWith('image/') && mime !== 'image/svg+xml';
    if (bytes.length > s.maxFileReadBytes && (!ranged || isImage)) {
      refuse('payload_too_large', `"${st.path}" is ${bytes.length} bytes, over the ${s.maxFileReadBytes}-byte read limit (setting maxFileReadBytes). Read it in pieces with encoding="base64" and offset/limit, use hash_only=true, or hand the user a download link with request_download when listed.`, { size: bytes.length, limit: s.maxFileReadBytes, setting: 'maxFileReadBytes' });
    }
    if (isImage) {
      return {
        structured: { ...base, encoding: 'image' as const, total: bytes.length },
        text: `${st.path}: image ${mime}, ${bytes.length} bytes`,
        extra: [{ type: 'image' as const, data: Buffer.from(bytes).toString('base64'), mimeType: mime }],
      };
    }
    const lim = Math.min(args.limit ?? s.maxFileReadBytes, s.maxFileReadBytes);
    if (args.offset > bytes.length) refuse('invalid_argument', `offset ${args.offset} is past the end (${bytes.length} bytes).`);
    const end = Math.min(bytes.length, args.offset + lim);
    const truncated = end < bytes.length;
    const content = Buffer.from(bytes.subarray(args.offset, end)).toString('base64');
    return answer({ ...base, encoding: 'base64' as const, content, ...(truncated ? { next_offset: end } : {}), total: bytes.length }, `${st.path}: ${mime}, bytes ${args.offset}–${end} of ${bytes.length} as base64 in structuredContent.content`, [truncated && `Cut at byte ${end} of ${bytes.length}: go on with offset=${end}.`]);
  },
});

export const listFiles = defineTool({
  name: 'list_files',
  title: 'List files',
  family: 'files',
  description: 'Files of any type in a folder with size, type and time, optionally by a name glob ("*.png"). Notes with tags: list_notes.',
  input: z.strictObject({
    folder: z.string().default('').describe('Folder; "" = root'),
    pattern: z.string().max(GLOB_MAX_LENGTH).optional().describe('Name glob: * ? [abc]'),
    recursive: z.boolean().default(false).describe('With sub-folders'),
    limit: z.number().int().min(1).max(1000).default(100).describe('Rows per page'),
    cursor: pageCursor,
  }),
  output: z.object({
    total: z.number().int().describe('Files'),
    files: z.array(z.object({ path: pathOut, size: z.number().int().describe('Bytes'), mime_type: z.string().describe('MIME type'), modified: z.string().describe('UTC') })).describe('Files'),
    next_cursor: nextCursorOut,
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const folder = ctx.vault.folderArg(args.folder) ?? '';
    const re = args.pattern ? compileGlob(args.pattern) : null;
    const rows = ctx.vault.files()
      .filter((f) => (args.recursive ? (folder === '' ? true : inFolder(f.path, folder)) : (f.path.lastIndexOf('/') === (folder === '' ? -1 : folder.length) && (folder === '' || f.path.startsWith(folder + '/')))))
      .filter((f) => !re || re.test(basename(f.path)))
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const { page, next_cursor } = pageAfter(rows, (f) => f.path, args.limit, 'list_files', args.cursor);
    const files = page.map((f) => ({ path: f.path, size: f.size, mime_type: mimeOf(f.path), modified: isoUtc(f.mtime) }));
    return answer({ total: rows.length, files, ...cursorField(next_cursor) }, files.map((f) => `${f.path}  ${f.size} B  ${f.mime_type}`).join('\n') || 'No files.', [moreHint(files.length, rows.length, next_cursor)]);
  },
});

export const fileReadTools = [readFile, listFiles];
