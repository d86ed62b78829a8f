// Stale edits rebased (issue 16), property-style on the pure core (src/core/rebase.ts): an edit made
// against an old version of a note is applied to the current one only when its target lines are
// untouched by what changed meanwhile, and then the result is exactly the edit applied to the current
// note; whenever the concurrent change touched the target (a line changed, removed, or inserted inside
// it; for a section also a line added at its end or the heading after it removed), it is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { rebaseEdit } from '../../src/core/rebase.js';
import { applyEdit, type EditOp } from '../../src/core/edit.js';

/** A note of unique lines (no line is a part of another): headings "## H<i>." and text lines "line <i> says ….". */
function note(kinds: boolean[]): string[] {
  return kinds.map((h, i) => (h ? `## H${i}.` : `line ${i} says ${'abc'.repeat(i % 3)}.`));
}

type Change = { kind: 'modify' | 'delete'; at: number } | { kind: 'insert'; before: number };

function applyChange(lines: string[], c: Change): string[] {
  const out = [...lines];
  if (c.kind === 'insert') out.splice(c.before, 0, 'a line someone else added');
  else if (c.kind === 'modify') out[c.at] = `${out[c.at]} (edited by someone else)`;
  else out.splice(c.at, 1);
  return out;
}

const doc = fc.array(fc.boolean(), { minLength: 4, maxLength: 30 }).map((ks) => note([true, ...ks]));

test('find: applied exactly when the target line is untouched, and then equals the edit on the current note', () => {
  fc.assert(fc.property(doc, fc.nat(), fc.nat(), fc.constantFrom<'modify' | 'delete' | 'insert'>('modify', 'delete', 'insert'), fc.boolean(), (lines, ti, ci, kind, twoLines) => {
    const t = ti % lines.length;
    const span = twoLines && t + 1 < lines.length ? 2 : 1;
    const find = span === 2 ? `${lines[t].slice(-4)}\n${lines[t + 1]}` : lines[t];
    const change: Change = kind === 'insert' ? { kind, before: ci % (lines.length + 1) } : { kind, at: ci % lines.length };
    const old = lines.join('\n') + '\n';
    const current = applyChange(lines, change).join('\n') + '\n';
    const op: EditOp = { mode: 'find', find, content: 'REPLACED' };
    const touched = change.kind === 'insert' ? change.before > t && change.before < t + span : change.at >= t && change.at < t + span;
    const r = rebaseEdit(old, current, op, 'n.md');
    if (touched) { assert.equal(r.ok, false, `applied although line ${t} was touched: ${JSON.stringify(change)}`); return; }
    assert.ok(r.ok, `refused although untouched: ${JSON.stringify(change)} ${r.ok ? '' : r.why}`);
    assert.equal(r.text, applyEdit(current, op).text);
  }), { numRuns: 2000 });
});

test('section: applied exactly when the section (lines, extent) is untouched, and then equals the edit on the current note', () => {
  fc.assert(fc.property(doc, fc.nat(), fc.nat(), fc.constantFrom<'modify' | 'delete' | 'insert'>('modify', 'delete', 'insert'), (lines, hi, ci, kind) => {
    const heads = lines.map((l, i) => (l.startsWith('## ') ? i : -1)).filter((i) => i >= 0);
    const h = heads[hi % heads.length];
    const next = heads.find((i) => i > h) ?? lines.length; // the section is lines h .. next-1
    const change: Change = kind === 'insert' ? { kind, before: ci % (lines.length + 1) } : { kind, at: ci % lines.length };
    const old = lines.join('\n') + '\n';
    const current = applyChange(lines, change).join('\n') + '\n';
    const op: EditOp = { mode: 'section', section: lines[h].slice(3), content: 'new body\n' };
    // Removing the heading that ends it lets the section grow by that heading's body lines, if it has any.
    const after = heads.find((i) => i > next) ?? lines.length;
    const touched = change.kind === 'insert'
      ? change.before > h && change.before <= next // inside, or at its end (the section would grow)
      : (change.at >= h && change.at < next) || (change.kind === 'delete' && change.at === next && after > next + 1);
    const r = rebaseEdit(old, current, op, 'n.md');
    if (touched) { assert.equal(r.ok, false, `applied although the section was touched: ${JSON.stringify(change)}`); return; }
    assert.ok(r.ok, `refused although untouched: ${JSON.stringify(change)} ${r.ok ? '' : r.why}`);
    assert.equal(r.text, applyEdit(current, op).text);
  }), { numRuns: 2000 });
});

test('a find that matched nothing in the version read, or two places, is not rebased', () => {
  const old = 'a\nb\nc\n';
  assert.equal(rebaseEdit(old, 'a\nb\nc\nd\n', { mode: 'find', find: 'zzz', content: 'x' }, 'n.md').ok, false);
  assert.equal(rebaseEdit('a\na\n', 'a\na\nb\n', { mode: 'find', find: 'a', content: 'x' }, 'n.md').ok, false);
  assert.equal(rebaseEdit(old, 'a\nb\nc\nd\n', { mode: 'replace', content: 'x' }, 'n.md').ok, false);
});
