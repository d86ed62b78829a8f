// Stale edits rebased. An edit_note with find= or section= names its target; when the agent read an
// older version of the note (its expected_hash is stale) but the lines of that target are unchanged in
// the current note, the edit is applied there: everything the other writer changed elsewhere stays,
// and the target gets exactly what the edit gives it on the version the agent read. When any line of
// the target changed (or, for a section, the section's extent changed), nothing is applied and the
// caller gets the diff around the target instead. Pure: old text, current text, the edit.
import { structuredPatch } from 'diff';
import { applyEdit, eolOf, findTargets, type EditOp, type EditOutcome } from './edit.js';
import { buildOutline, resolveSection } from './markdown/sections.js';
import { parseMarkdown } from './markdown/parse.js';

export type Rebased = { ok: true; text: string; outcome: EditOutcome } | { ok: false; why: string };

const lineStartOf = (t: string, i: number) => t.lastIndexOf('\n', i - 1) + 1;
const lineEndAfter = (t: string, i: number) => { const n = t.indexOf('\n', i); return n < 0 ? t.length : n + 1; };

/** The target of a find/section edit in `text`, widened to whole lines: [start, end). */
export function targetRange(text: string, op: Extract<EditOp, { mode: 'find' | 'section' }>, notePath: string): [number, number] | null {
  if (op.mode === 'find') {
    const { needle, hits } = findTargets(text, op.find);
    if (!hits.length || (hits.length > 1 && !op.replaceAll)) return null;
    return [lineStartOf(text, hits[0]), lineEndAfter(text, Math.max(hits[0], hits[hits.length - 1] + needle.length - 1))];
  }
  const e = resolveSection(buildOutline(text, parseMarkdown(text).headings), op.section, notePath);
  return [e.start, e.end];
}

/**
 * Where the unchanged lines [start, end) of `old` are in `current`, or null when a line in that range
 * was removed or changed, or lines were inserted inside it (line diff old → current).
 */
export function mapUnchanged(old: string, current: string, start: number, end: number): number | null {
  const patch = structuredPatch('a', 'b', old, current, undefined, undefined, { context: 0 });
  const startLine = old.slice(0, start).split('\n').length; // 1-based line of `start`
  const endLine = old.slice(0, end).split('\n').length - (end > 0 && old[end - 1] === '\n' ? 1 : 0); // last line inside
  let shift = 0;
  for (const h of patch.hunks) {
    if (h.oldLines === 0) {
      // A pure insertion: jsdiff puts it before old line oldStart. Between two lines of the range = inside.
      if (h.oldStart > startLine && h.oldStart <= endLine) return null;
      if (h.oldStart <= startLine) shift += h.newLines;
      continue;
    }
    const from = h.oldStart, to = h.oldStart + h.oldLines - 1; // old lines removed or changed
    if (from <= endLine && to >= startLine) return null;
    if (to < startLine) shift += h.newLines - h.oldLines;
  }
  // Character offset in `current` of the line that `start` was on, shifted by the lines added before it.
  const curLine = startLine + shift;
  let at = 0;
  for (let l = 1; l < curLine; l++) { at = current.indexOf('\n', at) + 1; if (at === 0) return null; }
  return current.slice(at, at + (end - start)) === old.slice(start, end) ? at : null;
}

/** The diff of old → current, only the hunks near [start, end) of old, at most `max` characters. */
export function diffAround(old: string, current: string, start: number, end: number, max = 1500): string {
  const patch = structuredPatch('read', 'current', old, current, undefined, undefined, { context: 2 });
  const a = old.slice(0, start).split('\n').length, b = old.slice(0, end).split('\n').length;
  const near = patch.hunks.filter((h) => h.oldStart <= b + 3 && h.oldStart + h.oldLines >= a - 3);
  const shown = (near.length ? near : patch.hunks.slice(0, 1)).map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join('\n')}`).join('\n');
  return shown.length > max ? `${shown.slice(0, max)}\n…` : shown;
}

/** Applies `op`, made against `old`, to `current` when its target lines are unchanged there. */
export function rebaseEdit(old: string, current: string, op: EditOp, notePath: string): Rebased {
  if (op.mode !== 'find' && op.mode !== 'section') return { ok: false, why: 'only find= and section= edits name a target that can be checked' };
  if (eolOf(old) !== eolOf(current)) return { ok: false, why: 'the line endings of the note changed' };
  let range: [number, number] | null;
  let edited: EditOutcome;
  try {
    range = targetRange(old, op, notePath);
    edited = applyEdit(old, op, notePath);
  } catch {
    return { ok: false, why: 'the edit does not apply to the version you read either' };
  }
  if (!range) return { ok: false, why: 'the edit does not apply to the version you read either' };
  const [start, end] = range;
  const tail = old.length - end;
  const next = edited.text;
  if (!next.startsWith(old.slice(0, start)) || !next.endsWith(old.slice(end)) || next.length < start + tail) return { ok: false, why: 'the edit reaches beyond its target' };
  const at = mapUnchanged(old, current, start, end);
  if (at === null) return { ok: false, why: 'the target lines changed since you read them' };
  const atEnd = at + (end - start);
  if (op.mode === 'section') {
    // The section must still end where it did: no heading removed after it, no lines added at its end.
    const outline = buildOutline(current, parseMarkdown(current).headings);
    const here = outline.find((e) => e.start === at);
    if (!here || here.end !== atEnd) return { ok: false, why: 'the section\'s extent changed since you read it' };
    edited = { ...edited, section: { ordinal: here.ordinal, heading: here.text } };
  }
  return { ok: true, text: current.slice(0, at) + next.slice(start, next.length - tail) + current.slice(atEnd), outcome: edited };
}
