// get_conventions: the vault owner's `_conventions.md` rules for a folder, root first.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { normalizeFolderPath, dirname } from '../../core/paths.js';
import { conventionsFor, CONVENTIONS_FILE } from '../../services/conventions.js';

export const getConventions = defineTool({
  name: 'get_conventions',
  title: 'Get folder conventions',
  family: 'read',
  description:
    `Read the ${CONVENTIONS_FILE} files that apply to a folder or a note path: the vault root's and every ancestor folder's, root first (later ones are more specific). ` +
    'They hold the owner\'s rules for notes there (naming, frontmatter, templates). Call it before create_note or edit_note in an unfamiliar folder; the write tools also echo these rules in their results. To read other notes use read_note.',
  input: z.strictObject({
    path: z.string().default('').describe('Folder (e.g. "Projects") or note path (its folder is used); "" = the vault root'),
  }),
  output: z.object({
    folder: z.string(),
    conventions: z.array(z.object({ path: z.string(), folder: z.string(), content: z.string(), truncated: z.boolean(), content_hash: z.string() })),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const p = normalizeFolderPath(args.path, 'path');
    const folder = p === '' || ctx.vault.isFolder(p) || !/\.[^/]+$/.test(p) ? p : dirname(p);
    const list = await conventionsFor(ctx.vault, folder, ctx.deps.settings().readCapChars);
    const text = list.length
      ? list.map((c) => `--- ${c.path}\n${c.content.trimEnd()}${c.truncated ? '\n[truncated]' : ''}`).join('\n')
      : `No ${CONVENTIONS_FILE} applies to "${folder || '(root)'}".`;
    return { structured: { folder, conventions: list }, text };
  },
});

export const conventionTools = [getConventions];
