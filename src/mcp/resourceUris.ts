// The resource URIs this server hands out, and their parsing:
//   vault://guide          the vault guide (primer + the vault's CLAUDE.md / AGENTS.md), as get_vault_guide
//   vault://note/{+path}   a note's markdown, path segments percent-encoded
//   vault://toc/{+path}    a note's heading outline, as get_toc
import { refuse } from '../core/errors.js';
import { normalizeFilePath } from '../core/paths.js';

export const GUIDE_URI = 'vault://guide';
export const NOTE_TEMPLATE = 'vault://note/{+path}';
export const TOC_TEMPLATE = 'vault://toc/{+path}';

export type ParsedUri = { kind: 'guide' } | { kind: 'note' | 'toc'; path: string };

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export const noteUri = (path: string) => `vault://note/${encodePath(path)}`;
export const tocUri = (path: string) => `vault://toc/${encodePath(path)}`;

const HINT = 'This server\'s resources are vault://guide, vault://note/<path> and vault://toc/<path> (see resources/templates/list).';

/** Parses one of our URIs (refuses anything else); the path is normalised like a tool's path argument. */
export function parseUri(uri: string): ParsedUri {
  if (uri === GUIDE_URI) return { kind: 'guide' };
  const m = /^vault:\/\/(note|toc)\/(.+)$/.exec(uri);
  if (!m) refuse('not_found', `Unknown resource "${uri.slice(0, 200)}". ${HINT}`);
  let path: string;
  try {
    path = m[2].split('/').map((s) => decodeURIComponent(s)).join('/');
  } catch {
    refuse('invalid_argument', `The path in "${uri.slice(0, 200)}" is not valid percent-encoding. ${HINT}`);
  }
  return { kind: m[1] as 'note' | 'toc', path: normalizeFilePath(path, 'path in the resource URI') };
}

/** The one spelling of a URI (percent-encoding as noteUri/tocUri write it), to match subscriptions. */
export function canonicalUri(p: ParsedUri): string {
  return p.kind === 'guide' ? GUIDE_URI : p.kind === 'note' ? noteUri(p.path) : tocUri(p.path);
}
