// zod's namespaces (classic, mini, core) export every locale (`z.locales`): about 40 languages, 277 KB of
// the plugin's server chunks, parsed and evaluated at every server start (23 ms of one 54 ms block in a
// profiled 100k first build). Only English is used: zod sets it itself, and nothing here calls
// `z.config` with another. So the plugin's build gets a locales index holding English alone; a
// `z.locales.de` there is undefined. The CLI does not bundle zod and keeps it whole.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ID = 'vault-mcp:zod-locales-en';

export function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      // zod's own `../locales/index.js`, and the id itself (how esbuild-chunks.mjs builds the chunk holding it).
      b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/node_modules[\\/]zod[\\/]v4[\\/](core|classic|mini)[\\/]/.test(args.importer) ? { path: ID, namespace: 'vault-mcp-zod' } : undefined));
      b.onResolve({ filter: /^vault-mcp:zod-locales-en$/ }, (args) => ({ path: args.path, namespace: 'vault-mcp-zod' }));
      b.onLoad({ filter: /.*/, namespace: 'vault-mcp-zod' }, () => ({ contents: "export { default as en } from 'zod/v4/locales/en.js';", resolveDir: root, loader: 'js' }));
    },
  };
}
