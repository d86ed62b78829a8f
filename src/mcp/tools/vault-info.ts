// Orientation tools: folders, tags, the vault guide, stats and index status.
import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool.js';
import { noteTags } from '../../core/markdown/frontmatter.js';
import { isNotePath, inFolder } from '../../core/paths.js';
import { indexStatuses } from '../../services/indexReport.js';
import { OBSIDIAN_PRIMER } from './primer.js';

export const listFolders = defineTool({
  name: 'list_folders',
  title: 'List folders',
  family: 'read',
  description: 'List every folder of the vault with how many notes and other files each holds directly and in total. Use it to learn the vault\'s layout before filing a new note; for the notes themselves use list_notes(folder=…).',
  input: z.strictObject({}),
  output: z.object({
    folders: z.array(z.object({ path: z.string(), notes: z.number().int().describe('Notes directly in the folder'), notes_total: z.number().int().describe('Notes in the folder and below'), files: z.number().int().describe('Non-note files directly in the folder') })),
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const files = ctx.vault.files();
    const folders = ctx.vault.folders().sort();
    const rows = folders.map((path) => {
      let notes = 0, total = 0, other = 0;
      for (const f of files) {
        if (!inFolder(f.path, path)) continue;
        const direct = f.path.lastIndexOf('/') === path.length;
        if (isNotePath(f.path)) { total++; if (direct) notes++; } else if (direct) other++;
      }
      return { path, notes, notes_total: total, files: other };
    });
    const rootNotes = files.filter((f) => !f.path.includes('/') && isNotePath(f.path)).length;
    const text = [`(root): ${rootNotes} notes`, ...rows.map((r) => `${r.path}/: ${r.notes} notes${r.notes_total !== r.notes ? ` (${r.notes_total} with sub-folders)` : ''}${r.files ? `, ${r.files} files` : ''}`)].join('\n');
    return { structured: { folders: rows }, text };
  },
});

export const getTags = defineTool({
  name: 'get_tags',
  title: 'List tags',
  family: 'read',
  description: 'List the vault\'s tags (frontmatter and inline) with how many notes carry each, most used first. Use it to reuse existing tags instead of inventing new ones; to find notes with a tag use keyword_search(tags=[…]).',
  input: z.strictObject({
    limit: z.number().int().min(1).max(1000).default(50).describe('How many tags to return (max 1000)'),
  }),
  output: z.object({
    total_tags: z.number().int(),
    tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
    pending_notes: z.number().int().describe('Notes not yet parsed; counts may grow while > 0'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
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
    const all = [...counts.values()].sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
    const tags = all.slice(0, args.limit);
    return { structured: { total_tags: all.length, tags, pending_notes: ctx.deps.host.pendingCount() }, text: tags.map((t) => `${t.tag} ${t.count}`).join('\n') || 'No tags.' };
  },
});

const GUIDE_FILES = ['CLAUDE.md', 'AGENTS.md'];

export const getVaultGuide = defineTool({
  name: 'get_vault_guide',
  title: 'Vault guide',
  family: 'read',
  description: 'Call this first in a session: a concise primer on Obsidian markdown (wikilinks, embeds, tags, frontmatter, callouts, tasks) plus the vault\'s own instructions for agents from CLAUDE.md or AGENTS.md at its root, read live. For folder-specific rules use get_conventions when listed.',
  input: z.strictObject({}),
  output: z.object({
    vault: z.string(),
    primer: z.string(),
    guide_path: z.string().nullable().describe('The vault\'s own agent guide, when it has one'),
    guide: z.string().nullable(),
    guide_truncated: z.boolean(),
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const root = ctx.caller.root;
    let guidePath: string | null = null;
    let guide: string | null = null;
    let truncated = false;
    for (const name of GUIDE_FILES) {
      const p = root ? `${root}/${name}` : name;
      const st = ctx.vault.stat(p);
      if (st) {
        const text = await ctx.deps.host.readText(st.path);
        const cap = ctx.deps.settings().readCapChars;
        truncated = text.length > cap;
        guide = truncated ? text.slice(0, cap) : text;
        guidePath = st.path;
        break;
      }
    }
    const out = { vault: ctx.deps.host.name, primer: OBSIDIAN_PRIMER, guide_path: guidePath, guide, guide_truncated: truncated };
    const text = `${OBSIDIAN_PRIMER}\n\n${guide ? `## This vault's guide (${guidePath})\n\n${guide}${truncated ? '\n[truncated; read the rest with read_note]' : ''}` : '## This vault has no CLAUDE.md or AGENTS.md at its root.'}`;
    return { structured: out, text };
  },
});

export const stats = defineTool({
  name: 'stats',
  title: 'Vault statistics',
  family: 'read',
  description: 'Counts of notes, attachments and folders, total size, the capabilities this server offers to your key (which tool families are on, whether writes are allowed) and index state. Use get_index_status for indexing detail and list_folders for the layout.',
  input: z.strictObject({}),
  output: z.object({
    vault: z.string(),
    host: z.enum(['node', 'obsidian']),
    version: z.string(),
    notes: z.number().int(),
    attachments: z.number().int(),
    folders: z.number().int(),
    total_bytes: z.number().int(),
    capabilities: z.object({ writes: z.boolean(), read_only_mode: z.boolean(), families: z.array(z.string()), tools: z.number().int() }),
    indexes: z.array(z.object({ name: z.string(), state: z.string(), indexed: z.number().int(), pending: z.number().int() })),
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const files = ctx.vault.files();
    const notes = files.filter((f) => isNotePath(f.path)).length;
    const tools = ctx.tools();
    const families = [...new Set(tools.map((t) => t.family))];
    const s = ctx.deps.settings();
    const out = {
      vault: ctx.deps.host.name, host: ctx.deps.host.kind, version: ctx.deps.version,
      notes, attachments: files.length - notes, folders: ctx.vault.folders().length,
      total_bytes: files.reduce((a, f) => a + f.size, 0),
      capabilities: { writes: tools.some((t) => !t.annotations.readOnlyHint), read_only_mode: s.readOnly, families, tools: tools.length },
      indexes: indexStatuses(ctx.deps, ctx.vault).map(({ name, state, indexed, pending }) => ({ name, state, indexed, pending })),
    };
    return { structured: out, text: `${out.notes} notes, ${out.attachments} attachments, ${out.folders} folders; ${out.capabilities.tools} tools (${families.join(', ')}); writes ${out.capabilities.writes ? 'allowed' : 'not allowed'}` };
  },
});

export const getIndexStatus = defineTool({
  name: 'get_index_status',
  title: 'Index status',
  family: 'read',
  description: 'State of each index (metadata, keyword, semantic when present): ready or building, how many notes are indexed, pending and skipped. Check it when search results look incomplete; answers from an index that is still building carry _meta.index_stale.',
  input: z.strictObject({}),
  output: z.object({
    indexes: z.array(z.object({ name: z.string(), state: z.string(), indexed: z.number().int(), pending: z.number().int(), skipped: z.number().int().optional(), detail: z.string().optional() })),
  }),
  annotations: READ_ONLY,
  async handler(_args, ctx) {
    const indexes = indexStatuses(ctx.deps, ctx.vault);
    return { structured: { indexes }, text: indexes.map((i) => `${i.name}: ${i.state}, ${i.indexed} indexed, ${i.pending} pending${i.skipped ? `, ${i.skipped} skipped` : ''}${i.detail ? ` (${i.detail})` : ''}`).join('\n') };
  },
});

export const vaultInfoTools = [listFolders, getTags, getVaultGuide, stats, getIndexStatus];
