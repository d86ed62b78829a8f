// Moving notes and folders: move_note and move_folder, with links rewritten so that every link that
// resolved before still opens the same file (in Obsidian by the app's own link update when it is on).
import { z } from 'zod';
import { defineTool, type ToolContext } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { normalizeFolderPath, dirname } from '../../core/paths.js';
import { checkHashArg, checkFresh, guarded, attributeMaybe, type OwnWrite } from '../../services/writeSupport.js';
import { planLinkRewrites, applyLinkRewrites, type LinkPlan } from '../../services/linkMoves.js';
import { asCaller, conventionsEcho, conventionsOut, writableNotePath, HASH } from './write-shared.js';
import { answer, hintOut, pathOut } from './results.js';

const LISTED = 20;

const linkReport = z.object({
  links_rewritten: z.number().int().describe('Links changed'),
  notes: z.array(z.string()).optional().describe(`Notes changed (first ${LISTED})`),
  skipped: z.array(z.string()).optional().describe('Left unchanged'),
}).describe('Links rewritten');

function linksOut(rep: { notes: string[]; links: number; skipped: string[] }) {
  return {
    links_rewritten: rep.links,
    ...(rep.notes.length ? { notes: rep.notes.slice(0, LISTED) } : {}),
    ...(rep.skipped.length ? { skipped: rep.skipped } : {}),
  };
}

/** Hints about the link rewrite: done by Obsidian itself, more notes than listed, notes left out. */
function linkHints(rep: { notes: string[]; skipped: string[] }, byApp: boolean): (string | false)[] {
  return [
    byApp && 'Obsidian updated the links itself (its "Automatically update internal links" setting).',
    rep.notes.length > LISTED && `${rep.notes.length} notes had links rewritten; the first ${LISTED} are listed.`,
    rep.skipped.length > 0 && `Links in ${rep.skipped.length} note(s) were left unchanged (see links.skipped): fix them by hand or they now dangle.`,
  ];
}

export const moveNote = defineTool({
  name: 'move_note',
  title: 'Move or rename a note',
  family: 'write',
  description:
    'Move or rename a note (never over another); rewrite_links=true updates every link to it, keeping aliases and anchors.',
  input: z.strictObject({
    from_path: z.string().describe('Note path or name'),
    to_path: z.string().describe('New path'),
    rewrite_links: z.boolean().default(false).describe('Update links to it'),
    expected_hash: z.string().optional().describe(HASH),
  }),
  output: z.object({ from_path: pathOut, to_path: pathOut, content_hash: z.string().describe('Its hash'), links: linkReport.optional(), conventions: conventionsOut, hint: hintOut }),
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
    const conv = await conventionsEcho(ctx, dirname(to));
    const linkText = r.linksUpdated ? '; links updated by Obsidian' : args.rewrite_links ? `; ${rep.links} link(s) rewritten in ${rep.notes.length} note(s)` : '';
    return answer({ from_path: from, to_path: to, content_hash: hash, ...(args.rewrite_links ? { links: linksOut(rep) } : {}), ...(conv.conventions ? { conventions: conv.conventions } : {}) }, `Moved ${from} → ${to}${linkText}\ncontent_hash: ${hash}${conv.text}`, linkHints(rep, r.linksUpdated));
  },
});

export const moveFolder = defineTool({
  name: 'move_folder',
  title: 'Move or rename a folder',
  family: 'write',
  description:
    'Move or rename a folder with its contents (merging only without collisions); rewrite_links keeps links working.',
  input: z.strictObject({
    from_dir: z.string().describe('Folder'),
    to_dir: z.string().describe('New path'),
    rewrite_links: z.boolean().default(true).describe('Update links'),
  }),
  output: z.object({ from_dir: z.string().describe('Old'), to_dir: z.string().describe('New'), moved: z.number().int().describe('Files moved'), links: linkReport.optional(), hint: hintOut }),
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
    return answer(
      { from_dir: from, to_dir: to, moved: moves.size, ...(args.rewrite_links ? { links: linksOut(rep) } : {}) },
      `Moved folder ${from}/ → ${to}/ (${moves.size} files${merge ? ', merged into the existing folder' : ''})${byApp ? '; links updated by Obsidian' : args.rewrite_links ? `; ${rep.links} link(s) rewritten in ${rep.notes.length} note(s)` : ''}`,
      linkHints(rep, byApp),
    );
  },
});

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

export const noteMoveTools = [moveNote, moveFolder];
