// MCP prompts: the entries clients show in their prompt pickers. Each is listed only when the tools it
// relies on are available to the session's key (so a read key sees no "tidy links"), its arguments
// complete from what the key may see, and prompts/get is metered and audited like a tool call. The
// messages embed what the server can fetch at once (the folder's notes, the change feed, the broken
// links, the note itself) and tell the agent which tools finish the job.
import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/sdk/types.js';
import { refuse } from '../core/errors.js';
import type { ToolContext } from './tool.js';
import { invokeTool } from './metered.js';
import { complete, folderPaths, notePaths, type Completion } from './completion.js';
import { noteUri } from './resourceUris.js';

export interface PromptArg {
  name: string;
  description: string;
  required: boolean;
  complete: (ctx: ToolContext, typed: string) => Completion;
}

export interface PromptDef {
  name: string;
  title: string;
  description: string;
  /** Tools that must be available to the key for the prompt to be listed. */
  requires: string[];
  args: PromptArg[];
  build(ctx: ToolContext, args: Record<string, string>): Promise<PromptMessage[]>;
}

const folderArg = (required: boolean, description: string): PromptArg => ({ name: 'folder', description, required, complete: (ctx, typed) => complete(folderPaths(ctx), typed) });
const user = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });
const has = (ctx: ToolContext, tool: string) => ctx.tools().some((t) => t.name === tool);
const quoted = (s: string) => JSON.stringify(s);

/** How many note paths summarize-folder lists for an agent that reads them itself. */
const LISTED_NOTES = 50;

const summarizeFolder: PromptDef = {
  name: 'summarize-folder',
  title: 'Summarize this folder',
  description: 'A summary of the notes in one folder: with the vault owner\'s configured LLM (the summarize tool) when there is one, else by reading the notes.',
  requires: ['read_note', 'list_notes'],
  args: [folderArg(true, 'The folder to summarize ("" = the vault root)'), { name: 'focus', description: 'Optional: what the summary should concentrate on', required: false, complete: () => ({ values: [], total: 0, hasMore: false }) }],
  async build(ctx, a) {
    const folder = ctx.vault.folderArg(a.folder ?? '') ?? '';
    const where = folder ? `the folder ${quoted(folder)}` : 'the root of the vault';
    const focus = a.focus?.trim();
    if (has(ctx, 'summarize')) {
      return [user(`Summarize the notes in ${where} of my Obsidian vault${focus ? `, focusing on: ${focus}` : ''}.\n\n` +
        `Call the summarize tool with paths=[${quoted(folder)}]${focus ? ` and focus=${quoted(focus)}` : ''}: the model the vault owner configured reads the notes and answers with coverage figures. ` +
        'If it answers {status: "working"}, poll get_job_result with its job_id. Then give me the summary, and say plainly which notes it could not cover (skipped, cut short or beyond its limit).')];
    }
    const notes = ctx.vault.notes(folder === '' && !ctx.caller.root ? undefined : folder).sort((x, y) => y.mtime - x.mtime);
    const shown = notes.slice(0, LISTED_NOTES).map((n) => `- ${n.path} (${n.size} bytes)`).join('\n');
    return [user(`Summarize the notes in ${where} of my Obsidian vault${focus ? `, focusing on: ${focus}` : ''}.\n\n` +
      `It holds ${notes.length} note(s)${notes.length > LISTED_NOTES ? `; the ${LISTED_NOTES} most recently changed are listed below (list_notes(folder=${quoted(folder)}) pages through the rest)` : ', listed below, newest first'}.\n${shown || '(no notes)'}\n\n` +
      'Read them with read_note (for a long note, call get_toc first and read only the sections that matter). Then write the summary: main themes, decisions, open questions and next steps, each pointing to its notes as [[wikilinks]]. Say which notes you did not read.')];
  },
};

const SINCE_CHOICES = ['today', 'yesterday', 'last 7 days'];

/** "today", "yesterday", "last 7 days" or an ISO date, as the ISO time get_changes takes. */
export function sinceTime(value: string | undefined, now: number): string {
  const v = (value ?? 'today').trim().toLowerCase();
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  if (v === '' || v === 'today') return midnight.toISOString();
  if (v === 'yesterday') return new Date(midnight.getTime() - 86_400_000).toISOString();
  const days = /^last (\d{1,3}) days?$/.exec(v);
  if (days) return new Date(now - Number(days[1]) * 86_400_000).toISOString();
  const t = Date.parse(value!);
  if (Number.isNaN(t)) refuse('invalid_argument', `since=${quoted(value!)} is not "today", "yesterday", "last N days" or a date such as "2026-01-31".`);
  return new Date(t).toISOString();
}

const dailyReview: PromptDef = {
  name: 'daily-review',
  title: 'Daily review of what changed',
  description: 'What changed in the vault since a time (today by default), by people and by agents, with the change feed embedded, for a short review and follow-ups.',
  requires: ['get_changes'],
  args: [{ name: 'since', description: '"today" (default), "yesterday", "last 7 days" or a date such as 2026-01-31', required: false, complete: (_ctx, typed) => complete(SINCE_CHOICES, typed) }],
  async build(ctx, a) {
    const since = sinceTime(a.since, ctx.deps.now());
    const feed = await invokeTool(ctx, 'get_changes', { since, limit: 200 });
    const more = feed.structured.more ? `\n\nThe feed has more lines: call get_changes(since=${quoted(String(feed.structured.next_since))}) for the rest.` : '';
    const tasks = has(ctx, 'list_tasks') ? ' Then call list_tasks(due_by=<tomorrow\'s date>) and list the open tasks that are due.' : '';
    return [user(`Give me a short daily review of my Obsidian vault since ${since} (${a.since ?? 'today'}). The change feed (get_changes) says:\n\n${feed.text}${more}\n\n` +
      `Group the changes into what people changed ("human") and what agents changed (by key name); name the notes created, moved and deleted; point out anything that looks unintended or unfinished.${tasks} End with at most three suggested follow-ups. Read a note with read_note only where the feed alone is not enough.`)];
  },
};

const tidyLinks: PromptDef = {
  name: 'tidy-links',
  title: 'Tidy links in a folder',
  description: 'Fix the broken links in a folder (or the whole vault): the dangling links are embedded; each fix is a reviewed, targeted edit.',
  requires: ['get_broken_links', 'edit_note'],
  args: [folderArg(false, 'The folder to tidy (default: the whole vault, or your key\'s root)')],
  async build(ctx, a) {
    const links = await invokeTool(ctx, 'get_broken_links', a.folder !== undefined && a.folder !== '' ? { folder: a.folder, limit: 200 } : { limit: 200 });
    const where = a.folder ? `the folder ${quoted(a.folder)}` : 'my vault';
    return [user(`Tidy the links in ${where}. These links point to no note (get_broken_links):\n\n${links.text}\n\n` +
      'For each one, find the note it most likely meant (keyword_search, or list_notes for similar names). When you find it, fix the link with edit_note(path, find=<the link exactly as written>, replace=<the corrected link>), with dry_run=true first and expected_hash from read_note, so nothing the owner changed meanwhile is overwritten. ' +
      'When no note fits, do not create one: list those links for me. Change nothing else, and end with a list of what you changed.')];
  },
};

const discussNote: PromptDef = {
  name: 'discuss-note',
  title: 'Discuss a note',
  description: 'Bring one note into the conversation (embedded as a resource) to summarize it, question it and find related notes.',
  requires: ['read_note'],
  args: [{ name: 'path', description: 'The note, e.g. Projects/Plan.md', required: true, complete: (ctx, typed) => complete(notePaths(ctx), typed) }],
  async build(ctx, a) {
    const st = ctx.vault.requireNote(a.path ?? '');
    const cap = ctx.deps.settings().readCapChars;
    const text = await ctx.deps.host.readText(st.path);
    const cut = text.length > cap;
    const related = ['find_related', 'get_backlinks'].filter((t) => has(ctx, t));
    return [
      { role: 'user', content: { type: 'resource', resource: { uri: noteUri(st.path), mimeType: 'text/markdown', text: cut ? text.slice(0, cap) : text } } },
      user(`This is my note ${quoted(st.path)}${cut ? ` (its first ${cap} characters; read_note(path, offset=${cap}) has the rest)` : ''}. Summarize it in a few lines, point out what is unclear, contradictory or missing${related.length ? `, and suggest related notes (${related.join(', ')})` : ''}. Then ask me what I want to do with it.`),
    ];
  },
};

export const PROMPTS: PromptDef[] = [summarizeFolder, dailyReview, tidyLinks, discussNote];

export function availablePrompts(ctx: Pick<ToolContext, 'tools'>): PromptDef[] {
  const names = new Set(ctx.tools().map((t) => t.name));
  return PROMPTS.filter((p) => p.requires.every((t) => names.has(t)));
}

export function promptListing(p: PromptDef) {
  return { name: p.name, title: p.title, description: p.description, arguments: p.args.map(({ name, description, required }) => ({ name, description, required })) };
}

export async function getPrompt(ctx: ToolContext, name: string, args: Record<string, string>): Promise<GetPromptResult> {
  const p = availablePrompts(ctx).find((x) => x.name === name);
  if (!p) refuse('invalid_argument', `There is no prompt ${quoted(name)} for this key; prompts/list shows the available ones.`);
  for (const arg of p.args) if (arg.required && args[arg.name] === undefined) refuse('invalid_argument', `The prompt ${name} needs the argument "${arg.name}" (${arg.description}).`);
  const unknown = Object.keys(args).filter((k) => !p.args.some((x) => x.name === k));
  if (unknown.length) refuse('invalid_argument', `The prompt ${name} has no argument ${unknown.map(quoted).join(', ')}; its arguments are ${p.args.map((x) => x.name).join(', ')}.`);
  return { description: p.description, messages: await p.build(ctx, args) };
}
