// Our own metadata extraction, shaped like Obsidian's CachedMetadata, for the headless host.
//
// One pass over the lines of the raw text. Block state (frontmatter, fenced/indented code, math,
// `%%`/`<!-- -->` comments, HTML blocks) decides whether a line is scanned at all; every scanned line
// is then walked once, character by character, by `scanInline`, which steps over code spans, inline
// math, comments, escapes and URLs, and records wikilinks, markdown links, embeds and tags. All
// offsets are UTF-16 indexes into the raw string (a BOM and `\r` count), columns are relative to the
// raw line start. The scanners live beside this file: chars.ts (character classes, positions),
// inline.ts (one line's links, embeds, tags), blocks.ts (block-level tests), frontmatterFast.ts.
//
// Decisions (Obsidian's parser is closed source; these follow its documentation, its observable
// behaviour and CommonMark where the two agree):
// - Frontmatter: line 0 (after an optional U+FEFF) is `---`, closed by the next `---` line (`...` is
//   not accepted). Malformed YAML, or YAML that is not a mapping, still gives `frontmatterPosition` and
//   a 'yaml' section (the block is still not body text) but no `frontmatter` field, like Obsidian's
//   "invalid properties". An empty block gives `frontmatter: {}`. Without a closing line there is no
//   frontmatter and the `---` is an ordinary thematic break.
// - Tags: `#` then one or more characters that are not whitespace, not ASCII punctuation other than
//   `-` `_` `/`, and not in U+2000–U+206F / U+2E00–U+2E7F (the set Obsidian's tag syntax excludes);
//   the body needs one character other than an ASCII digit (`#2024` is no tag, `#y2024` and `#2024/01`
//   are). The `#` must start the line (after container markers), follow whitespace, directly follow a
//   previous tag (`#a#b` is two tags, as in Obsidian), or follow only emphasis/highlight markers
//   (`**#tag**`, `==#tag==`) that themselves start the line or follow whitespace. `(#tag)`, `a#b` and
//   `x.com/#anchor` are not tags. Not inside code, math, comments, URLs, links or HTML blocks.
// - Headings: ATX (0–3 spaces, 1–6 `#`, then a space/tab or end of line; trailing ` #…` closing
//   sequence removed, text trimmed) and setext (a top-level paragraph followed by a `===` or `---`
//   underline; the paragraph's lines, joined by a space, are the text; the position spans from the
//   text to the underline). Headings inside block quotes, callouts and list items are not headings.
// - Lists: CommonMark-style nesting: an item is the child of the nearest open item whose content
//   column it reaches; root items get `parent = -(line of the list's first item)` (so 0 for a list on
//   line 0, as Obsidian). A list ends at a blank line followed by an unindented non-item line, or at
//   any other block; changing bullet character or `.`/`)` starts a new list. Items inside block quotes
//   and callouts count (Obsidian indexes tasks there). An item's position runs from its marker to the
//   end of its own text (lazy/indented paragraph continuation lines, not its children).
// - Block ids: ` ^id` (Latin letters, digits, `-`) at the end of a paragraph's last line or a list
//   item; a paragraph that is only `^id` names the block before it. Keys of `blocks` are lower-cased.
// - Indented code (4+ columns after a blank line, outside lists) is code, as in CommonMark.
import { C_TAB, C_SPACE, C_BANG, C_HASH, C_DOLLAR, C_PCT, C_STAR, C_DASH, C_LT, C_EQ, C_LBRACK, C_RBRACK, C_CARET, C_UNDER, C_TICK, C_PIPE, C_TILDE, isWs, Positions, find } from './chars.js';
import type { BlockCache, HeadingCache, ListItemCache, NoteMetadata, SectionCache } from './metadata.js';
import { parseFrontmatterYaml } from './frontmatter.js';
import { scanInline, type InlineOut, type InlineState } from './inline.js';
import { frontmatterLinks, simpleYaml } from './frontmatterFast.js';
import { BLOCK_ID_ALONE, HTML_BLOCK_TAGS, HTML_LONE_TAG, HTML_OPEN, HTML_RAW, TABLE_DELIM, THEMATIC, blockIdAt, indentInfo, isBlankRange, isFenceOfDashes, lineEndOfText, listMarker, stripQuotes, type ListFrame } from './blocks.js';

export function parseMarkdown(src: string): NoteMetadata {
  // Line starts (raw), and per-line content end (excluding \r\n).
  const lineStarts: number[] = [0];
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const nLines = lineStarts.length;
  const lineEnd = (n: number): number => {
    const e = n + 1 < nLines ? lineStarts[n + 1] - 1 : src.length;
    return e > lineStarts[n] && src.charCodeAt(e - 1) === 13 ? e - 1 : e;
  };
  const P = new Positions(lineStarts);
  const meta: NoteMetadata = {};
  const headings: HeadingCache[] = [];
  const out: InlineOut = { links: [], embeds: [], tags: [] };
  const listItems: ListItemCache[] = [];
  const sections: SectionCache[] = [];
  const blocks: Record<string, BlockCache> = {};
  const st: InlineState = { pct: false, html: false };
  const bom = src.charCodeAt(0) === 0xfeff ? 1 : 0;
  let n = 0;

  // Frontmatter.
  {
    const e0 = lineEnd(0);
    if (isFenceOfDashes(src, bom, e0)) {
      for (let k = 1; k < nLines; k++) {
        const s = lineStarts[k];
        const e = lineEnd(k);
        if (isFenceOfDashes(src, s, e)) {
          const pos = P.pos(0, 0, e, k);
          meta.frontmatterPosition = pos;
          sections.push({ type: 'yaml', position: pos });
          const yamlText = k === 1 ? '' : src.slice(lineStarts[1], s);
          const fast = simpleYaml(yamlText);
          const parsed = fast ? { ok: true, data: fast } : parseFrontmatterYaml(yamlText);
          if (parsed.ok && parsed.data) {
            meta.frontmatter = parsed.data;
            const fl = frontmatterLinks(parsed.data);
            if (fl.length) meta.frontmatterLinks = fl;
          }
          n = k + 1;
          break;
        }
      }
    }
  }

  // Block state.
  type Block = { type: string; startLine: number; startOff: number; endLine: number; endOff: number };
  let cur: Block | null = null; // the open leaf/container section (paragraph, list, blockquote, table…)
  let fence: { ch: number; len: number; quote: number; startLine: number } | null = null;
  let math: { startLine: number; quote: number } | null = null;
  let htmlBlock: { startLine: number; until: RegExp | null } | null = null;
  let commentBlock: { startLine: number; pct: boolean } | null = null;
  const quoteList: { first: number; depth: number; stack: ListFrame[] } = { first: -1, depth: 0, stack: [] };
  let indentedCode: { startLine: number; endLine: number } | null = null;
  let prevBlank = true;
  // Lists.
  let listFirstLine = -1;
  let listKind = ''; // bullet char or '.' / ')' of the root list
  let stack: ListFrame[] = [];
  let lastItem: ListFrame | null = null; // item whose paragraph the next lazy/indented line continues
  let lazyOpen = false;
  let paraLines: number[] = []; // lines of the current top-level paragraph (for setext)

  const endList = () => { listFirstLine = -1; listKind = ''; stack = []; lastItem = null; };
  const flush = () => {
    if (!cur) return;
    const c: Block = cur;
    cur = null;
    const sec: SectionCache = { type: c.type, position: P.pos(c.startLine, c.startOff, c.endOff, c.endLine) };
    if (c.type === 'paragraph') {
      const ls = lineStarts[c.endLine];
      const m = blockIdAt(src, ls, c.endOff);
      if (m) {
        const alone = BLOCK_ID_ALONE.test(src.slice(c.startOff, c.endOff).trim());
        if (alone && c.startLine === c.endLine && sections.length) {
          // `^id` on its own names the previous block (tables, quotes, callouts, lists).
          const prev = sections[sections.length - 1];
          if (prev.type !== 'yaml' && prev.type !== 'heading') {
            prev.id = m[1];
            blocks[m[1].toLowerCase()] = { id: m[1], position: prev.position };
            return;
          }
        }
        sec.id = m[1];
        blocks[m[1].toLowerCase()] = { id: m[1], position: sec.position };
      }
    }
    sections.push(sec);
  };
  const open = (type: string, line: number, startOff: number, endOff: number) => {
    if (cur && cur.type === type && type !== 'heading' && type !== 'thematicBreak') { cur.endLine = line; cur.endOff = endOff; return; }
    flush();
    cur = { type, startLine: line, startOff, endLine: line, endOff };
  };
  const closeBlockSection = (type: string, startLine: number, endLine: number) => {
    flush();
    sections.push({ type, position: P.pos(startLine, lineStarts[startLine], lineEnd(endLine), endLine) });
  };

  for (; n < nLines; n++) {
    const ls = lineStarts[n];
    const le = lineEnd(n);
    const s0 = n === 0 ? bom : ls; // content start of this raw line

    // ---- Inside multi-line constructs ----
    if (fence) {
      const q = stripQuotes(src, s0, le, fence.quote);
      if (fence.quote > 0 && q.depth < fence.quote) {
        closeBlockSection('code', fence.startLine, n - 1); fence = null; // quote ended: fence closes
      } else {
        const ii = indentInfo(src, q.start, le);
        let k = ii.end;
        while (k < le && src.charCodeAt(k) === fence.ch) k++;
        if (k - ii.end >= fence.len && isBlankRange(src, k, le)) { closeBlockSection('code', fence.startLine, n); fence = null; prevBlank = false; }
        continue;
      }
    }
    if (math) {
      if (find(src, '$$', s0, le) >= 0) { closeBlockSection('math', math.startLine, n); math = null; prevBlank = false; }
      continue;
    }
    if (commentBlock) {
      // A `%%` or `<!--` comment that began at the start of a block: nothing inside is parsed.
      const wasPct = commentBlock.pct;
      const close = wasPct ? find(src, '%%', s0, le) : find(src, '-->', s0, le);
      if (close < 0) continue;
      st.pct = false; st.html = false;
      const after = close + (wasPct ? 2 : 3);
      closeBlockSection('comment', commentBlock.startLine, n);
      commentBlock = null;
      if (isBlankRange(src, after, le)) { prevBlank = false; continue; }
      scanInline(src, after, le, n, P, st, out);
      continue;
    }
    if (htmlBlock) {
      if (htmlBlock.until ? htmlBlock.until.test(src.slice(s0, le)) : isBlankRange(src, s0, le)) {
        const byBlank = !htmlBlock.until;
        closeBlockSection('html', htmlBlock.startLine, byBlank ? n - 1 : n);
        htmlBlock = null;
        prevBlank = byBlank;
      }
      continue;
    }
    if (st.pct || st.html) {
      // A comment opened mid-line continues: hide until it closes, then scan the rest inline.
      const wasPct = st.pct;
      const close = wasPct ? find(src, '%%', s0, le) : find(src, '-->', s0, le);
      if (close < 0) { if (cur) { cur.endLine = n; cur.endOff = le; } continue; }
      st.pct = false; st.html = false;
      scanInline(src, close + (wasPct ? 2 : 3), le, n, P, st, out);
      if (cur) { cur.endLine = n; cur.endOff = le; }
      continue;
    }

    // ---- Blank lines ----
    if (isBlankRange(src, s0, le)) {
      flush();
      paraLines = [];
      lazyOpen = false; // items stay open, but the lazy continuation of their paragraph ends
      prevBlank = true;
      continue;
    }

    // ---- Indented code (outside lists, after a blank line or another indented-code line) ----
    const ind0 = indentInfo(src, s0, le);
    if (indentedCode) {
      if (ind0.cols >= 4) { indentedCode.endLine = n; continue; }
      closeBlockSection('code', indentedCode.startLine, indentedCode.endLine);
      indentedCode = null;
    }
    if (ind0.cols >= 4 && listFirstLine < 0 && !cur) {
      indentedCode = { startLine: n, endLine: n };
      prevBlank = false;
      continue;
    }

    // ---- Containers: block quotes ----
    const q = stripQuotes(src, s0, le, 99);
    const cs = q.start; // content start after quote markers
    const inQuote = q.depth > 0;
    const ind = inQuote ? indentInfo(src, cs, le) : ind0;
    const first = src.charCodeAt(ind.end);
    const wasBlank = prevBlank;
    prevBlank = false;

    // List continuation bookkeeping: an unindented non-item line after a blank ends the list.
    const item = !inQuote && (ind.cols < 4 || listFirstLine >= 0) ? listMarker(src, ind.end, le) : null;
    if (listFirstLine >= 0 && !item && (wasBlank ? ind.cols < (stack[0]?.contentCol ?? 2) : false) && !inQuote) endList();

    // ---- Fences ----
    if (first === C_TICK || first === C_TILDE) {
      let k = ind.end;
      while (k < le && src.charCodeAt(k) === first) k++;
      const len = k - ind.end;
      if (len >= 3 && (ind.cols < 4 || listFirstLine >= 0) && !(first === C_TICK && find(src, '`', k, le) >= 0)) {
        flush(); paraLines = [];
        if (listFirstLine >= 0 && ind.cols < (stack[0]?.contentCol ?? 0)) endList();
        fence = { ch: first, len, quote: q.depth, startLine: n };
        continue;
      }
    }
    // ---- Math block ----
    if (first === C_DOLLAR && src.charCodeAt(ind.end + 1) === C_DOLLAR) {
      const close = find(src, '$$', ind.end + 2, le);
      if (close < 0) { flush(); paraLines = []; math = { startLine: n, quote: q.depth }; continue; }
      if (isBlankRange(src, close + 2, le)) { flush(); paraLines = []; sections.push({ type: 'math', position: P.pos(n, ls, le) }); continue; }
    }
    // ---- Comment blocks starting a line ----
    if (!cur && (first === C_PCT && src.charCodeAt(ind.end + 1) === C_PCT || first === C_LT && src.startsWith('<!--', ind.end))) {
      const isPct = first === C_PCT;
      const close = isPct ? find(src, '%%', ind.end + 2, le) : find(src, '-->', ind.end + 4, le);
      if (close < 0) {
        flush(); paraLines = [];
        if (isPct) st.pct = true; else st.html = true;
        commentBlock = { startLine: n, pct: isPct };
        continue;
      }
      if (isBlankRange(src, close + (isPct ? 2 : 3), le)) { flush(); paraLines = []; sections.push({ type: 'comment', position: P.pos(n, ls, le) }); continue; }
    }
    // ---- HTML blocks ----
    if (first === C_LT && ind.cols < 4 && !inQuote && listFirstLine < 0) {
      const rest = src.slice(ind.end, le);
      const raw = HTML_RAW.exec(rest);
      const tag = HTML_OPEN.exec(rest);
      if (raw || (tag && HTML_BLOCK_TAGS.has(tag[1].toLowerCase())) || (!cur && HTML_LONE_TAG.test(rest))) {
        flush(); paraLines = [];
        const until = raw ? new RegExp(`</${raw[1]}>`, 'i') : null;
        if (until ? until.test(rest.slice(raw![0].length)) : false) { sections.push({ type: 'html', position: P.pos(n, ls, le) }); continue; }
        htmlBlock = { startLine: n, until };
        if (!until && n + 1 >= nLines) closeBlockSection('html', n, n);
        continue;
      }
    }

    // ---- ATX headings (top level only) ----
    if (first === C_HASH && ind.cols < 4 && !inQuote && !(listFirstLine >= 0 && ind.cols >= (stack[0]?.contentCol ?? 99))) {
      let k = ind.end;
      while (k < le && src.charCodeAt(k) === C_HASH) k++;
      const level = k - ind.end;
      const after = src.charCodeAt(k);
      if (level <= 6 && (k === le || after === C_SPACE || after === C_TAB)) {
        flush(); paraLines = []; endList();
        // Text: trim, then drop a closing sequence of '#'s preceded by a space (or the whole text).
        let a = k;
        while (a < le && isWs(src.charCodeAt(a))) a++;
        let b = le;
        while (b > a && isWs(src.charCodeAt(b - 1))) b--;
        let h = b;
        while (h > a && src.charCodeAt(h - 1) === C_HASH) h--;
        if (h < b && (h === a || src.charCodeAt(h - 1) === C_SPACE || src.charCodeAt(h - 1) === C_TAB)) {
          b = h;
          while (b > a && isWs(src.charCodeAt(b - 1))) b--;
        }
        headings.push({ heading: src.slice(a, b), level, position: P.pos(n, ind.end, le) });
        sections.push({ type: 'heading', position: P.pos(n, ind.end, le) });
        scanInline(src, k, le, n, P, st, out);
        continue;
      }
    }

    // ---- Setext underline / thematic break ----
    if ((first === C_EQ || first === C_DASH) && ind.cols < 4 && !inQuote && paraLines.length && cur && cur.type === 'paragraph' && listFirstLine < 0) {
      let k = ind.end;
      while (k < le && src.charCodeAt(k) === first) k++;
      if (isBlankRange(src, k, le)) {
        const startLine = paraLines[0];
        const text = paraLines.map((l) => src.slice(lineStarts[l], lineEnd(l)).trim()).join(' ');
        const startOff = indentInfo(src, lineStarts[startLine] + (startLine === 0 ? bom : 0), lineEnd(startLine)).end;
        cur = null; // the paragraph becomes the heading
        const pos = P.pos(startLine, startOff, le, n);
        headings.push({ heading: text, level: first === C_EQ ? 1 : 2, position: pos });
        sections.push({ type: 'heading', position: pos });
        paraLines = [];
        continue;
      }
    }
    if ((first === C_STAR || first === C_DASH || first === C_UNDER) && ind.cols < 4 && THEMATIC.test(src.slice(ind.end, le))) {
      flush(); paraLines = [];
      if (!inQuote) endList();
      sections.push({ type: 'thematicBreak', position: P.pos(n, ind.end, le) });
      continue;
    }

    // ---- List items ----
    if (item && !(item.ordered && item.start !== 1 && listFirstLine < 0 && cur && cur.type === 'paragraph') && !(item.empty && listFirstLine < 0 && cur && cur.type === 'paragraph')) {
      const markerCol = ind.cols;
      const contentCol = markerCol + item.width + item.pad;
      if (listFirstLine >= 0) {
        while (stack.length && markerCol < stack[stack.length - 1].contentCol) stack.pop();
        if (!stack.length && item.kind !== listKind) endList();
      }
      if (listFirstLine < 0) { flush(); paraLines = []; listFirstLine = n; listKind = item.kind; stack = []; }
      const parent = stack.length ? stack[stack.length - 1].line : (listFirstLine === 0 ? 0 : -listFirstLine);
      const li: ListItemCache = { position: P.pos(n, ind.end, le), parent };
      const after = ind.end + item.width + item.pad;
      if (src.charCodeAt(after) === C_LBRACK && src.charCodeAt(after + 2) === C_RBRACK && after + 2 < le) {
        const t3 = src.charCodeAt(after + 3);
        const code = src.codePointAt(after + 1)!;
        if (code < 0xd800 || code > 0xdfff) {
          if (after + 3 >= le || t3 === C_SPACE || t3 === C_TAB) li.task = src[after + 1];
        }
      }
      const bid = blockIdAt(src, after, le);
      if (bid) { li.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: li.position }; }
      listItems.push(li);
      const frame: ListFrame = { markerCol, contentCol, line: n, item: li };
      stack.push(frame);
      lastItem = frame;
      lazyOpen = true;
      if (cur && cur.type === 'list') { cur.endLine = n; cur.endOff = le; }
      else { flush(); cur = { type: 'list', startLine: n, startOff: ind.end, endLine: n, endOff: le }; }
      scanInline(src, after, le, n, P, st, out);
      continue;
    }
    if (listFirstLine >= 0 && !inQuote) {
      // Continuation: indented text inside an item, or a lazy continuation of its paragraph.
      const top = stack[stack.length - 1];
      const lazy = !wasBlank && lazyOpen && lastItem !== null;
      if ((top && ind.cols >= top.contentCol) || lazy || ind.cols > 0) {
        if (lastItem && lazyOpen && (lazy || ind.cols >= (top?.contentCol ?? 0))) {
          lastItem.item.position.end = P.loc(n, le);
          const bid = blockIdAt(src, ind.end, le);
          if (bid) { lastItem.item.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: lastItem.item.position }; }
        }
        if (cur && cur.type === 'list') { cur.endLine = n; cur.endOff = le; }
        else { flush(); cur = { type: 'list', startLine: n, startOff: ind.end, endLine: n, endOff: le }; }
        scanInline(src, ind.end, le, n, P, st, out);
        continue;
      }
      endList();
    }

    // ---- Leaf blocks: quote / callout / table / footnote / paragraph ----
    let type: string;
    if (inQuote) {
      const isCallout = q.depth > 0 && src.charCodeAt(cs) === C_LBRACK && src.charCodeAt(cs + 1) === C_BANG;
      type = isCallout ? 'callout' : cur && (cur.type === 'callout') ? 'callout' : 'blockquote';
      if (isCallout && cur && cur.type === 'callout') flush(); // a new callout starts
      paraLines = [];
      // Lists inside quotes/callouts: record items (parents relative to this quote).
      const qi = listMarker(src, ind.end, le);
      if (qi) {
        const markerCol = ind.cols;
        if (quoteList.first < 0 || quoteList.depth !== q.depth) { quoteList.first = n; quoteList.depth = q.depth; quoteList.stack = []; }
        const qs = quoteList.stack;
        while (qs.length && markerCol < qs[qs.length - 1].contentCol) qs.pop();
        const parent = qs.length ? qs[qs.length - 1].line : (quoteList.first === 0 ? 0 : -quoteList.first);
        const li: ListItemCache = { position: P.pos(n, ind.end, le), parent };
        const after = ind.end + qi.width + qi.pad;
        if (src.charCodeAt(after) === C_LBRACK && src.charCodeAt(after + 2) === C_RBRACK && after + 2 < le) {
          const t3 = src.charCodeAt(after + 3);
          if (after + 3 >= le || t3 === C_SPACE || t3 === C_TAB) li.task = src[after + 1];
        }
        const bid = blockIdAt(src, after, le);
        if (bid) { li.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: li.position }; }
        listItems.push(li);
        qs.push({ markerCol, contentCol: markerCol + qi.width + qi.pad, line: n, item: li });
      } else if (isBlankRange(src, cs, le)) { quoteList.first = -1; }
    } else {
      quoteList.first = -1;
      if (first === C_PIPE || (cur && cur.type === 'table' && find(src, '|', ind.end, le) >= 0) || (find(src, '|', ind.end, le) >= 0 && n + 1 < nLines && TABLE_DELIM.test(src.slice(lineStarts[n + 1], lineEnd(n + 1)).trim()) && find(src, '-', lineStarts[n + 1], lineEnd(n + 1)) >= 0)) type = 'table';
      else if (first === C_LBRACK && src.charCodeAt(ind.end + 1) === C_CARET && /^\[\^[^\]]+\]:/.test(src.slice(ind.end, le))) type = 'footnoteDefinition';
      else type = cur && cur.type === 'footnoteDefinition' && !wasBlank ? 'footnoteDefinition' : 'paragraph';
    }
    if (type === 'paragraph' && cur && cur.type !== 'paragraph') flush();
    open(type, n, inQuote ? ls : ind.end, le);
    if (type === 'paragraph' && !inQuote) paraLines.push(n); else paraLines = [];
    scanInline(src, inQuote ? cs : ind.end, le, n, P, st, out);
  }
  if (fence) closeBlockSection('code', fence.startLine, nLines - 1);
  if (math) closeBlockSection('math', math.startLine, nLines - 1);
  if (commentBlock) closeBlockSection('comment', commentBlock.startLine, nLines - 1);
  if (htmlBlock) closeBlockSection('html', htmlBlock.startLine, nLines - 1);
  if (indentedCode) closeBlockSection('code', indentedCode.startLine, indentedCode.endLine);
  flush();

  if (headings.length) meta.headings = headings;
  if (out.tags.length) meta.tags = out.tags;
  if (out.links.length) meta.links = out.links;
  if (out.embeds.length) meta.embeds = out.embeds;
  if (listItems.length) meta.listItems = listItems;
  if (sections.length) meta.sections = sections.sort((a, b) => a.position.start.offset - b.position.start.offset);
  if (Object.keys(blocks).length) meta.blocks = blocks;
  return meta;
}

/** True when a fence opener has no closer: section edits refuse such notes rather than guess. */
export function hasUnclosedFence(src: string): boolean {
  const meta = parseMarkdown(src);
  const lastCode = (meta.sections ?? []).filter((s) => s.type === 'code');
  if (!lastCode.length) return false;
  // An unclosed fence runs to the end of the text; check that its last line is not a closing fence.
  const s = lastCode[lastCode.length - 1];
  if (s.position.end.offset < lineEndOfText(src)) return false;
  const block = src.slice(s.position.start.offset, s.position.end.offset);
  const lines = block.split(/\r?\n/);
  const open = /^[ \t>]*(`{3,}|~{3,})/.exec(lines[0]);
  if (!open) return false; // indented code
  if (lines.length < 2) return true;
  const last = lines[lines.length - 1].replace(/^[ \t>]*/, '');
  const m = /^(`{3,}|~{3,})[ \t]*$/.exec(last);
  return !(m && m[1][0] === open[1][0] && m[1].length >= open[1].length);
}
export const __simpleYamlForTests = simpleYaml;
