// The subset of Obsidian's `CachedMetadata` the core relies on. The Obsidian host passes the app's cache
// object straight through (it is structurally a superset); the Node host builds the same shape with
// `parseMarkdown`. Positions are 0-based lines/cols, offsets are UTF-16 indexes into the raw file text.

export interface Loc { line: number; col: number; offset: number }
export interface Pos { start: Loc; end: Loc }

export interface HeadingCache { heading: string; level: number; position: Pos }
export interface TagCache { tag: string; position: Pos } // tag includes the leading '#'
export interface ReferenceCache {
  link: string; // link target as written, without '|alias' (e.g. "Note#Heading", "folder/Note", "a b.md")
  original: string; // the full source text, e.g. "[[Note|alias]]" or "[t](<a b.md>)"
  displayText?: string;
  position: Pos;
}
export type LinkCache = ReferenceCache;
export type EmbedCache = ReferenceCache;
export interface ListItemCache {
  position: Pos;
  parent: number; // line of the parent list item, or negative (-(first line of the list)) for a root item, as Obsidian does
  task?: string; // the character inside [ ] for tasks; undefined for plain list items
  id?: string; // block id (^id) when present
}
export interface SectionCache { type: string; position: Pos; id?: string }
export interface FrontmatterLinkCache { key: string; link: string; original: string; displayText?: string }
export interface BlockCache { id: string; position: Pos }

export interface NoteMetadata {
  frontmatter?: Record<string, unknown>;
  frontmatterPosition?: Pos;
  frontmatterLinks?: FrontmatterLinkCache[];
  headings?: HeadingCache[];
  tags?: TagCache[]; // inline tags only (Obsidian keeps frontmatter tags in frontmatter)
  links?: LinkCache[]; // wikilinks and markdown links (not embeds)
  embeds?: EmbedCache[];
  listItems?: ListItemCache[];
  sections?: SectionCache[];
  blocks?: Record<string, BlockCache>;
}
