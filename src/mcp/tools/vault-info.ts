// Orientation tools: folders, tags, the vault guide (primer, the vault's own agent guide and a digest
// of its shape), stats and index status.
import { z } from 'zod';
import { defineTool, READ_ONLY, type ToolContext } from '../tool.js';
import { noteTags } from '../../core/markdown/frontmatter.js';
import { basename, isNotePath, inFolder } from '../../core/paths.js';
import { indexStatuses } from '../../services/indexReport.js';
import { freshness, viewOf } from '../../graph/access.js';
import { mostLinked } from './graph/structure.js';
import { OBSIDIAN_PRIMER } from './primer.js';
import { answer, compact, hintOut, hostStaleness, pathOut } from './results.js';
import { semanticStatus, statusOut } from './search-semantic.js';

interface FolderRow { path: string; notes: number; notes_total?: number; files?: number }

function folderRows(ctx: ToolContext): { rows: FolderRow[]; rootNotes: number } {
  const files = ctx.vault.files();
  const rows = ctx.vault.folders().sort().map((path) => {
    let notes = 0, total = 0, other = 0;
    for (const f of files) {
      if (!inFolder(f.path, path)) continue;
      const direct = f.path.lastIndexOf('/') === path.length;
      if (isNotePath(f.path)) { total++; if (direct) notes++; } else if (direct) other++;
    }
    return { path, notes, ...(total !== notes ? { notes_total: total } : {}), ...(other ? { files: other } : {}) };
  });
  return { rows, rootNotes: files.filter((f) => !f.path.includes('/') && isNotePath(f.path)).length };
}

export const listFolders = defineTool({
  name: 'list_folders',
  title: 'List folders',
  family: 'read',
  description: 'Every folder with its note and file counts: the layout, before filing a note.',
  input: z.strictObject({}),
  output: z.object({
    root_notes: z.number().int().describe('Notes at the root'),
    folders: z.array(z.object({
      path: pathOut,
      notes: z.number().int().describe('Notes in it'),
      notes_total: z.number().int().optional().describe('With sub-folders'),
      files: z.number().int().optional().describe('Other files'),
    })).describe('Folders'),
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const { rows, rootNotes } = folderRows(ctx);
    const text = [`(root): ${rootNotes} notes`, ...rows.map((r) => `${r.path}/: ${r.notes} notes${r.notes_total ? ` (${r.notes_total} with sub-folders)` : ''}${r.files ? `, ${r.files} files` : ''}`)].join('\n');
    return { structured: { root_notes: rootNotes, folders: rows }, text };
  },
});

function tagCounts(ctx: ToolContext): { tag: string; count: number }[] {
  const counts = new Map<string, { tag: string; count: number }>();
  for (const f of ctx.vault.notes()) {
    const m = ctx.vault.metadata(f.path);
    if (!m) continue;
    for (const t of noteTags(m.frontmatter, m.tags)) {
      const k = t.toLowerCase();
      const e = counts.get(k) ?? { tag: t, count: 0 };
      e.count++;
      counts.set(k, e);
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

const tagRow = z.object({ tag: z.string().describe('Tag'), count: z.number().int().describe('Notes') });

export const getTags = defineTool({
  name: 'get_tags',
  title: 'List tags',
  family: 'read',
  description: 'The vault\'s tags with how many notes carry each, most used first: reuse them.',
  input: z.strictObject({
    limit: z.number().int().min(1).max(1000).default(50).describe('How many'),
  }),
  output: z.object({
    total_tags: z.number().int().describe('Distinct tags'),
    tags: z.array(tagRow).describe('Most used first'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const all = tagCounts(ctx);
    const tags = all.slice(0, args.limit);
    const stale = hostStaleness(ctx);
    return answer({ total_tags: all.length, tags }, tags.map((t) => `${t.tag} ${t.count}`).join('\n') || 'No tags.', [stale.hint]);
  },
});

const GUIDE_FILES = ['CLAUDE.md', 'AGENTS.md'];
const DIGEST = { folders: 12, hubs: 8, tags: 10 };

/** The vault at a glance: top folders, hubs, tags, template folders and the change-feed cursor. */
async function digest(ctx: ToolContext) {
  const { rows } = folderRows(ctx);
  const root = ctx.vault.root;
  const depth = root ? root.split('/').length + 1 : 1;
  const top = rows.filter((r) => r.path.split('/').length === depth).map((r) => ({ path: r.path, notes: r.notes_total ?? r.notes }))
    .sort((a, b) => b.notes - a.notes || (a.path < b.path ? -1 : 1)).slice(0, DIGEST.folders);
  await freshness(ctx, false);
  const hubs = mostLinked(viewOf(ctx), undefined, false).slice(0, DIGEST.hubs).map((r) => ({ path: r.path, backlinks: r.backlinks }));
  const templates = rows.filter((r) => /templates?\b/i.test(basename(r.path))).map((r) => r.path);
  const feed = ctx.deps.services.changes;
  if (feed) await feed.settle();
  const asRecord = (rows: [string, number][]) => (rows.length ? Object.fromEntries(rows) : undefined);
  return compact({
    notes: ctx.vault.notes().length,
    folders: asRecord(top.map((f) => [f.path, f.notes])),
    most_linked: asRecord(hubs.map((h) => [h.path, h.backlinks])),
    tags: asRecord(tagCounts(ctx).slice(0, DIGEST.tags).map((t) => [t.tag, t.count])),
    template_folders: templates,
    changes_cursor: feed ? `ev:${feed.head()}` : undefined,
  });
}

export const getVaultGuide = defineTool({
  name: 'get_vault_guide',
  title: 'Vault guide',
  family: 'read',
  description: 'Call first: Obsidian syntax primer, the vault\'s own agent guide (CLAUDE.md/AGENTS.md), and a digest: top folders, most-linked notes, top tags, template folders, the get_changes cursor.',
  input: z.strictObject({}),
  output: z.object({
    primer: z.string().describe('Syntax, safe edits'),
    guide_path: z.string().optional().describe('Agent guide'),
    guide: z.string().optional().describe('Its text'),
    digest: z.object({
      notes: z.number().int().describe('Notes'),
      folders: z.record(z.string(), z.number()).optional().describe('Top folders → notes'),
      most_linked: z.record(z.string(), z.number()).optional().describe('Hub notes → linking notes'),
      tags: z.record(z.string(), z.number()).optional().describe('Top tags → notes'),
      template_folders: z.array(z.string()).optional().describe('Templates'),
      changes_cursor: z.string().optional().describe('For get_changes later'),
    }).describe('At a glance'),
    hint: hintOut,
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const root = ctx.caller.root;
    let guide: { guide_path: string; guide: string } | null = null;
    let cut = false;
    for (const name of GUIDE_FILES) {
      const st = ctx.vault.stat(root ? `${root}/${name}` : name);
      if (!st) continue;
      const text = await ctx.deps.host.readText(st.path);
      const cap = ctx.deps.settings().readCapChars;
      guide = { guide_path: st.path, guide: text.slice(0, cap) };
      cut = text.length > cap;
      break;
    }
    const d = await digest(ctx);
    const stale = hostStaleness(ctx);
    const lines = [
      OBSIDIAN_PRIMER, '',
      guide ? `## This vault's guide (${guide.guide_path})\n\n${guide.guide}` : '## This vault has no CLAUDE.md or AGENTS.md at its root.', '',
      `## Digest: ${d.notes} notes`,
      ...(d.folders ? [`folders: ${Object.entries(d.folders).map(([p, n]) => `${p} (${n})`).join(', ')}`] : []),
      ...(d.most_linked ? [`most linked: ${Object.entries(d.most_linked).map(([p, n]) => `${p} (${n})`).join(', ')}`] : []),
      ...(d.tags ? [`tags: ${Object.entries(d.tags).map(([t, n]) => `${t} (${n})`).join(', ')}`] : []),
      ...(d.template_folders ? [`templates: ${d.template_folders.join(', ')}`] : []),
      ...(d.changes_cursor ? [`changes cursor: ${d.changes_cursor}`] : []),
    ];
    return answer({ primer: OBSIDIAN_PRIMER, ...(guide ?? {}), digest: d }, lines.join('\n'), [
      cut && guide && `The guide is cut at the read cap; read the rest with read_note(path="${guide.guide_path}", offset=…).`,
      stale.hint,
    ]);
  },
});

export const stats = defineTool({
  name: 'stats',
  title: 'Vault statistics and index status',
  family: 'read',
  description: 'Counts of notes, files, folders and bytes, what your key may do, and each index (metadata, keyword, semantic): state, notes indexed, pending, skipped, why; the semantic model and failures. When results look incomplete.',
  input: z.strictObject({}),
  output: z.object({
    vault: z.string().describe('Name'),
    version: z.string().describe('Version'),
    notes: z.number().int().describe('Notes'),
    attachments: z.number().int().describe('Other files'),
    folders: z.number().int().describe('Folders'),
    total_bytes: z.number().int().describe('Size'),
    writes: z.boolean().describe('Key may write'),
    families: z.array(z.string()).describe('Tool families on'),
    indexes: z.array(z.object({
      name: z.string().describe('Index'),
      state: z.string().describe('State'),
      indexed: z.number().int().describe('Notes in it'),
      pending: z.number().int().describe('Notes waiting'),
      skipped: z.number().int().optional().describe('Left out'),
      detail: z.string().optional().describe('Why'),
    })).describe('Indexes'),
    semantic: z.object(statusOut).optional().describe('Semantic index'),
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const files = ctx.vault.files();
    const notes = files.filter((f) => isNotePath(f.path)).length;
    const tools = ctx.tools();
    const families = [...new Set(tools.map((t) => t.family))];
    const indexes = indexStatuses(ctx.deps, ctx.vault).map((i) => compact({ ...i, skipped: i.skipped || undefined }));
    const out = {
      vault: ctx.deps.host.name, version: ctx.deps.version,
      notes, attachments: files.length - notes, folders: ctx.vault.folders().length,
      total_bytes: files.reduce((a, f) => a + f.size, 0),
      writes: tools.some((t) => !t.annotations.readOnlyHint && t.family !== 'admin'), families,
      indexes,
    };
    const sem = await semanticStatus(ctx);
    const text = [
      `${out.notes} notes, ${out.attachments} attachments, ${out.folders} folders, ${out.total_bytes} bytes; ${tools.length} tools (${families.join(', ')}); writes ${out.writes ? 'allowed' : 'not allowed'}`,
      ...indexes.map((i) => `${i.name}: ${i.state}, ${i.indexed} indexed, ${i.pending} pending${i.skipped ? `, ${i.skipped} skipped` : ''}${i.detail ? ` (${i.detail})` : ''}`),
      ...(sem ? [sem.text] : []),
    ].join('\n');
    return { structured: sem ? { ...out, semantic: sem.structured } : out, text };
  },
});

export const vaultInfoTools = [listFolders, getTags, getVaultGuide, stats];
