// A concise Obsidian syntax primer for agents writing into a vault (written for this project).
export const OBSIDIAN_PRIMER = `# Writing in an Obsidian vault

- Notes are markdown files; a note's title is its file name without ".md". Link notes with [[Note title]] (no ".md"), [[Note title|shown text]], a heading with [[Note#Heading]], a block with [[Note#^block-id]]. Links resolve by file name anywhere in the vault, so keep titles unique.
- Embed a note or attachment with ![[Note]] or ![[image.png]]; ![[Note#Heading]] embeds one section.
- Tags: #tag or nested #area/topic in the text (no spaces; not purely numeric), or in frontmatter as tags: [a, b].
- Frontmatter is a YAML block at the very top between two --- lines: title-independent properties such as tags, aliases (other names the note is found by), dates. Edit it with set_frontmatter so the YAML stays valid.
- Tasks: "- [ ] open", "- [x] done", "- [-] cancelled", "- [/] in progress"; the Tasks plugin adds 📅 YYYY-MM-DD (due), ⏳ (scheduled), 🛫 (start), ✅ (done); Dataview uses inline fields like [due:: 2026-01-31].
- Callouts: "> [!note] Title" then "> body" lines (types: note, tip, warning, danger, todo, quote…).
- Block ids: end a paragraph or list item with " ^my-id" to make it linkable.
- Comments %%like this%% are hidden in reading view. Code blocks and inline code are never parsed for links or tags.
- Safe editing here: read first and pass content_hash as expected_hash; prefer edit_note with find=, section= or append=true over rewriting a whole note; deletions go to the trash.`;
