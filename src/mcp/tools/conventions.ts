// get_conventions: the vault owner's `_conventions.md` rules for a folder, root first; without any,
// what the folder's notes have in common (keys, values, tags) and the template that matches them.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { normalizeFolderPath, dirname } from '../../core/paths.js';
import { conventionsFor, CONVENTIONS_FILE } from '../../services/conventions.js';
import { inferConventions } from '../../services/conventionsInferred.js';
import { answer, hintOut, pathOut } from './results.js';

export const getConventions = defineTool({
  name: 'get_conventions',
  title: 'Folder conventions',
  family: 'read',
  description:
    `The ${CONVENTIONS_FILE} rules for a folder or note path (root first); without any, what most notes there share (keys, values, tags) and the matching template. Call before create_note.`,
  input: z.strictObject({
    path: z.string().default('').describe('Folder or note; "" = root'),
  }),
  output: z.object({
    folder: z.string().describe('Folder'),
    conventions: z.record(z.string(), z.string()).optional().describe('path → rules, root first'),
    hint: hintOut,
    inferred: z.object({
      notes: z.number().int().describe('Notes seen'),
      frontmatter: z.record(z.string(), z.number()).describe('Key → share'),
      values: z.record(z.string(), z.unknown()).optional().describe('Key → usual value'),
      tags: z.record(z.string(), z.number()).optional().describe('Tag → share'),
      template: z.object({ path: pathOut, content: z.string().describe('Its text (≤2000 chars)') }).optional().describe('Matching template'),
    }).optional().describe('What notes there share'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const p = normalizeFolderPath(args.path, 'path');
    const folder = p === '' || ctx.vault.isFolder(p) || !/\.[^/]+$/.test(p) ? p : dirname(p);
    const list = await conventionsFor(ctx.vault, folder, ctx.deps.settings().readCapChars);
    if (list.length) {
      const cut = list.filter((c) => c.truncated).map((c) => c.path);
      return answer({ folder, conventions: Object.fromEntries(list.map((c) => [c.path, c.content])) }, list.map((c) => `--- ${c.path}\n${c.content.trimEnd()}`).join('\n'), [
        cut.length > 0 && `Cut at the read cap: ${cut.join(', ')}; read the rest with read_note(offset=…).`,
      ]);
    }
    const inferred = await inferConventions(ctx.vault, folder);
    if (!inferred) return answer({ folder }, `No ${CONVENTIONS_FILE} applies to "${folder || '(root)'}", and it has too few notes to infer what they share.`);
    const body = [
      `No ${CONVENTIONS_FILE} applies to "${folder || '(root)'}". What its ${inferred.notes} notes share:`,
      `frontmatter keys: ${Object.entries(inferred.frontmatter).map(([k, s]) => `${k} (${Math.round(s * 100)}%)`).join(', ') || 'none'}`,
      ...(inferred.values ? [`common values: ${Object.entries(inferred.values).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')}`] : []),
      ...(inferred.tags ? [`tags: ${Object.entries(inferred.tags).map(([t, s]) => `${t} (${Math.round(s * 100)}%)`).join(', ')}`] : []),
      ...(inferred.template ? [`template: ${inferred.template.path}\n${inferred.template.content}`] : []),
    ];
    return answer({ folder, inferred }, body.join('\n'));
  },
});

export const conventionTools = [getConventions];
