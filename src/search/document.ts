// A note as the keyword index sees it: built from the host's metadata (the app's cache in Obsidian)
// plus the note's text. Frontmatter comes from the metadata when present, else from the text itself.
import type { NoteMetadata } from '../core/markdown/metadata.js';
import { splitFrontmatter, parseFrontmatterYaml, noteTags, noteAliases } from '../core/markdown/frontmatter.js';
import { noteTitle } from '../core/paths.js';
import type { IndexedDoc } from './keywordIndex.js';

export function buildDoc(path: string, text: string, meta: NoteMetadata | null): IndexedDoc {
  const split = splitFrontmatter(text);
  let fm = meta?.frontmatter;
  if (!fm && split.block) {
    const p = parseFrontmatterYaml(split.yaml);
    fm = p.ok && p.data ? p.data : undefined;
  }
  const headings = (meta?.headings ?? []).map((h) => h.heading).join('\n');
  const tags = noteTags(fm, meta?.tags).map((t) => t.slice(1)).join(' ');
  return {
    id: path,
    title: noteTitle(path),
    aliases: noteAliases(fm).join('\n'),
    headings,
    tags,
    body: split.body,
  };
}
