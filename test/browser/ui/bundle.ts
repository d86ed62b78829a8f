// Bundles ui/app.ts for the browser: 'obsidian' is ../obsidian-dom.ts (the DOM implementation), the MCP
// server and HTTP modules (SDK, express, every tool) are replaced by shims/server.ts, and the few Node
// builtins the UI modules import resolve to browser shims. Any other Node builtin fails the build, so a
// new server-side import reaching the UI shows up here.
import { build, type Plugin } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SHIMS: Record<string, string> = { path: 'path.ts', fs: 'fs.ts', crypto: 'crypto.ts', timers: 'timers.ts' };

const browserShims: Plugin = {
  name: 'vmcp-browser-shims',
  setup(b) {
    b.onResolve({ filter: /^obsidian$/ }, () => ({ path: join(here, '../obsidian-dom.ts') }));
    b.onResolve({ filter: /\/(mcp\/server|http\/app)\.js$/ }, () => ({ path: join(here, 'shims/server.ts') }));
    b.onResolve({ filter: /^(node:)?(path|fs|crypto|timers)$/ }, (a) => ({ path: join(here, 'shims', SHIMS[a.path.replace(/^node:/, '')]) }));
    // Model loading is never reached in the page (the controller's semantic service is a status only).
    b.onResolve({ filter: /^@xenova\/transformers/ }, (a) => ({ path: a.path, external: true }));
  },
};

let cached: Promise<string> | null = null;

/** The page script (IIFE) as text. */
export function uiBundle(): Promise<string> {
  cached ??= build({
    entryPoints: [join(here, 'app.ts')],
    bundle: true, write: false, platform: 'browser', format: 'iife', target: 'es2022',
    plugins: [browserShims], logLevel: 'error', legalComments: 'none', sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"' },
  }).then((r) => r.outputFiles[0].text);
  return cached;
}
