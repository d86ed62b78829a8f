// Stand-in for `sharp` in the Obsidian bundle: transformers.js imports it for image pipelines, which
// this plugin never runs (text embeddings only).
export default function sharp(): never {
  throw new Error('image processing is not available in Vault MCP Server');
}
