// Note writes: create_note, edit_note, set_frontmatter, delete_note (moves: notes-move.ts). Each reads
// and publishes through ctx.deps.host.writer (atomic, no clobber) and checks expected_hash under the
// writer's per-path lock. An edit from a stale read is refused, unless it names its target (find= or
// section=) and that target is unchanged in the current note: then it is applied there (rebased_from).
import { z } from 'zod';
import { createTwoFilesPatch } from 'diff';
import { defineTool, type ToolContext } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { applyEdit, type EditOp, type EditOutcome } from '../../core/edit.js';
import { diffAround, rebaseEdit, targetRange } from '../../core/rebase.js';
import { setFrontmatter } from '../../core/markdown/frontmatterEdit.js';
import { dirname } from '../../core/paths.js';
import { checkHashArg, requireHash, checkFresh, checkSize, decodeNote, encodeNote, decodeText, guarded } from '../../services/writeSupport.js';
import { versionsOf } from '../../services/versions.js';
import { asCaller, conventionsEcho, conventionsOut, deleteAny, deleteOut, writableNotePath, HASH } from './write-shared.js';
import { moveFolder, moveNote } from './notes-move.js';
import { answer, pathOut } from './results.js';

export const createNote = defineTool({
  name: 'create_note',
  title: 'Create a note',
  family: 'write',
  description:
    'Create a note with this content (frontmatter included); folders are added; an existing path is refused. Returns content_hash and the folder\'s conventions.',
  input: z.strictObject({
    path: z.string().describe('e.g. "Inbox/Idea.md"'),
    content: z.string().describe('Whole note text'),
    expected_hash: z.string().optional().describe('Not for new notes'),
  }),
  output: z.object({ path: pathOut, content_hash: z.string().describe('For expected_hash'), size: z.number().int().describe('Bytes'), conventions: conventionsOut }),
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
    versionsOf(host).remember(contentHash(bytes), decodeText(bytes));
    const conv = await conventionsEcho(ctx, dirname(path));
    return {
      structured: { path: st.path, content_hash: contentHash(bytes), size: bytes.length, ...(conv.conventions ? { conventions: conv.conventions } : {}) },
      text: `Created ${st.path} (${bytes.length} bytes)\ncontent_hash: ${contentHash(bytes)}${conv.text}`,
    };
  },
});

type Mode = 'replace' | 'append' | 'find' | 'section';

/** A stale expected_hash on a find/section edit: rebase onto the current text, or refuse with what changed. */
function staleTarget(ctx: ToolContext, path: string, expected: string, current: string, text: string, op: Extract<EditOp, { mode: 'find' | 'section' }>): { text: string; outcome: EditOutcome } {
  const old = versionsOf(ctx.deps.host).get(expected);
  const resend = `Redo the edit on the current text and resend with expected_hash="${current}".`;
  if (old === undefined) {
    let around = '';
    try {
      const r = targetRange(text, op, path);
      if (r) around = ` The target as it is now:\n${text.slice(r[0], Math.min(r[1], r[0] + 1200))}\n`;
    } catch { /* the target is not in the current note either */ }
    refuse('stale_precondition', `"${path}" changed since you read it, and the version you read (${expected}) is no longer known to this server, so the edit could not be checked against it; nothing was written.${around} ${resend}`, { current_hash: current });
  }
  const r = rebaseEdit(old, text, op, path);
  if (r.ok) return r;
  const range = (() => { try { return targetRange(old, op, path); } catch { return null; } })();
  const diff = diffAround(old, text, range?.[0] ?? 0, range?.[1] ?? 0);
  refuse('stale_precondition', `"${path}" changed since you read it and ${r.why}; nothing was written. What changed near the target (your read → now):\n${diff}\n${resend}`, { current_hash: current });
}

export const editNote = defineTool({
  name: 'edit_note',
  title: 'Edit a note',
  family: 'write',
  description:
    'Change a note: find="exact text" (once, or replace_all), section="Heading" (its body), append=true, or replace the body (frontmatter kept). ' +
    'With expected_hash from your read, a find/section edit still applies over others\' edits if its target is unchanged (rebased_from); else you get what changed.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    content: z.string().describe('New text'),
    append: z.boolean().default(false).describe('Add at the end'),
    find: z.string().optional().describe('Exact text to replace'),
    replace_all: z.boolean().default(false).describe('Every occurrence'),
    section: z.string().optional().describe('Heading, "Parent/Child" or "#N"'),
    dry_run: z.boolean().default(false).describe('Diff only'),
    replace_frontmatter: z.boolean().default(false).describe('Replace the whole file'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({
    path: pathOut,
    changed: z.boolean().describe('False: already so'),
    content_hash: z.string().describe('Hash after'),
    previous_hash: z.string().describe('Hash before'),
    rebased_from: z.string().optional().describe('Stale hash applied over'),
    replaced: z.number().int().optional().describe('Occurrences'),
    section: z.string().optional().describe('Section edited'),
    diff: z.string().optional().describe('Dry run diff'),
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
    // Set inside the writer's callback; a holder, so the type checker sees it can change.
    const rebase: { from: string | null } = { from: null };
    const compute = (bytes: Uint8Array): Uint8Array => {
      const current = contentHash(bytes);
      if (args.expected_hash !== undefined && current !== args.expected_hash && (op.mode === 'find' || op.mode === 'section')) {
        const { bom, text } = decodeNote(bytes, path);
        const r = staleTarget(ctx, path, args.expected_hash, current, text, op);
        outcome = r.outcome;
        rebase.from = args.expected_hash;
        const out = encodeNote(bom, r.text);
        checkSize(out.length, s, path);
        return out;
      }
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
      versionsOf(ctx.deps.host).remember(contentHash(after), decodeText(after).replace(/^\uFEFF/, ''));
    }
    const o = outcome as EditOutcome | null;
    const conv = await conventionsEcho(ctx, dirname(path));
    const hash = contentHash(after);
    const out = {
      path, changed, content_hash: hash, previous_hash: contentHash(before),
      ...(rebase.from ? { rebased_from: rebase.from } : {}),
      ...(mode === 'find' ? { replaced: o?.replaced ?? 0 } : {}),
      ...(o?.section ? { section: `${o.section.ordinal} ${o.section.heading}` } : {}),
      ...(diff !== undefined ? { diff } : {}),
      ...(conv.conventions ? { conventions: conv.conventions } : {}),
    };
    const what = args.dry_run ? `Dry run (${mode}) on ${path}: nothing written.${changed ? '' : ' The edit would change nothing.'}\n${diff}` :
      changed ? `Edited ${path} (${mode}${o?.section ? ` ${o.section.ordinal} "${o.section.heading}"` : ''}${mode === 'find' ? `, ${o?.replaced} replaced` : ''})\ncontent_hash: ${hash}` :
      `No change: ${path} already has this content.\ncontent_hash: ${hash}`;
    const rebased = rebase.from ? `\nRebased: the note changed since your read (${rebase.from}), but not where you edited; applied on the current note.` : '';
    return answer(out, what + rebased + conv.text);
  },
});

export const setFrontmatterTool = defineTool({
  name: 'set_frontmatter',
  title: 'Set note properties',
  family: 'write',
  description:
    'Set or remove frontmatter properties; the body and the YAML\'s comments and order stay as they are.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    updates: z.record(z.string().min(1), z.unknown()).default({}).describe('Key → value'),
    remove: z.array(z.string().min(1)).default([]).describe('Keys to delete'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({
    path: pathOut,
    changed: z.boolean().describe('False: already so'),
    content_hash: z.string().describe('Hash after'),
    previous_hash: z.string().describe('Hash before'),
    set: z.array(z.string()).optional().describe('Keys set'),
    removed: z.array(z.string()).optional().describe('Keys removed'),
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
    const conv = await conventionsEcho(ctx, dirname(path));
    const hash = contentHash(r.after);
    versionsOf(ctx.deps.host).remember(hash, decodeText(r.after).replace(/^\uFEFF/, ''));
    return {
      structured: { path, changed: r.changed, content_hash: hash, previous_hash: contentHash(r.before), ...(set.length ? { set } : {}), ...(removed.length ? { removed } : {}), ...(conv.conventions ? { conventions: conv.conventions } : {}) },
      text: (r.changed ? `Updated the frontmatter of ${path}${set.length ? `; set ${set.join(', ')}` : ''}${removed.length ? `; removed ${removed.join(', ')}` : ''}` : `No change: ${path} already has these properties.`) + `\ncontent_hash: ${hash}` + conv.text,
    };
  },
});

export const deleteNote = defineTool({
  name: 'delete_note',
  title: 'Delete a note',
  family: 'write',
  description: 'Delete a note: to the trash, or for good with permanent=true.',
  input: z.strictObject({
    path: z.string().describe('Note path or name'),
    permanent: z.boolean().default(false).describe('For good'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: deleteOut,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    checkHashArg(args.expected_hash);
    requireHash(ctx.deps.settings(), args.expected_hash, 'deleting a note');
    const path = ctx.vault.requireNote(args.path).path;
    return deleteAny(ctx, path, args.permanent, args.expected_hash, 'read_note');
  },
});

export const noteWriteTools = [createNote, editNote, setFrontmatterTool, moveNote, moveFolder, deleteNote];
