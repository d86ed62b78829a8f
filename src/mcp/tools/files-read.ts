// read_file and list_files: any file, by reference and in bounded pieces.
import { z } from 'zod';
import { pageCursor } from './args.js';
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
    'Read any vault file by path: text-like files (md, txt, csv, json, canvas, svg…) as text, images as MCP image content, other binaries as base64. ' +
    `hash_only=true returns just size, MIME type and content_hash without the bytes. Files over ${Math.round(deps.settings().maxFileReadBytes / 1048576)} MB are refused unless read in pieces with offset/limit (bytes for base64, characters for text). ` +
    'For notes prefer read_note (frontmatter, sections, outline); to list files use list_files.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative file path, e.g. "Attachments/diagram.png"'),
    encoding: z.enum(['auto', 'text', 'base64']).default('auto').describe('"auto" (text for text-like files, image content for images, base64 otherwise), "text" or "base64"'),
    offset: z.number().int().min(0).default(0).describe('Start at this character (text) or byte (base64)'),
    limit: z.number().int().min(1).optional().describe('Return at most this many characters (text) or bytes (base64)'),
    hash_only: z.boolean().default(false).describe('Only size, MIME type and content_hash'),
  }),
  output: z.object({
    path: z.string(),
    size: z.number().int(),
    mime_type: z.string(),
    modified: z.string(),
    content_hash: z.string(),
    encoding: z.enum(['text', 'base64', 'image', 'none']),
    content: z.string().optional().describe('Text, or base64 bytes; absent for images (sent as image content) and hash_only'),
    truncated: z.boolean(),
    offset: z.number().int(),
    next_offset: z.number().int().nullable(),
    total: z.number().int().describe('Characters (text) or bytes (otherwise) in the whole file'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const st = ctx.vault.requireFile(args.path);
    const s = ctx.deps.settings();
    const bytes = await ctx.deps.host.readBytes(st.path);
    const mime = mimeOf(st.path);
    const base = { path: st.path, size: bytes.length, mime_type: mime, modified: isoUtc(st.mtime), content_hash: contentHash(bytes) };
    if (args.hash_only) {
      return { structured: { ...base, encoding: 'none' as const, truncated: false, offset: 0, next_offset: null, total: bytes.length }, text: `${st.path}: ${bytes.length} bytes, ${mime}, ${base.content_hash}` };
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
      return {
        structured: { ...base, encoding: 'text' as const, content, truncated, offset: args.offset, next_offset: truncated ? end : null, total: text.length },
        text: content + (truncated ? `\n[truncated at ${end} of ${text.length} characters; continue with offset=${end}]` : ''),
      };
    }
    const isImage = args.encoding === 'auto' && mime.startsWith('image/') && mime !== 'image/svg+xml';
    if (bytes.length > s.maxFileReadBytes && (!ranged || isImage)) {
      refuse('payload_too_large', `"${st.path}" is ${bytes.length} bytes, over the ${s.maxFileReadBytes}-byte read limit (setting maxFileReadBytes). Read it in pieces with encoding="base64" and offset/limit, use hash_only=true, or hand the user a download link with request_download when listed.`, { size: bytes.length, limit: s.maxFileReadBytes, setting: 'maxFileReadBytes' });
    }
    if (isImage) {
      return {
        structured: { ...base, encoding: 'image' as const, truncated: false, offset: 0, next_offset: null, total: bytes.length },
        text: `${st.path}: image ${mime}, ${bytes.length} bytes`,
        extra: [{ type: 'image' as const, data: Buffer.from(bytes).toString('base64'), mimeType: mime }],
      };
    }
    const lim = Math.min(args.limit ?? s.maxFileReadBytes, s.maxFileReadBytes);
    if (args.offset > bytes.length) refuse('invalid_argument', `offset ${args.offset} is past the end (${bytes.length} bytes).`);
    const end = Math.min(bytes.length, args.offset + lim);
    const truncated = end < bytes.length;
    const content = Buffer.from(bytes.subarray(args.offset, end)).toString('base64');
    return {
      structured: { ...base, encoding: 'base64' as const, content, truncated, offset: args.offset, next_offset: truncated ? end : null, total: bytes.length },
      text: `${st.path}: ${mime}, bytes ${args.offset}–${end} of ${bytes.length} as base64 in structuredContent.content${truncated ? `; continue with offset=${end}` : ''}`,
    };
  },
});

export const listFiles = defineTool({
  name: 'list_files',
  title: 'List files',
  family: 'files',
  description: 'List files of any type (attachments, canvases, PDFs, notes) in a folder with size, MIME type and modification time, optionally filtered by a glob on the file name ("*.png", "report-*.pdf"). Use list_notes for notes with titles and tags, list_folders for the folder tree.',
  input: z.strictObject({
    folder: z.string().default('').describe('Folder to list; "" = the vault root'),
    pattern: z.string().max(GLOB_MAX_LENGTH).optional().describe(`Glob on the file name: * any characters, ? one character, [abc] a set; case-insensitive; at most ${GLOB_MAX_LENGTH} characters`),
    recursive: z.boolean().default(false).describe('Include sub-folders'),
    limit: z.number().int().min(1).max(1000).default(100).describe('Rows per page (max 1000)'),
    cursor: pageCursor,
  }),
  output: z.object({
    folder: z.string(),
    total: z.number().int(),
    files: z.array(z.object({ path: z.string(), size: z.number().int(), mime_type: z.string(), modified: z.string() })),
    next_cursor: z.string().nullable(),
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
    return { structured: { folder, total: rows.length, files, next_cursor }, text: files.map((f) => `${f.path}  ${f.size} B  ${f.mime_type}`).join('\n') || 'No files.' };
  },
});

export const fileReadTools = [readFile, listFiles];
