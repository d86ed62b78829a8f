// server.js in several files, so Obsidian never evaluates it in one piece. Evaluating the whole server
// bundle (4 MB: the MCP SDK, express, zod, the stemmers, the search and every tool) held the app's thread
// for 0.6–1 s at every server start. Split by package into chunks (SERVER_CHUNKS), main.js evaluates
// the eager ones one per task (src/plugin/loadServer.ts) and server.js last; the lazy ones (the
// inference worker's source, transformers.js) are evaluated only when semantic search first needs them.
//
// How: one esbuild pass over the whole server finds which file belongs to which chunk (a chunk takes
// its root packages and whatever they import that no earlier chunk took; src/ and the rest stay in
// server.js). Each chunk is then built on its own; an import of a file that lives in another chunk
// becomes `require("./server-<chunk>.js").m<n>` (Node's require cache makes it the same instance),
// behind an ESM shim so default and named imports keep their meaning (a plain CommonJS stand-in would
// turn a default import into the whole namespace): for our own modules, their exports copied as plain
// values once; for packages, `export *` + `export { default }`.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/**
 * Chunks in evaluation order, each small enough to evaluate in well under 50 ms (main-thread CPU per chunk:
 * `node bench/server-chunks.mjs`). `roots`: package names, folders or files inside a package (ending in
 * '/' or '.js'), path prefixes of src/ files, or virtual module ids (namespace:path). A chunk takes its
 * roots and the packages they import that no earlier chunk took; src/ files only by their own roots.
 */
export const SERVER_CHUNKS = [
  { name: 'zodbase', roots: ['zod/v4/core/schemas.js'] },
  { name: 'zodlocales', roots: ['vault-mcp-zod:vault-mcp:zod-locales-en', 'zod/v4/locales/', 'zod/v3/locales/'] },
  { name: 'zodcore', roots: ['zod/v4/core/'] },
  { name: 'zodv3', roots: ['zod/v3/'] },
  { name: 'zod', roots: ['zod'] },
  { name: 'zodjson', roots: ['zod-to-json-schema'] },
  { name: 'ajv', roots: ['ajv', 'ajv-formats'] },
  { name: 'hono', roots: ['@hono/node-server'] },
  { name: 'mcptypes', roots: ['@modelcontextprotocol/sdk/dist/esm/types.js'] },
  { name: 'mcp', roots: ['@modelcontextprotocol/sdk'] },
  { name: 'iconv', roots: ['iconv-lite'] },
  { name: 'mime', roots: ['mime-db', 'mime-types'] },
  { name: 'express', roots: ['express'] },
  { name: 'stem', roots: ['@orama/stemmers', '@orama/stopwords', 'minisearch'] },
  { name: 'text', roots: ['yaml', 'diff'] },
  { name: 'core', roots: ['src/core/'] },
  { name: 'search', roots: ['src/search/'] },
  { name: 'host', roots: ['src/host/', 'src/services/'] },
  { name: 'features', roots: ['src/llm/', 'src/net/', 'src/git/', 'src/jobs/', 'src/freshness/', 'src/tasks/', 'src/graph/', 'src/changes/', 'src/semantic/'] },
  { name: 'tools1', roots: ['src/mcp/tool.ts', 'src/mcp/contract.ts', 'src/http/guards.ts', 'src/transfer/', 'src/mcp/tools/args', 'src/mcp/tools/results', 'src/mcp/tools/write-shared', 'src/mcp/tools/graph', 'src/mcp/tools/notes-'] },
  { name: 'tools2', roots: ['src/mcp/tools/search-', 'src/mcp/tools/files-', 'src/mcp/tools/git', 'src/mcp/tools/import', 'src/mcp/tools/jobs'] },
  { name: 'tools3', roots: ['src/mcp/tools/'] },
  // Lazy: reached only by dynamic import() (semantic search).
  { name: 'worker', roots: ['vault-mcp-embed-worker:vault-mcp:embed-worker', 'vault-mcp-ort-wasm:vault-mcp:ort-wasm'], lazy: true },
  { name: 'transformers', roots: ['@xenova/transformers'], lazy: true },
];
export const chunkFile = (name) => `server-${name}.js`;
/** The chunks main.js evaluates before server.js, in order. */
export const EAGER_CHUNK_FILES = SERVER_CHUNKS.filter((c) => !c.lazy).map((c) => chunkFile(c.name));

const MAIN = '';
const pkgOf = (key) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(key)?.[1] ?? null;

/**
 * Builds server.js and its chunk files into `outdir`. `options`: the esbuild options of a one-file
 * build (entry in `entry`); plugins, aliases and defines apply to every chunk. Returns the build id
 * every chunk carries (main.js checks it, so files from two builds are never mixed).
 */
export async function buildServerChunks({ root, entry, outdir, options }) {
  const whole = await build({ ...options, absWorkingDir: root, entryPoints: [entry], write: false, metafile: true, outfile: resolve(outdir, 'server.js') });
  const inputs = whole.metafile.inputs;

  // Which chunk owns each input file.
  const owner = new Map();
  for (const chunk of SERVER_CHUNKS) {
    const rooted = (k) => chunk.roots.some((r) => r === k || r === pkgOf(k) || (r.startsWith('src/') && k.startsWith(r)) || ((r.endsWith('/') || r.endsWith('.js')) && k.includes(`node_modules/${r}`)));
    const queue = Object.keys(inputs).filter((k) => !owner.has(k) && rooted(k));
    while (queue.length) {
      const k = queue.pop();
      if (owner.has(k)) continue;
      owner.set(k, chunk.name);
      // Our own files stay in server.js, except the stand-ins aliased for a package (src/semantic/shims).
      // Our import() calls lead to lazy chunks, which take their files by their own roots.
      for (const imp of inputs[k].imports) {
        if (imp.external || !inputs[imp.path] || owner.has(imp.path) || (k.startsWith('src/') && imp.kind === 'dynamic-import')) continue;
        if (!imp.path.startsWith('src/') || imp.path.includes('/shims/')) queue.push(imp.path);
      }
    }
  }
  for (const k of Object.keys(inputs)) if (!owner.has(k)) owner.set(k, MAIN);

  // Imports that cross chunks: checked (eager chunks only import earlier ones; lazy ones only by
  // dynamic import) and numbered.
  const order = new Map(SERVER_CHUNKS.map((c, i) => [c.name, i]));
  order.set(MAIN, SERVER_CHUNKS.length);
  const lazy = new Set(SERVER_CHUNKS.filter((c) => c.lazy).map((c) => c.name));
  const exportKey = new Map();
  const bad = [];
  for (const [k, input] of Object.entries(inputs)) {
    const from = owner.get(k);
    for (const imp of input.imports) {
      if (imp.external || !inputs[imp.path]) continue;
      const to = owner.get(imp.path);
      if (to === from) continue;
      // A lazy chunk only by dynamic import; otherwise only a chunk evaluated earlier (lazy chunks
      // come after every eager one, and nothing imports server.js's own files).
      const ok = lazy.has(to) ? imp.kind === 'dynamic-import' : to !== MAIN && (lazy.has(from) || order.get(to) < order.get(from));
      if (!ok) { bad.push(`${k} (${from || 'server.js'}) imports ${imp.path} (${to || 'server.js'}) with ${imp.kind}`); continue; }
      if (!exportKey.has(imp.path)) exportKey.set(imp.path, `m${exportKey.size}`);
    }
  }
  if (bad.length) throw new Error(`server chunks: reorder SERVER_CHUNKS in scripts/esbuild-chunks.mjs:\n  ${bad.join('\n  ')}`);
  const id = createHash('sha256').update(JSON.stringify([...exportKey].sort())).update(JSON.stringify([...owner].sort())).digest('hex').slice(0, 16);

  // Our own modules' export names, so their shims can copy plain values (see the vmcp-esm loader).
  const ownModules = [...exportKey.keys()].filter((k) => k.startsWith('src/') && /\.ts$/.test(k));
  const namesOf = new Map();
  if (ownModules.length) {
    const scan = await build({ entryPoints: ownModules, absWorkingDir: root, bundle: false, format: 'esm', write: false, metafile: true, outdir: resolve(outdir, '.exports'), logLevel: 'silent' });
    for (const out of Object.values(scan.metafile.outputs)) if (out.entryPoint) namesOf.set(`${owner.get(out.entryPoint)}:${exportKey.get(out.entryPoint)}`, out.exports);
  }

  const keyOf = (r) => (r.namespace === 'file' ? relative(root, r.path) : `${r.namespace}:${r.path}`);
  const redirect = (own) => ({
    name: 'vault-mcp-server-chunks',
    setup(b) {
      b.onResolve({ filter: /^\.\/server-[a-z0-9]+\.js$/ }, (a) => (a.namespace === 'vmcp-cjs' ? { path: a.path, external: true } : undefined));
      b.onResolve({ filter: /^vmcp-cjs:/ }, (a) => ({ path: a.path.slice('vmcp-cjs:'.length), namespace: 'vmcp-cjs' }));
      b.onResolve({ filter: /.*/ }, async (a) => {
        if (a.pluginData?.vmcpSkip || a.kind === 'entry-point' || a.namespace === 'vmcp-esm' || a.namespace === 'vmcp-cjs') return undefined;
        const r = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, namespace: a.namespace, pluginData: { vmcpSkip: true } });
        if (r.errors.length || r.external) return undefined;
        const where = owner.get(keyOf(r));
        if (where === undefined || where === own) return { path: r.path, namespace: r.namespace, pluginData: r.pluginData, sideEffects: r.sideEffects };
        const target = `${where}:${exportKey.get(keyOf(r))}`;
        // require() gets the other chunk's value as it is; import / import() go through the ESM shim.
        return a.kind === 'require-call' || a.kind === 'require-resolve' ? { path: target, namespace: 'vmcp-cjs' } : { path: target, namespace: 'vmcp-esm' };
      });
      // Our own modules: their exports copied once as plain values (`export *` reads every use through
      // three getters, esbuild's and Node's interop: 44 ms of a 100k-note rename's listeners); their
      // values are final by then (an earlier chunk, evaluated whole; src/ exports no `let`).
      // Packages: `export *` + default (their names are not known here).
      b.onLoad({ filter: /.*/, namespace: 'vmcp-esm' }, (a) => {
        const from = JSON.stringify(`vmcp-cjs:${a.path}`);
        const names = namesOf.get(a.path);
        if (!names) return { contents: `export * from ${from};\nexport { default } from ${from};\n`, loader: 'js', resolveDir: root };
        const named = names.filter((n) => n !== 'default');
        const copy = [`const m = require(${from});`];
        if (named.length) copy.push(`export const { ${named.join(', ')} } = m;`);
        if (names.includes('default')) copy.push('export default m.default;');
        return { contents: `${copy.join('\n')}\n`, loader: 'js', resolveDir: root };
      });
      b.onLoad({ filter: /.*/, namespace: 'vmcp-cjs' }, (a) => {
        const [chunk, key] = a.path.split(':');
        return { contents: `module.exports = require(${JSON.stringify(`./${chunkFile(chunk)}`)}).${key};\n`, loader: 'js', resolveDir: root };
      });
    },
  });
  const withRedirect = (own) => ({ ...options, absWorkingDir: root, plugins: [redirect(own), ...(options.plugins ?? [])] });

  await Promise.all(SERVER_CHUNKS.map((chunk) => {
    const exported = [...exportKey].filter(([k]) => owner.get(k) === chunk.name);
    const target = (k) => (k.includes(':') && !k.startsWith('.') && !k.startsWith('/') ? k.slice(k.indexOf(':') + 1) : resolve(root, k));
    const contents = `module.exports = { __build: ${JSON.stringify(id)}, ${exported.map(([k, m]) => `${m}: require(${JSON.stringify(target(k))})`).join(', ')} };\n`;
    return build({ ...withRedirect(chunk.name), stdin: { contents, resolveDir: root, loader: 'js', sourcefile: `${chunkFile(chunk.name)} (entry)` }, outfile: resolve(outdir, chunkFile(chunk.name)) });
  }));
  await build({ ...withRedirect(MAIN), entryPoints: [entry], outfile: resolve(outdir, 'server.js'), define: { ...options.define, __SERVER_BUILD__: JSON.stringify(id) } });
  // Chunk files of an earlier layout would be copied along and never read: remove them.
  const current = new Set(SERVER_CHUNKS.map((c) => chunkFile(c.name)));
  for (const f of readdirSync(outdir)) if (/^server-[a-z0-9]+\.js$/.test(f) && !current.has(f)) rmSync(resolve(outdir, f));
  return id;
}
