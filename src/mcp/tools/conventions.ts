// get_conventions: the vault owner's `_conventions.md` rules for a folder, root first; without any,
// what the folder's notes have in common (keys, values, tags) and the template that matches them.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { normalizeFolderPath, dirname } from '../../core/paths.js';
import { conventionsFor, CONVENTIONS_FILE } from '../../services/conventions.js';
import { inferConventions } from '../../services/conventionsInferred.js';
import { answer, pathOut } from './results.js';

export const getConventions = defineTool({
  name: 'get_conventions',
  title: 'Get folder conventions',
  family: 'read',
  description:
    `The ${CONVENTIONS_FILE} rules that apply to a folder or note path (the root's and each ancestor's, root first). ` +
    'Without any: what most notes there share (frontmatter keys, common values, tags) and the matching template. Call before create_note in an unfamiliar folder.',
  input: z.strictObject({
    path: z.string().default('').describe('Folder or note path; "" = vault root'),
  }),
  output: z.object({
    folder: z.string().describe('The folder the rules are for'),
    conventions: z.array(z.object({ path: pathOut, content: z.string().describe('Rules text'), truncated: z.boolean().optional().describe('Cut') })).optional().describe(`${CONVENTIONS_FILE} files, root first`),
    inferred: z.object({
      notes: z.number().int().describe('Notes looked at'),
      frontmatter: z.record(z.string(), z.number()).describe('Key → share of notes using it'),
      values: z.record(z.string(), z.unknown()).optional().describe('Key → the value most notes give it'),
      tags: z.record(z.string(), z.number()).optional().describe('Tag → share of notes'),
      template: z.object({ path: pathOut, content: z.string().describe('Template text'), truncated: z.boolean().optional().describe('Cut') }).optional().describe('The template that matches these notes'),
    }).optional().describe(`Without ${CONVENTIONS_FILE}: what the folder's notes share`),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const p = normalizeFolderPath(args.path, 'path');
    const folder = p === '' || ctx.vault.isFolder(p) || !/\.[^/]+$/.test(p) ? p : dirname(p);
    const list = (await conventionsFor(ctx.vault, folder, ctx.deps.settings().readCapChars)).map((c) => ({ path: c.path, content: c.content, ...(c.truncated ? { truncated: true } : {}) }));
    if (list.length) {
      return answer({ folder, conventions: list }, list.map((c) => `--- ${c.path}\n${c.content.trimEnd()}${c.truncated ? '\n[truncated]' : ''}`).join('\n'));
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
