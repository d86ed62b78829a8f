// Structural frontmatter changes through the `yaml` Document API: comments, key order, quoting and
// flow style of untouched keys survive; the body after the block stays byte-identical.
// Decision: in Obsidian this is applied through Vault.process too, not FileManager.processFrontMatter,
// because processFrontMatter re-serialises the whole block from a plain object and drops comments.
import { parseDocument, isScalar, isMap, type Document } from 'yaml';
import { refuse } from '../errors.js';
import { splitFrontmatter } from './frontmatter.js';
import { eolOf } from '../edit.js';

export interface FrontmatterChange {
  text: string;
  changed: boolean;
  /** Keys set (changed or added) and keys removed. */
  set: string[];
  removed: string[];
}

function isPlainScalarValue(v: unknown): v is string | number | boolean | null {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** Was the original writing block sequences flush with their key ("key:\n- a")? Keep that style. */
function seqIndented(yaml: string): boolean {
  const m = /^([ \t]*)[^\s#-][^\n]*:[ \t]*\r?\n([ \t]*)- /m.exec(yaml);
  return m ? m[2].length > m[1].length : true;
}

export function setFrontmatter(text: string, updates: Record<string, unknown>, remove: string[] = [], notePath = 'the note'): FrontmatterChange {
  const split = splitFrontmatter(text);
  if (split.unclosed) refuse('malformed_note', `"${notePath}" opens a frontmatter block with --- that is never closed; nothing was written. Close it (edit_note with find=) or replace the file with replace_frontmatter=true.`);
  for (const k of Object.keys(updates)) if (remove.includes(k)) refuse('invalid_argument', `"${k}" is both in updates and in remove; pick one.`);
  const blockEol = split.block ? eolOf(split.block) : eolOf(text);
  const yamlLf = split.yaml.replace(/\r\n/g, '\n');
  const doc: Document = parseDocument(yamlLf, { keepSourceTokens: false, uniqueKeys: false });
  if (doc.errors.length) refuse('malformed_note', `The frontmatter of "${notePath}" is malformed YAML (${doc.errors[0].message.split('\n')[0]}); nothing was written. Fix it with edit_note(find=…) or replace_frontmatter=true.`);
  if (doc.contents !== null && !isMap(doc.contents)) refuse('malformed_note', `The frontmatter of "${notePath}" is not a key: value mapping; nothing was written.`);
  const set: string[] = [];
  const removed: string[] = [];
  const current = (doc.toJS() ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(updates)) {
    if (value === undefined) continue;
    const before = doc.get(key, true);
    if (Object.prototype.hasOwnProperty.call(current, key) && JSON.stringify(current[key]) === JSON.stringify(value)) continue;
    if (isScalar(before) && isPlainScalarValue(value)) {
      // Keep the node (and its comments); drop a quoting style the new value cannot use.
      (before).value = value;
      if (typeof value !== 'string') (before).type = undefined;
    } else {
      doc.set(key, doc.createNode(value));
    }
    set.push(key);
  }
  for (const key of remove) {
    if (doc.has(key)) { doc.delete(key); removed.push(key); }
  }
  if (!set.length && !removed.length) return { text, changed: false, set, removed };
  const empty = !doc.contents || (isMap(doc.contents) && doc.contents.items.length === 0 && !doc.commentBefore && !doc.comment);
  const body = text.slice(split.bodyStart);
  if (empty) return { text: split.bom + body, changed: true, set, removed };
  let yaml = doc.toString({ lineWidth: 0, indentSeq: seqIndented(yamlLf) });
  if (!yaml.endsWith('\n')) yaml += '\n';
  if (blockEol === '\r\n') yaml = yaml.replace(/\n/g, '\r\n');
  const open = split.block ? split.block.slice(0, split.block.indexOf('\n') + 1) : `---${blockEol}`;
  // The closing delimiter line as written (with or without its line break at the end of the file).
  let close = `---${blockEol}`;
  if (split.block) {
    const m = /---[ \t]*(\r?\n)?$/.exec(split.block);
    close = m ? m[0] : close;
    if (!m?.[1] && body !== '') close += blockEol;
  }
  return { text: split.bom + open + yaml + close + body, changed: true, set, removed };
}
