// Our own metadata extraction, shaped like Obsidian's CachedMetadata, for the headless host.
// One pass over lines; block state (frontmatter, fences, math, comments) decides what is parsed, then
// each content line is scanned with code spans and comments masked so offsets stay exact.
// Decisions: ATX headings only (0–3 spaces of indent, as CommonMark); tags need a preceding start of
// line or whitespace/punctuation and at least one non-digit; malformed frontmatter YAML gives a
// frontmatterPosition but no `frontmatter` (Obsidian shows such a note's properties as invalid).
import type { HeadingCache, ListItemCache, Loc, NoteMetadata, Pos, ReferenceCache, SectionCache, TagCache, FrontmatterLinkCache, BlockCache } from './metadata.js';
import { parseFrontmatterYaml } from './frontmatter.js';

interface Line { text: string; start: number; end: number; n: number } // end excludes the line break

function splitLines(src: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  let n = 0;
  for (;;) {
    const nl = src.indexOf('\n', start);
    const rawEnd = nl < 0 ? src.length : nl;
    const end = rawEnd > start && src.charCodeAt(rawEnd - 1) === 13 ? rawEnd - 1 : rawEnd;
    out.push({ text: src.slice(start, end), start, end, n });
    if (nl < 0) break;
    start = nl + 1;
    n++;
  }
  return out;
}

const loc = (line: Line, col: number): Loc => ({ line: line.n, col, offset: line.start + col });
const span = (line: Line, from: number, to: number): Pos => ({ start: loc(line, from), end: loc(line, to) });

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const LIST = /^([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const TASK = /^\[(.)\](?=[ \t]|$)/u;
const BLOCK_ID = /(?:^|\s)\^([A-Za-z0-9-]+)[ \t]*$/;
const TAG_BODY = /[\p{L}\p{N}\p{M}_\-/\u200d\u{1F300}-\u{1FAFF}]/u;
const TAG_BREAK_BEFORE = /[\s([{,;:!?"'«“]/u;
const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** Replaces inline code spans and %%comments%% with spaces, keeping every offset. */
function maskInline(text: string, inComment: { on: boolean }): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (inComment.on) {
      const close = text.indexOf('%%', i);
      if (close < 0) { out += ' '.repeat(text.length - i); i = text.length; break; }
      out += ' '.repeat(close + 2 - i);
      i = close + 2;
      inComment.on = false;
      continue;
    }
    const c = text[i];
    if (c === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      const ticks = '`'.repeat(run);
      let j = text.indexOf(ticks, i + run);
      while (j >= 0 && text[j + run] === '`') j = text.indexOf(ticks, j + run + 1);
      if (j < 0) { out += text.slice(i, i + run); i += run; continue; }
      out += ' '.repeat(j + run - i);
      i = j + run;
      continue;
    }
    if (c === '%' && text[i + 1] === '%') { inComment.on = true; out += '  '; i += 2; continue; }
    if (c === '<' && text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      const to = close < 0 ? text.length : close + 3;
      out += ' '.repeat(to - i);
      i = to;
      continue;
    }
    if (c === '\\' && i + 1 < text.length) { out += text.slice(i, i + 2); i += 2; continue; }
    out += c;
    i++;
  }
  return out;
}

function blank(s: string, from: number, to: number): string {
  return s.slice(0, from) + ' '.repeat(to - from) + s.slice(to);
}

function decodeLinkTarget(t: string): string {
  try { return decodeURIComponent(t); } catch { return t; }
}

/** Wikilinks, embeds and markdown links of one masked line; returns the line with them blanked. */
function scanLinks(line: Line, masked: string, links: ReferenceCache[], embeds: ReferenceCache[]): string {
  let s = masked;
  const wiki = /(!?)\[\[([^\[\]\n]*?)\]\]/g;
  for (let m = wiki.exec(masked); m; m = wiki.exec(masked)) {
    const inner = m[2];
    if (inner.trim() === '') continue;
    const bar = inner.search(/\\?\|/);
    const target = (bar < 0 ? inner : inner.slice(0, bar)).trim();
    const alias = bar < 0 ? undefined : inner.slice(bar + (inner[bar] === '\\' ? 2 : 1)).trim();
    const from = m.index;
    const to = from + m[0].length;
    const ref: ReferenceCache = { link: target, original: line.text.slice(from, to), displayText: alias || target, position: span(line, from, to) };
    (m[1] ? embeds : links).push(ref);
    s = blank(s, from, to);
  }
  const md = /(!?)\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]\(\s*(<[^<>\n]*>|[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g;
  for (let m = md.exec(s); m; m = md.exec(s)) {
    let target = m[3];
    if (target.startsWith('<')) target = target.slice(1, -1);
    const from = m.index;
    const to = from + m[0].length;
    if (SCHEME.test(target) || target === '' || target.startsWith('#') && target.length === 1) continue;
    const ref: ReferenceCache = { link: decodeLinkTarget(target), original: line.text.slice(from, to), displayText: m[2], position: span(line, from, to) };
    (m[1] ? embeds : links).push(ref);
    s = blank(s, from, to);
  }
  // Bare URLs hide their '#fragments' from the tag scanner.
  const url = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^\s<>()]+/g;
  for (let m = url.exec(s); m; m = url.exec(s)) s = blank(s, m.index, m.index + m[0].length);
  return s;
}

function scanTags(line: Line, s: string, tags: TagCache[]): void {
  for (let i = s.indexOf('#'); i >= 0; i = s.indexOf('#', i + 1)) {
    if (i > 0 && !TAG_BREAK_BEFORE.test(s[i - 1])) continue;
    let j = i + 1;
    while (j < s.length) {
      const cp = s.codePointAt(j)!;
      const ch = String.fromCodePoint(cp);
      if (!TAG_BODY.test(ch)) break;
      j += ch.length;
    }
    const body = s.slice(i + 1, j);
    if (!body || /^[\d/]+$/.test(body) || body.startsWith('/')) continue;
    const clean = body.replace(/\/+$/, '');
    tags.push({ tag: '#' + clean, position: span(line, i, i + 1 + clean.length) });
    i = j - 1;
  }
}

function frontmatterLinks(data: Record<string, unknown>): FrontmatterLinkCache[] {
  const out: FrontmatterLinkCache[] = [];
  const visit = (v: unknown, key: string) => {
    if (typeof v === 'string') {
      const m = /^\s*\[\[([^\[\]]+)\]\]\s*$/.exec(v);
      if (m) {
        const bar = m[1].indexOf('|');
        const link = (bar < 0 ? m[1] : m[1].slice(0, bar)).trim();
        out.push({ key, link, original: v.trim(), displayText: bar < 0 ? link : m[1].slice(bar + 1).trim() });
      }
    } else if (Array.isArray(v)) v.forEach((x, i) => visit(x, `${key}.${i}`));
  };
  for (const [k, v] of Object.entries(data)) visit(v, k);
  return out;
}

export function parseMarkdown(src: string): NoteMetadata {
  const lines = splitLines(src);
  const meta: NoteMetadata = {};
  const headings: HeadingCache[] = [];
  const tags: TagCache[] = [];
  const links: ReferenceCache[] = [];
  const embeds: ReferenceCache[] = [];
  const listItems: ListItemCache[] = [];
  const sections: SectionCache[] = [];
  const blocks: Record<string, BlockCache> = {};
  let i = 0;

  // Frontmatter: '---' on the first line (after a BOM), closed by a '---' line.
  const first = lines[0].text.replace(/^\uFEFF/, '');
  if (/^---[ \t]*$/.test(first)) {
    let close = -1;
    for (let k = 1; k < lines.length; k++) if (/^---[ \t]*$/.test(lines[k].text)) { close = k; break; }
    if (close > 0) {
      const pos: Pos = { start: loc(lines[0], 0), end: loc(lines[close], lines[close].text.length) };
      meta.frontmatterPosition = pos;
      sections.push({ type: 'yaml', position: pos });
      const yaml = src.slice(lines[1]?.start ?? 0, lines[close].start);
      const parsed = parseFrontmatterYaml(close === 1 ? '' : yaml);
      if (parsed.ok && parsed.data) {
        meta.frontmatter = parsed.data;
        const fl = frontmatterLinks(parsed.data);
        if (fl.length) meta.frontmatterLinks = fl;
      }
      i = close + 1;
    }
  }

  let fence: { ch: string; len: number; startLine: Line } | null = null;
  let math: Line | null = null;
  let htmlComment: Line | null = null;
  const inlineComment = { on: false };
  let commentStart: Line | null = null;
  // List tracking: indent stack of open items for parents; start line of the current list.
  let listStart = -1;
  let stack: { indent: number; line: number }[] = [];
  let para: { type: string; start: Line; end: Line } | null = null;
  const currentType = (): string | null => (para as { type: string } | null)?.type ?? null;
  const flush = () => { if (para) { sections.push({ type: para.type, position: { start: loc(para.start, 0), end: loc(para.end, para.end.text.length) } }); para = null; } };
  const extend = (type: string, line: Line) => {
    if (para && para.type === type) para.end = line;
    else { flush(); para = { type, start: line, end: line }; }
  };

  for (; i < lines.length; i++) {
    const line = lines[i];
    const text = line.text;
    if (fence) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(text);
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len) {
        sections.push({ type: 'code', position: { start: loc(fence.startLine, 0), end: loc(line, text.length) } });
        fence = null;
      }
      continue;
    }
    if (math) {
      if (text.includes('$$')) { sections.push({ type: 'math', position: { start: loc(math, 0), end: loc(line, text.length) } }); math = null; }
      continue;
    }
    if (htmlComment) {
      if (text.includes('-->')) { sections.push({ type: 'comment', position: { start: loc(htmlComment, 0), end: loc(line, text.length) } }); htmlComment = null; }
      continue;
    }
    if (inlineComment.on && commentStart) {
      const close = text.indexOf('%%');
      if (close < 0) continue;
      inlineComment.on = false;
      sections.push({ type: 'comment', position: { start: loc(commentStart, 0), end: loc(line, close + 2) } });
      commentStart = null;
      if (text.slice(close + 2).trim() === '') continue;
    }
    const f = FENCE.exec(text);
    if (f && !(f[1][0] === '`' && f[2].includes('`'))) {
      flush(); listStart = -1; stack = [];
      fence = { ch: f[1][0], len: f[1].length, startLine: line };
      continue;
    }
    const trimmed = text.trim();
    if (trimmed.startsWith('$$') && !(trimmed.length > 2 && trimmed.slice(2).includes('$$'))) { flush(); math = line; continue; }
    if (trimmed.startsWith('<!--') && !trimmed.includes('-->')) { flush(); htmlComment = line; continue; }
    if (trimmed === '') { flush(); if (listStart >= 0 && !/^\s*$/.test(lines[i + 1]?.text ?? '') && !LIST.test(lines[i + 1]?.text ?? '') && !/^\s/.test(lines[i + 1]?.text ?? '')) { listStart = -1; stack = []; } continue; }

    const h = HEADING.exec(text);
    if (h) {
      flush(); listStart = -1; stack = [];
      let content = h[2] ?? '';
      content = content.replace(/(^|[ \t]+)#+$/, '').trim();
      const startCol = text.indexOf('#');
      headings.push({ heading: content, level: h[1].length, position: span(line, startCol, text.length) });
      sections.push({ type: 'heading', position: span(line, 0, text.length) });
    }

    let masked = maskInline(text, inlineComment);
    if (inlineComment.on) commentStart = line;
    masked = scanLinks(line, masked, links, embeds);
    if (h) masked = blank(masked, 0, text.indexOf('#') + h[1].length);
    scanTags(line, masked, tags);
    if (h) continue;

    const li = LIST.exec(text);
    const indentOf = (s: string) => s.replace(/\t/g, '    ').length;
    if (li && !/^ {0,3}([-*_])( *\1){2,} *$/.test(text)) {
      const indent = indentOf(li[1]);
      if (listStart < 0) { flush(); listStart = line.n; stack = []; }
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      const parent = stack.length ? stack[stack.length - 1].line : -listStart;
      const after = text.slice(li[0].length);
      const t = TASK.exec(after);
      const item: ListItemCache = { position: span(line, li[1].length, text.length), parent };
      if (t) item.task = t[1];
      const bid = BLOCK_ID.exec(text);
      if (bid) { item.id = bid[1]; blocks[bid[1].toLowerCase()] = { id: bid[1], position: item.position }; }
      listItems.push(item);
      stack.push({ indent, line: line.n });
      extend('list', line);
      continue;
    }
    if (listStart >= 0 && /^\s/.test(text)) { extend('list', line); continue; } // continuation of an item
    listStart = -1; stack = [];
    const type = /^ {0,3}>/.test(text) ? (/^ {0,3}>\s*\[!/.test(text) || currentType() === 'callout' ? 'callout' : 'blockquote')
      : /^\s*\|/.test(text) ? 'table'
      : /^ {0,3}([-*_])( *\1){2,} *$/.test(text) ? 'thematicBreak'
      : /^ {0,3}<[a-zA-Z/]/.test(text) ? 'html' : 'paragraph';
    extend(type, line);
    const bid = BLOCK_ID.exec(text);
    if (bid) blocks[bid[1].toLowerCase()] = { id: bid[1], position: span(line, 0, text.length) };
  }
  if (fence) sections.push({ type: 'code', position: { start: loc(fence.startLine, 0), end: loc(lines[lines.length - 1], lines[lines.length - 1].text.length) } });
  flush();
  if (headings.length) meta.headings = headings;
  if (tags.length) meta.tags = tags;
  if (links.length) meta.links = links;
  if (embeds.length) meta.embeds = embeds;
  if (listItems.length) meta.listItems = listItems;
  if (sections.length) meta.sections = sections.sort((a, b) => a.position.start.offset - b.position.start.offset);
  if (Object.keys(blocks).length) meta.blocks = blocks;
  return meta;
}

/** True when a fence opener has no closer: section edits refuse such notes rather than guess. */
export function hasUnclosedFence(src: string): boolean {
  let fence: { ch: string; len: number } | null = null;
  for (const line of splitLines(src)) {
    if (fence) {
      const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line.text);
      if (m && m[1][0] === fence.ch && m[1].length >= fence.len) fence = null;
      continue;
    }
    const f = FENCE.exec(line.text);
    if (f && !(f[1][0] === '`' && f[2].includes('`'))) fence = { ch: f[1][0], len: f[1].length };
  }
  return fence !== null;
}
