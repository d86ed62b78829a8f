// Injected into the CommonJS plugin bundle (see esbuild-semantic.mjs): a file URL for `import.meta.url`.
/* global __filename */
export const __vmcp_import_meta_url = typeof __filename === 'string' ? require('node:url').pathToFileURL(__filename).href : 'file:///vault-mcp-server/main.js';
