// The pure task parser (src/core/tasks.ts): statuses, every Tasks-plugin signifier, Dataview inline
// fields, tags, block ids, nesting and heading paths, and lines that are not tasks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseTaskLine, tasksOfNote, statusOf, taskCharOf, tagMatches } from '../../src/core/tasks.js';
import { parseMarkdown } from '../../src/core/markdown/parse.js';

const p = (line: string) => {
  const t = parseTaskLine(line);
  assert.ok(t, `"${line}" parses as a task`);
  return t;
};

test('statuses: open, done (x and X), cancelled, in progress, anything else as is', () => {
  assert.equal(p('- [ ] a').status, 'open');
  assert.equal(p('- [x] a').status, 'done');
  assert.equal(p('- [X] a').status, 'done');
  assert.equal(p('- [-] a').status, 'cancelled');
  assert.equal(p('- [/] a').status, 'in_progress');
  for (const ch of ['>', '<', '!', '?', '*', 'n', 'i', 'I', 'b', '"', 'l', 'S', '🔥']) {
    const t = p(`- [${ch}] a`);
    assert.equal(t.status, ch);
    assert.equal(t.status_char, ch);
  }
  assert.equal(statusOf(' '), 'open');
});

test('list markers, indentation, quotes and callouts', () => {
  for (const line of ['- [ ] a', '* [ ] a', '+ [ ] a', '1. [ ] a', '12) [ ] a', '    - [ ] a', '\t- [ ] a', '> - [ ] a', '> > - [ ] a', '- [ ]']) {
    assert.ok(parseTaskLine(line), line);
  }
  assert.equal(p('- [ ]').text, '');
  assert.equal(p('1. [x] numbered').text, 'numbered');
});

test('lines that are not tasks', () => {
  for (const line of ['', 'text', '- plain item', '- [] a', '- [  ] a', '-[ ] a', '[ ] a', '- [ ]a', '- [ab] a', '# [ ] heading', '`- [ ] code`']) {
    assert.equal(parseTaskLine(line), null, JSON.stringify(line));
    assert.equal(taskCharOf(line), null);
  }
});

test('Tasks-plugin dates: due (📅 📆 🗓), scheduled (⏳ ⌛), start, done, cancelled, created', () => {
  const t = p('- [x] Do it 📅 2026-01-31 ⏳ 2026-01-20 🛫 2026-01-10 ✅ 2026-01-30 ➕ 2026-01-01 ❌ 2026-01-29');
  assert.deepEqual([t.due, t.scheduled, t.start, t.done, t.created, t.cancelled], ['2026-01-31', '2026-01-20', '2026-01-10', '2026-01-30', '2026-01-01', '2026-01-29']);
  assert.equal(t.text, 'Do it');
  assert.equal(p('- [ ] a 📆 2026-02-01').due, '2026-02-01');
  assert.equal(p('- [ ] a 🗓 2026-02-02').due, '2026-02-02');
  assert.equal(p('- [ ] a 🗓️ 2026-02-03').due, '2026-02-03', 'with a variation selector');
  assert.equal(p('- [ ] a ⌛ 2026-02-04').scheduled, '2026-02-04');
  assert.equal(p('- [ ] a 📅2026-02-05').due, '2026-02-05', 'no space after the sign');
});

test('invalid dates are left in the text, the first of two dates wins', () => {
  const bad = p('- [ ] a 📅 2026-02-30');
  assert.equal(bad.due, null);
  assert.match(bad.text, /2026-02-30/);
  assert.equal(p('- [ ] a 📅 2026-13-01').due, null);
  assert.equal(p('- [ ] a 📅 2028-02-29').due, '2028-02-29', 'leap day');
  assert.equal(p('- [ ] a 📅 2026-01-02 📅 2026-03-04').due, '2026-01-02');
});

test('priorities and recurrence', () => {
  const pr: [string, string][] = [['🔺', 'highest'], ['⏫', 'high'], ['🔼', 'medium'], ['🔽', 'low'], ['⏬', 'lowest']];
  for (const [sign, name] of pr) {
    const t = p(`- [ ] task ${sign} more`);
    assert.equal(t.priority, name);
    assert.equal(t.text, 'task more');
  }
  assert.equal(p('- [ ] no priority').priority, null);
  const r = p('- [ ] water plants 🔁 every week when done 📅 2026-03-01');
  assert.equal(r.recurrence, 'every week when done');
  assert.equal(r.due, '2026-03-01');
  assert.equal(r.text, 'water plants');
  assert.equal(p('- [ ] x 🔁 every day').recurrence, 'every day');
});

test('ids and dependencies', () => {
  const t = p('- [ ] b 🆔 abc123 ⛔ x1, y2');
  assert.equal(t.id, 'abc123');
  assert.deepEqual(t.depends_on, ['x1', 'y2']);
  assert.equal(t.text, 'b');
});

test('Dataview inline fields, bracketed and parenthesised', () => {
  const t = p('- [ ] Clear the shed [due:: 2026-12-20] (scheduled:: 2026-12-01) [priority:: high] [owner:: Ada]');
  assert.equal(t.due, '2026-12-20');
  assert.equal(t.scheduled, '2026-12-01');
  assert.equal(t.priority, 'high');
  assert.deepEqual(t.fields, { due: '2026-12-20', scheduled: '2026-12-01', priority: 'high', owner: 'Ada' });
  assert.equal(t.text, 'Clear the shed');
  const d = p('- [x] a [completion:: 2026-01-02] [created:: 2025-12-31] [start:: 2026-01-01] [cancelled:: 2026-01-03] [repeat:: every month]');
  assert.deepEqual([d.done, d.created, d.start, d.cancelled, d.recurrence], ['2026-01-02', '2025-12-31', '2026-01-01', '2026-01-03', 'every month']);
  assert.equal(p('- [ ] a [Due:: 2026-05-06T10:00]').due, '2026-05-06', 'case-insensitive key, date part of a date-time');
  // The Tasks emoji wins over a later Dataview field? Whichever is parsed first: Dataview first, by design.
  assert.equal(p('- [ ] a [due:: 2026-01-01] 📅 2026-02-02').due, '2026-01-01');
});

test('links and markdown links are not mistaken for inline fields', () => {
  const t = p('- [ ] read [[Note|alias]] and [site](https://x.invalid/a) 📅 2026-01-01');
  assert.equal(t.text, 'read [[Note|alias]] and [site](https://x.invalid/a)');
  assert.deepEqual(t.fields, {});
});

test('tags, block ids and whitespace', () => {
  const t = p('- [ ] Test the soil #garden/soil #Garden/Soil #2026 #urgent, ok ^blk-1');
  assert.deepEqual(t.tags, ['#garden/soil', '#urgent']);
  assert.equal(t.block_id, 'blk-1');
  assert.equal(t.text, 'Test the soil #garden/soil #Garden/Soil #2026 #urgent, ok');
  assert.deepEqual(p('- [ ] a#b c').tags, [], 'a # inside a word is not a tag');
  assert.equal(p('- [ ]    spaced     out   ').text, 'spaced out');
});

test('tagMatches: exact, nested prefix, case and leading #', () => {
  assert.ok(tagMatches('#garden/soil', 'garden'));
  assert.ok(tagMatches('#garden/soil', '#Garden/Soil'));
  assert.ok(!tagMatches('#gardening', 'garden'));
  assert.ok(tagMatches('#a', 'a/'));
});

test('tasksOfNote: lines, heading paths, parents, skipped stale items, code blocks', () => {
  const text = [
    '# Top', // 1
    '- [ ] one 📅 2026-01-01', // 2
    '## Sub', // 3
    '- [x] two', // 4
    '  - [ ] child', // 5
    '  - plain', // 6
    '    - [ ] grandchild under plain', // 7
    '```', // 8
    '- [ ] in code', // 9
    '```', // 10
    '# Other', // 11
    '* [>] deferred', // 12
  ].join('\r\n');
  const meta = parseMarkdown(text);
  const tasks = tasksOfNote(text, meta);
  assert.deepEqual(tasks.map((t) => [t.line, t.status_char, t.text, t.heading_path, t.parent_line]), [
    [2, ' ', 'one', ['Top'], null],
    [4, 'x', 'two', ['Top', 'Sub'], null],
    [5, ' ', 'child', ['Top', 'Sub'], 4],
    [7, ' ', 'grandchild under plain', ['Top', 'Sub'], null],
    [12, '>', 'deferred', ['Other'], null],
  ]);
  // Metadata newer/older than the text: an item whose line is no longer a task is skipped.
  const stale = tasksOfNote(text.replace('- [x] two', 'two'), meta);
  assert.equal(stale.length, 4);
  assert.deepEqual(tasksOfNote('no tasks', parseMarkdown('no tasks')), []);
});

test('tasksOfNote: tasks share one frozen empty list and field set, and one heading path per section', () => {
  const text = ['- [ ] before any heading', '# Top', '- [ ] a', '- [ ] b #tag [due:: 2026-01-02]', '## Sub', '- [ ] c', '- [ ] d ⛔ x1'].join('\n');
  const tasks = tasksOfNote(text, parseMarkdown(text));
  const [before, a, b, c, d] = tasks;
  assert.deepEqual(tasks.map((t) => [t.text, t.heading_path, t.tags, t.fields, t.depends_on]), [
    ['before any heading', [], [], {}, []],
    ['a', ['Top'], [], {}, []],
    ['b #tag', ['Top'], ['#tag'], { due: '2026-01-02' }, []],
    ['c', ['Top', 'Sub'], [], {}, []],
    ['d', ['Top', 'Sub'], [], {}, ['x1']],
  ]);
  // A task index keeps every task for the app's life: no empty array or object of its own per task.
  assert.equal(a.heading_path, b.heading_path, 'one heading path per section');
  assert.equal(c.heading_path, d.heading_path);
  assert.equal(before.heading_path, a.tags, 'the empty lists are one object');
  assert.equal(a.fields, c.fields, 'the empty field sets are one object');
  assert.equal(a.depends_on, c.depends_on);
  assert.ok(Object.isFrozen(a.tags) && Object.isFrozen(a.fields), 'the shared empties are frozen');
  // A task with a field got a set of its own, and the shared one stayed empty.
  assert.notEqual(b.fields, a.fields);
  assert.deepEqual([Object.keys(a.fields).length, a.tags.length, a.depends_on.length], [0, 0, 0]);
});

test('property: any single status character round-trips; the parser never throws', () => {
  fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 1 }).filter((c) => !/[\s\[\]\n\r]/.test(c)), fc.string({ maxLength: 40 }), (ch, rest) => {
    const line = `- [${ch}] ${rest.replace(/[\r\n]/g, ' ')}`;
    const t = parseTaskLine(line);
    assert.ok(t);
    assert.equal(t.status_char, ch);
  }));
  fc.assert(fc.property(fc.string({ maxLength: 80 }), (s) => { parseTaskLine(s); parseTaskLine(`- [ ] ${s}`); }));
});
