// Note writes: create_note, edit_note, set_frontmatter, move_note, move_folder, delete_note. Each reads
// and publishes through ctx.deps.host.writer (atomic, no clobber) and checks expected_hash under the
// writer's per-path lock, so an edit made from a stale read is refused, never applied.
import { z } from 'zod';
import { createTwoFilesPatch } from 'diff';
import { defineTool, type ToolContext } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { applyEdit, type EditOp, type EditOutcome } from '../../core/edit.js';
import { setFrontmatter } from '../../core/markdown/frontmatterEdit.js';
import { normalizeFilePath, normalizeFolderPath, withMdExtension, isNotePath, dirname } from '../../core/paths.js';
import { checkHashArg, requireHash, checkFresh, checkSize, decodeNote, encodeNote, decodeText, guarded, attributed, attributeMaybe, type OwnWrite } from '../../services/writeSupport.js';
import { conventionsFor, conventionsText, type Convention } from '../../services/conventions.js';
import { planLinkRewrites, applyLinkRewrites, type LinkPlan } from '../../services/linkMoves.js';

const HASH = 'content_hash from read_note (sha256:…); the call is refused with stale_precondition if the file changed since';

export const conventionRow = z.object({
  path: z.string(),
  content: z.string(),
  truncated: z.boolean(),
});
const conventionsOut = z.array(conventionRow).describe('_conventions.md files that apply to the written path, root first');

/** Runs a write attributed to the caller's key in the change feed (recorded before, withdrawn on failure). */
export function asCaller<T>(ctx: ToolContext, writes: OwnWrite[], fn: () => Promise<T>, wrote?: (r: T) => boolean): Promise<T> {
  return attributed(ctx.deps.services, ctx.caller.keyName, writes, fn, wrote);
}

const echo = (list: Convention[]) => list.map((c) => ({ path: c.path, content: c.content, truncated: c.truncated }));

/** A note path the caller may write: normalised, `.md` added, inside the key's root. */
export function writableNotePath(ctx: ToolContext, raw: string, what = 'path'): string {
  const p = withMdExtension(normalizeFilePath(raw, what));
  if (!ctx.vault.visible(p)) refuse('permission_denied', `"${p}" is outside the folder this key may write ("${ctx.vault.root}/").`);
  return p;
}

export const createNote = defineTool({
  name: 'create_note',
  title: 'Create a note',
  family: 'write',
  description:
    'Create a new markdown note with the given content (frontmatter included if you write one). ".md" is added when missing and missing parent folders are created. ' +
    'Never replaces anything: an existing file at the path is refused with already_exists (change it with edit_note instead), and passing expected_hash is refused with no_incumbent because there is nothing to compare it with. ' +
    'Returns the new content_hash (pass it to edit_note later) and the _conventions.md rules that apply to the folder; check your note against them (see get_conventions). ' +
    'For attachments and other non-markdown files use write_file.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative path of the new note, e.g. "Inbox/Idea.md"; ".md" is added when missing'),
    content: z.string().describe('The whole note text, frontmatter included if any'),
    expected_hash: z.string().optional().describe('Do not pass for a new note: a hash here is refused with no_incumbent'),
  }),
  output: z.object({ path: z.string(), content_hash: z.string(), size: z.number().int(), conventions: conventionsOut }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    const path = writableNotePath(ctx, args.path);
    const host = ctx.deps.host;
    const existing = host.stat(path);
    if (existing || host.isFolder(path)) {
      refuse('already_exists', `"${path}" already exists; nothing was written. Read it (read_note) and change it with edit_note, or pick another path.`, existing ? { path, current_hash: contentHash(await host.readBytes(path)) } : { path });
    }
    if (args.expected_hash !== undefined) refuse('no_incumbent', `expected_hash was given but "${path}" does not exist, so there is nothing it could match; nothing was written. Omit expected_hash to create the note, or check the path.`, { path });
    const bytes = new TextEncoder().encode(args.content);
    checkSize(bytes.length, ctx.deps.settings(), path);
    const st = await asCaller(ctx, [{ path, kind: 'created' }], () => guarded(path, () => host.writer.create(path, bytes)));
    const conv = await conventionsFor(ctx.vault, dirname(path));
    return {
      structured: { path: st.path, content_hash: contentHash(bytes), size: bytes.length, conventions: echo(conv) },
      text: `Created ${st.path} (${bytes.length} bytes)\ncontent_hash: ${contentHash(bytes)}${conventionsText(conv)}`,
    };
  },
});

type Mode = 'replace' | 'append' | 'find' | 'section';

export const editNote = defineTool({
  name: 'edit_note',
  title: 'Edit a note',
  family: 'write',
  description:
    'Change an existing note in one of four modes (pick at most one of append, find, section):\n' +
    '- default, full replace: content becomes the body; the frontmatter block is kept byte-for-byte (use set_frontmatter to change properties); replace_frontmatter=true replaces the whole file instead.\n' +
    '- append=true: content is added at the end after exactly one line break; no read needed.\n' +
    '- find="exact text": that text is replaced by content; it must occur exactly once unless replace_all=true. On no match the refusal names the closest line and the first differing character.\n' +
    '- section="Heading" | "Parent/Child" | "#N": replaces that section\'s body (heading line kept, sub-sections included), resolved exactly as read_note(section=…) resolves it.\n' +
    'dry_run=true returns a unified diff and writes nothing. Pass expected_hash (content_hash from read_note) so an edit based on a stale read is refused with stale_precondition (it returns the current hash; re-read, redo, resend). ' +
    'Line endings (CRLF), a BOM and non-ASCII text are kept. Returns the new content_hash and applicable _conventions.md rules. ' +
    'To create a note use create_note; properties: set_frontmatter; rename: move_note; delete: delete_note.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path; ".md" may be omitted'),
    content: z.string().describe('New body (full replace), text to add (append), replacement (find) or new section body (section)'),
    append: z.boolean().default(false).describe('Add content at the end of the note'),
    find: z.string().optional().describe('Exact text to replace with content (copy it from read_note)'),
    replace_all: z.boolean().default(false).describe('With find: replace every occurrence instead of requiring exactly one'),
    section: z.string().optional().describe('Heading text, "Parent/Child" heading path, or "#N" ordinal whose body content replaces'),
    dry_run: z.boolean().default(false).describe('Return the unified diff of the change without writing'),
    replace_frontmatter: z.boolean().default(false).describe('Full replace only: content replaces the whole file, frontmatter included'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({
    path: z.string(),
    mode: z.enum(['replace', 'append', 'find', 'section']),
    dry_run: z.boolean(),
    changed: z.boolean().describe('False when the result equals the current note (nothing written)'),
    content_hash: z.string().describe('Hash of the note after the edit (for dry_run: what it would be)'),
    previous_hash: z.string(),
    replaced: z.number().int().describe('Occurrences replaced (find mode), else 1'),
    section: z.string().optional().describe('Ordinal of the edited section'),
    heading: z.string().optional(),
    size: z.number().int().describe('Bytes after the edit'),
    diff: z.string().optional().describe('Unified diff (dry_run only)'),
    conventions: conventionsOut,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    const modes: Mode[] = [];
    if (args.append) modes.push('append');
    if (args.find !== undefined) modes.push('find');
    if (args.section !== undefined) modes.push('section');
    if (modes.length > 1) refuse('invalid_argument', `append, find and section are separate modes; pass only one of them (got ${modes.join(' + ')}).`);
    const mode: Mode = modes[0] ?? 'replace';
    if (args.replace_all && mode !== 'find') refuse('invalid_argument', 'replace_all only applies with find=.');
    if (args.replace_frontmatter && mode !== 'replace') refuse('invalid_argument', 'replace_frontmatter only applies to a full replace (no append, find or section).');
    const s = ctx.deps.settings();
    if (mode !== 'append' && !args.dry_run) requireHash(s, args.expected_hash, `edits that replace text (mode ${mode})`);
    const stat = ctx.vault.requireNote(args.path);
    const path = stat.path;
    const op: EditOp = mode === 'append' ? { mode, content: args.content }
      : mode === 'find' ? { mode, find: args.find!, content: args.content, replaceAll: args.replace_all }
      : mode === 'section' ? { mode, section: args.section!, content: args.content }
      : { mode, content: args.content, replaceFrontmatter: args.replace_frontmatter };
    let outcome: EditOutcome | null = null;
    const compute = (bytes: Uint8Array): Uint8Array => {
      checkFresh(bytes, args.expected_hash, path);
      if (op.mode === 'replace' && op.replaceFrontmatter) {
        // The whole file is replaced: no need for its old text to be UTF-8.
        const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
        outcome = { text: op.content, replaced: 1 };
        const out = encodeNote(bom, op.content);
        checkSize(out.length, s, path);
        return out;
      }
      const { bom, text } = decodeNote(bytes, path);
      outcome = applyEdit(text, op, path);
      const out = encodeNote(bom, outcome.text);
      checkSize(out.length, s, path);
      return out;
    };
    let before: Uint8Array;
    let after: Uint8Array;
    let changed: boolean;
    let diff: string | undefined;
    if (args.dry_run) {
      before = await ctx.deps.host.readBytes(path);
      after = compute(before);
      changed = contentHash(after) !== contentHash(before);
      diff = createTwoFilesPatch(`a/${path}`, `b/${path}`, decodeText(before), decodeText(after), undefined, undefined, { context: 3 });
    } else {
      const r = await asCaller(ctx, [{ path, kind: 'modified' }], () => guarded(path, () => ctx.deps.host.writer.process(path, (b) => compute(b))), (x) => x.changed);
      ({ before, after, changed } = r);
    }
    const o = outcome as EditOutcome | null;
    const conv = await conventionsFor(ctx.vault, dirname(path));
    const hash = contentHash(after);
    const out = {
      path, mode, dry_run: args.dry_run, changed, content_hash: hash, previous_hash: contentHash(before),
      replaced: o?.replaced ?? 1,
      ...(o?.section ? { section: o.section.ordinal, heading: o.section.heading } : {}),
      size: after.length,
      ...(diff !== undefined ? { diff } : {}),
      conventions: echo(conv),
    };
    const what = args.dry_run ? `Dry run (${mode}) on ${path}: nothing written.${changed ? '' : ' The edit would change nothing.'}\n${diff}` :
      changed ? `Edited ${path} (${mode}${o?.section ? ` ${o.section.ordinal} "${o.section.heading}"` : ''}${mode === 'find' ? `, ${o?.replaced} replaced` : ''})\ncontent_hash: ${hash}` :
      `No change: ${path} already has this content.\ncontent_hash: ${hash}`;
    return { structured: out, text: what + conventionsText(conv) };
  },
});

export const setFrontmatterTool = defineTool({
  name: 'set_frontmatter',
  title: 'Set note properties',
  family: 'write',
  description:
    'Set or remove frontmatter properties (YAML keys) of a note without touching its body, which stays byte-identical. ' +
    'updates is an object of key → JSON value (strings, numbers, booleans, null, lists, objects); remove lists keys to delete. The YAML is changed structurally, so comments, key order and the quoting of untouched keys survive; a note without frontmatter gets a block. ' +
    'A malformed block is refused (malformed_note) with nothing written. Pass expected_hash from read_note to be safe against concurrent edits. To change the body use edit_note.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path; ".md" may be omitted'),
    updates: z.record(z.string().min(1), z.unknown()).default({}).describe('Properties to set: key → JSON value, e.g. {"status":"done","tags":["a","b"]}'),
    remove: z.array(z.string().min(1)).default([]).describe('Property keys to delete'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({
    path: z.string(), changed: z.boolean(), content_hash: z.string(), previous_hash: z.string(),
    set: z.array(z.string()).describe('Keys changed or added'), removed: z.array(z.string()).describe('Keys deleted'),
    conventions: conventionsOut,
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    if (!Object.keys(args.updates).length && !args.remove.length) refuse('invalid_argument', 'Nothing to do: pass updates (key → value) and/or remove (keys).');
    const s = ctx.deps.settings();
    requireHash(s, args.expected_hash, 'frontmatter changes');
    const stat = ctx.vault.requireNote(args.path);
    const path = stat.path;
    let set: string[] = [];
    let removed: string[] = [];
    const r = await asCaller(ctx, [{ path, kind: 'modified' }], () => guarded(path, () => ctx.deps.host.writer.process(path, (bytes) => {
      checkFresh(bytes, args.expected_hash, path);
      const { bom, text } = decodeNote(bytes, path);
      const ch = setFrontmatter(text, args.updates, args.remove, path);
      ({ set, removed } = ch);
      if (!ch.changed) return null;
      const out = encodeNote(bom, ch.text);
      checkSize(out.length, s, path);
      return out;
    })), (x) => x.changed);
    const conv = await conventionsFor(ctx.vault, dirname(path));
    const hash = contentHash(r.after);
    return {
      structured: { path, changed: r.changed, content_hash: hash, previous_hash: contentHash(r.before), set, removed, conventions: echo(conv) },
      text: (r.changed ? `Updated the frontmatter of ${path}${set.length ? `; set ${set.join(', ')}` : ''}${removed.length ? `; removed ${removed.join(', ')}` : ''}` : `No change: ${path} already has these properties.`) + `\ncontent_hash: ${hash}` + conventionsText(conv),
    };
  },
});

const linkReport = z.object({
  notes_changed: z.array(z.string()).describe('Notes whose links were rewritten'),
  links_rewritten: z.number().int(),
  skipped: z.array(z.string()).describe('Notes with links to the moved file(s) that were left as they were (outside your key\'s folder, not UTF-8, or changed meanwhile)'),
  by_app: z.boolean().describe('True when Obsidian\'s own "update internal links" did the rewriting'),
});

export const moveNote = defineTool({
  name: 'move_note',
  title: 'Move or rename a note',
  family: 'write',
  description:
    'Move or rename a note. The destination must not exist (already_exists; nothing is ever replaced); missing folders are created; ".md" is added to to_path when missing. ' +
    'rewrite_links=true rewrites every link that pointed at the note so it still does: [[Old]], [[Old|alias]], [[Old#heading]], ![[Old]], [[folder/Old]], relative [text](Old.md) and links in frontmatter, including the note\'s links to itself and its own relative links; aliases and anchors are kept, other text is not touched. ' +
    'With rewrite_links=false (default) only the file moves, and links by name keep working only if the name is still unique. expected_hash (from read_note) refuses the move if the note changed. For whole folders use move_folder.',
  input: z.strictObject({
    from_path: z.string().describe('Current vault-relative path of the note'),
    to_path: z.string().describe('New vault-relative path, e.g. "Archive/2024/Plan.md"'),
    rewrite_links: z.boolean().default(false).describe('Rewrite links in other notes (and this one) so they keep pointing at the note'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({ from_path: z.string(), to_path: z.string(), content_hash: z.string(), links: linkReport, conventions: conventionsOut }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    const stat = ctx.vault.requireNote(args.from_path, 'from_path');
    const from = stat.path;
    const to = writableNotePath(ctx, args.to_path, 'to_path');
    if (from === to) refuse('invalid_argument', `from_path and to_path are the same ("${from}").`);
    const host = ctx.deps.host;
    if (host.stat(to) || host.isFolder(to)) refuse('already_exists', `"${to}" already exists; nothing was moved. Pick another destination (or delete that note first).`, { path: to });
    const moves = new Map([[from, to]]);
    const plan = args.rewrite_links ? planLinkRewrites(host, moves) : null;
    let hash = '';
    const r = await asCaller(ctx, [{ path: to, kind: 'moved', from }], () => withAppLinkUpdates(ctx, plan, moves, () => guarded(to, () => host.writer.rename(from, to, {
      updateLinks: args.rewrite_links,
      check: (bytes) => { hash = checkFresh(bytes, args.expected_hash, from); },
    }))));
    const rep = plan && !r.linksUpdated ? await applyLinkRewrites(host, plan, moves, (p) => ctx.vault.visible(p), linkRewriteOwner(ctx, moves)) : { notes: [], links: 0, skipped: [] };
    if (!hash || rep.notes.includes(to)) hash = contentHash(await host.readBytes(to));
    const conv = await conventionsFor(ctx.vault, dirname(to));
    const links = { notes_changed: rep.notes, links_rewritten: rep.links, skipped: rep.skipped, by_app: r.linksUpdated };
    const linkText = r.linksUpdated ? '; links updated by Obsidian' : args.rewrite_links ? `; ${rep.links} link(s) rewritten in ${rep.notes.length} note(s)${rep.skipped.length ? `; left unchanged: ${rep.skipped.join(', ')}` : ''}` : '';
    return { structured: { from_path: from, to_path: to, content_hash: hash, links, conventions: echo(conv) }, text: `Moved ${from} → ${to}${linkText}\ncontent_hash: ${hash}${conventionsText(conv)}` };
  },
});

export const moveFolder = defineTool({
  name: 'move_folder',
  title: 'Move or rename a folder',
  family: 'write',
  description:
    'Move or rename a folder with everything in it. Every destination is checked first: if to_dir exists its contents are merged only when no file would collide; one collision refuses the whole move (already_exists, listing the collisions) and nothing moves. ' +
    'rewrite_links=true (default) rewrites links to every moved note and attachment, as move_note does. For a single note use move_note.',
  input: z.strictObject({
    from_dir: z.string().describe('Vault-relative folder to move, e.g. "Projects/Old"'),
    to_dir: z.string().describe('New vault-relative folder path, e.g. "Archive/Old"'),
    rewrite_links: z.boolean().default(true).describe('Rewrite links so they keep pointing at the moved files'),
  }),
  output: z.object({ from_dir: z.string(), to_dir: z.string(), moved: z.number().int().describe('Files moved'), links: linkReport }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const from = normalizeFolderPath(args.from_dir, 'from_dir');
    const to = normalizeFolderPath(args.to_dir, 'to_dir');
    if (from === '' || to === '') refuse('invalid_argument', 'The vault root cannot be moved or be the destination; name a folder.');
    if (!ctx.vault.isFolder(from) || from === ctx.vault.root) refuse('not_found', `No folder "${from}" (see list_folders).`);
    if (!ctx.vault.visible(to)) refuse('permission_denied', `"${to}" is outside the folder this key may write ("${ctx.vault.root}/").`);
    if (to === from || to.startsWith(from + '/')) refuse('invalid_argument', `Cannot move "${from}" into itself ("${to}").`);
    const host = ctx.deps.host;
    if (host.stat(to)) refuse('already_exists', `"${to}" is a file; nothing was moved.`, { collisions: [to] });
    const files = host.files().filter((f) => f.path.startsWith(from + '/'));
    const moves = new Map(files.map((f) => [f.path, to + f.path.slice(from.length)]));
    const merge = host.isFolder(to);
    if (merge) {
      const collisions = [...moves.values()].filter((p) => host.stat(p) || host.isFolder(p));
      for (const d of host.folders().filter((d) => d.startsWith(from + '/'))) { const t = to + d.slice(from.length); if (host.stat(t)) collisions.push(t); }
      if (collisions.length) refuse('already_exists', `${collisions.length} destination(s) already exist (${collisions.slice(0, 10).join(', ')}${collisions.length > 10 ? ', …' : ''}); nothing was moved. Move or rename those first, or pick another to_dir.`, { collisions: collisions.slice(0, 50) });
    }
    const plan = args.rewrite_links ? planLinkRewrites(host, moves) : null;
    let byApp = false;
    if (!merge) {
      const all: OwnWrite[] = [...moves].map(([a, b]) => ({ path: b, kind: 'moved', from: a }));
      byApp = (await asCaller(ctx, all, () => withAppLinkUpdates(ctx, plan, moves, () => guarded(to, () => host.writer.rename(from, to, { updateLinks: args.rewrite_links }))))).linksUpdated;
    } else {
      const results = [];
      for (const [a, b] of moves) results.push(await asCaller(ctx, [{ path: b, kind: 'moved', from: a }], () => withAppLinkUpdates(ctx, plan, new Map([[a, b]]), () => guarded(b, () => host.writer.rename(a, b, { updateLinks: args.rewrite_links })))));
      byApp = results.length > 0 && results.every((r) => r.linksUpdated);
      const dirs = host.folders().filter((d) => d === from || d.startsWith(from + '/')).sort((x, y) => y.length - x.length);
      for (const d of dirs) await host.writer.removeEmptyFolder(d);
    }
    const rep = plan && !byApp ? await applyLinkRewrites(host, plan, moves, (p) => ctx.vault.visible(p), linkRewriteOwner(ctx, moves)) : { notes: [], links: 0, skipped: [] };
    const links = { notes_changed: rep.notes, links_rewritten: rep.links, skipped: rep.skipped, by_app: byApp };
    return {
      structured: { from_dir: from, to_dir: to, moved: moves.size, links },
      text: `Moved folder ${from}/ → ${to}/ (${moves.size} files${merge ? ', merged into the existing folder' : ''})${byApp ? '; links updated by Obsidian' : args.rewrite_links ? `; ${rep.links} link(s) rewritten in ${rep.notes.length} note(s)` : ''}`,
    };
  },
});

export const deleteNote = defineTool({
  name: 'delete_note',
  title: 'Delete a note',
  family: 'write',
  description:
    'Delete a note. By default it goes to the trash and can be restored: in Obsidian per the user\'s "Deleted files" setting, headless to .trash/<YYYYMMDD-HHMMSS>-<name>-<8 hex>.md (never overwriting another trash entry). permanent=true removes it for good. ' +
    'Pass expected_hash (content_hash from read_note) so a note changed since you read it is not deleted. To move a note instead use move_note; for non-markdown files use delete_file.',
  input: z.strictObject({
    path: z.string().describe('Vault-relative note path; ".md" may be omitted'),
    permanent: z.boolean().default(false).describe('Delete for good instead of moving to the trash'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({ path: z.string(), permanent: z.boolean(), trashed_to: z.string().nullable().describe('Where the note went (null when permanent)'), previous_hash: z.string() }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    requireHash(ctx.deps.settings(), args.expected_hash, 'deleting a note');
    const path = ctx.vault.requireNote(args.path).path;
    return deleteAny(ctx, path, args.permanent, args.expected_hash, 'read_note');
  },
});

export async function deleteAny(ctx: ToolContext, path: string, permanent: boolean, expected: string | undefined, readWith: string) {
  let prev = '';
  const check = (bytes: Uint8Array) => { prev = checkFresh(bytes, expected, path, readWith); };
  const w = ctx.deps.host.writer;
  const reason = permanent ? `deleted permanently by the key "${ctx.caller.keyName}"` : `moved to the trash by the key "${ctx.caller.keyName}"`;
  const where = await asCaller(ctx, [{ path, kind: 'deleted', reason }], () => guarded(path, async () => (permanent ? await w.remove(path, check) : await w.trash(path, check))));
  return {
    structured: { path, permanent, trashed_to: where, previous_hash: prev },
    // In Obsidian a permanent delete still follows the "Deleted files" setting (where says so).
    text: permanent && !where ? `Deleted ${path} permanently.` : `Moved ${path} to the trash (${where}).`,
  };
}

/**
 * A rename during which the host may rewrite links itself (Obsidian's "update internal links"): every
 * note the plan says links to a moved file is attributed to the key while the rename runs; what the
 * app did not change is withdrawn afterwards. When the host did not update links, applyLinkRewrites
 * attributes its own writes instead.
 */
async function withAppLinkUpdates<T extends { linksUpdated: boolean }>(ctx: ToolContext, plan: LinkPlan | null, moves: Map<string, string>, rename: () => Promise<T>): Promise<T> {
  if (!plan || ctx.deps.host.kind !== 'obsidian') return rename();
  const what = moveLabel(moves);
  const maybe = attributeMaybe(ctx.deps.services, ctx.caller.keyName, [...plan.keys()].map((src) => ({ path: moves.get(src) ?? src, kind: 'modified' as const, reason: `links rewritten by Obsidian after moving ${what}` })));
  let r: T;
  try { r = await rename(); } catch (e) { maybe.withdraw(); throw e; }
  if (r.linksUpdated) await maybe.done(); else maybe.withdraw();
  return r;
}

const moveLabel = (moves: Map<string, string>) => (moves.size === 1 ? `"${[...moves.keys()][0]}" → "${[...moves.values()][0]}"` : `${moves.size} files`);

/** Attribution for the link rewrites a move makes in other notes (applyLinkRewrites). */
function linkRewriteOwner(ctx: ToolContext, moves: Map<string, string>) {
  const what = moveLabel(moves);
  return <T>(path: string, fn: () => Promise<T>, wrote: (r: T) => boolean) => asCaller(ctx, [{ path, kind: 'modified', reason: `links rewritten after moving ${what}` }], fn, wrote);
}

export const noteWriteTools = [createNote, editNote, setFrontmatterTool, moveNote, moveFolder, deleteNote];
export { isNotePath };
