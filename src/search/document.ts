// A note as the keyword index sees it: built from the host's metadata (the app's cache in Obsidian)
// plus the note's text. Frontmatter comes from the metadata when present, else from the text itself.
// The title (src/search/title.ts) is every form the note's title takes; a first line that is the title
// (an H1 naming the note, or the plain first line of an id-named note) leaves the body and the headings,
// so each layout of the same note indexes the same title and body.
import type { NoteMetadata } from '../core/markdown/metadata.js';
import { splitFrontmatter, parseFrontmatterYaml, noteTags, noteAliases } from '../core/markdown/frontmatter.js';
import type { IndexedDoc } from './invertedIndex.js';
import { noteTitles, plainInline } from './title.js';

export function buildDoc(path: string, text: string, meta: NoteMetadata | null): IndexedDoc {
  const split = splitFrontmatter(text);
  let fm = meta?.frontmatter;
  if (!fm && split.block) {
    const p = parseFrontmatterYaml(split.yaml);
    fm = p.ok && p.data ? p.data : undefined;
  }
  const t = noteTitles(path, split.body, fm);
  let headings = meta?.headings ?? [];
  if (t.h1) {
    const i = headings.findIndex((h) => h.level === 1);
    if (i >= 0 && plainInline(h1Text(headings[i].heading)) === t.h1) headings = headings.filter((_, j) => j !== i);
  }
  const tags = noteTags(fm, meta?.tags).map((x) => x.slice(1)).join(' ');
  return {
    id: path,
    title: t.id ? `${t.forms.join('\n')}\n${t.id}` : t.forms.join('\n'),
    titles: t.forms.join('\n'),
    aliases: noteAliases(fm).join('\n'),
    headings: headings.map((h) => h.heading).join('\n'),
    tags,
    body: t.titleLineLength ? split.body.slice(t.titleLineLength) : split.body,
  };
}

/** A heading's text as the cache gives it, without a closing `#` run. */
function h1Text(s: string): string {
  return s.replace(/\s+#+\s*$/, '').trim();
}
