// The house rules of docs/ARCHITECTURE.md, checked on the source itself so that breaking one fails CI:
// no import cycle (type-only imports count too), no file in src/ over 500 lines, src/core free of
// `obsidian` and of I/O modules, tools never import a host, MiniSearch's private fields touched in
// one file only, and no `as` cast out of the typed service registry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import ts from 'typescript';
import { REPO } from '../helpers/paths.js';

const SRC = join(REPO, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const files = sourceFiles(SRC);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
const rel = (f: string) => relative(REPO, f).split('\\').join('/');

/** Every relative import of a file (static, type-only, re-export and dynamic), resolved to a src file. */
function importsOf(file: string): { target: string; spec: string }[] {
  const info = ts.preProcessFile(text.get(file)!, true, true);
  const out: { target: string; spec: string }[] = [];
  for (const imp of info.importedFiles) {
    if (!imp.fileName.startsWith('.')) continue;
    const base = resolve(dirname(file), imp.fileName).replace(/\.js$/, '');
    const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => text.has(c));
    if (target) out.push({ target, spec: imp.fileName });
  }
  return out;
}

function bareImports(file: string): string[] {
  return ts.preProcessFile(text.get(file)!, true, true).importedFiles.map((i) => i.fileName).filter((n) => !n.startsWith('.'));
}

/** Strongly connected components with more than one file (Tarjan), i.e. import cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>(), low = new Map<string, number>(), on = new Set<string>(), stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.map(rel).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

test('src has no import cycle, type-only imports included', () => {
  const graph = new Map(files.map((f) => [f, importsOf(f).map((i) => i.target)]));
  assert.deepEqual(cycles(graph), [], 'move the shared types into a lower module both sides import');
});

test('the cycle finder finds a cycle (self-check)', () => {
  const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.equal(cycles(g).length, 1);
});

// Lines as wc counts them: a final newline ends the last line, it does not start another.
const lineCount = (t: string) => t.split('\n').length - (t.endsWith('\n') ? 1 : 0);
test('no file in src/ is over 500 lines', () => {
  const big = files.map((f) => [rel(f), lineCount(text.get(f)!)] as const).filter(([, n]) => n > 500);
  assert.deepEqual(big, [], 'split the file by concern');
});

test('src/core is pure: no obsidian, no I/O, no imports from outside core', () => {
  const io = /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|dns|worker_threads)$|^(obsidian|express)$/;
  const bad: string[] = [];
  for (const f of files.filter((f) => rel(f).startsWith('src/core/'))) {
    for (const spec of bareImports(f)) if (io.test(spec)) bad.push(`${rel(f)} imports ${spec}`);
    for (const { target } of importsOf(f)) if (!rel(target).startsWith('src/core/')) bad.push(`${rel(f)} imports ${rel(target)}`);
  }
  assert.deepEqual(bad, []);
});

test('only src/main.ts, src/plugin/ and src/host/obsidian/ import obsidian at run time', () => {
  const allowed = /^src\/(main\.ts|plugin\/|host\/obsidian\/)/;
  const bad = files.filter((f) => !allowed.test(rel(f)) && /^import\s+(?!type\b)[^;]*from\s+'obsidian'/m.test(text.get(f)!)).map(rel);
  assert.deepEqual(bad, []);
});

test('tools talk to services, never to a host implementation', () => {
  const bad: string[] = [];
  for (const f of files.filter((f) => rel(f).startsWith('src/mcp/'))) {
    for (const { target } of importsOf(f)) if (/^src\/host\/(node|obsidian)\//.test(rel(target))) bad.push(`${rel(f)} imports ${rel(target)}`);
  }
  assert.deepEqual(bad, []);
});

test('no cast out of the typed service registry', () => {
  const cast = /services(\?)?\.\w+\s+as\s/;
  const bad = files.filter((f) => cast.test(text.get(f)!)).map(rel);
  assert.deepEqual(bad, [], 'ServerDeps.services is typed (src/mcp/services.ts): add a field there instead of casting');
});

// The keyword index uses MiniSearch's public SearchableMap only (README, "Keyword search internals").
test('MiniSearch private fields are touched in one module at most', () => {
  const internal = /\._(index|documentIds|fieldLength|avgFieldLength|storedFields|nextId|idToShortId|documentCount|fieldIds|options|dirtCount|totalLength)\b/;
  const touching = files.filter((f) => internal.test(text.get(f)!)).map(rel);
  assert.ok(touching.length <= 1, `MiniSearch internals in ${touching.join(', ')}`);
});

test('every src file this test reads exists (self-check)', () => {
  assert.ok(files.length > 50 && files.every((f) => existsSync(f)));
});
