// The four ways the IR collections are written into a vault (issue 14): the same documents, titled
// the ways real vaults title notes. `noteFor` gives one document's vault path and file text.
import type { Doc } from './ir.js';

export const LAYOUTS = ['title-name', 'id-h1', 'id-frontmatter', 'id-first-line'] as const;
export type Layout = (typeof LAYOUTS)[number];

export const LAYOUT_LABEL: Record<Layout, string> = {
  'title-name': 'file name = title, body only',
  'id-h1': '`0001 Short title.md`, `# Full title`, body',
  'id-frontmatter': '`0001.md`, frontmatter `title:`, body',
  'id-first-line': '`0001.md`, title as plain first line, body',
};

/** A file-name-safe form of a title (what people get when a title becomes a file name). */
export function safeName(title: string, max = 120): string {
  const t = title.replace(/[\\/:*?"<>|#^[\]]/g, ' ').replace(/\s+/g, ' ').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, max).trim();
  return t || 'untitled';
}

/** The first words of a title, as a short file name would hold them. */
function shortTitle(title: string): string {
  return safeName(title.split(/\s+/).slice(0, 4).join(' '), 60);
}

export function noteFor(d: Doc, layout: Layout): { path: string; text: string } {
  const id = d.id.padStart(4, '0');
  switch (layout) {
    // One folder per document: titles repeat in the collections, file names in a folder cannot.
    case 'title-name': return { path: `${d.id}/${safeName(d.title)}.md`, text: `${d.text}\n` };
    case 'id-h1': return { path: `${id} ${shortTitle(d.title)}.md`, text: `# ${d.title}\n\n${d.text}\n` };
    case 'id-frontmatter': return { path: `${id}.md`, text: `---\ntitle: ${JSON.stringify(d.title)}\n---\n${d.text}\n` };
    case 'id-first-line': return { path: `${id}.md`, text: `${d.title}\n\n${d.text}\n` };
  }
}
