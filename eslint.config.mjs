// `npm run lint`: the linter Obsidian's plugin reviewers run (eslint-plugin-obsidianmd, recommended config,
// type-checked) over src/ and package.json, plus its validate-manifest rule on manifest.json.
// `npm test` runs it and fails on any message, warnings included.
import { defineConfig } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import tseslint from 'typescript-eslint';
import { DEFAULT_BRANDS } from 'eslint-plugin-obsidianmd/dist/lib/rules/ui/brands.js';
import { DEFAULT_ACRONYMS } from 'eslint-plugin-obsidianmd/dist/lib/rules/ui/acronyms.js';

export default defineConfig([
  { ignores: ['main.js', 'dist/**', 'node_modules/**', 'test/**', 'bench/**', 'scripts/**', 'examples/**', 'docs/**', '*.mjs'] },
  ...obsidianmd.configs.recommended,
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // The recommended setting plus the names this plugin's UI uses, so they keep their casing.
      'obsidianmd/ui/sentence-case': ['warn', {
        enforceCamelCaseLower: true,
        // Given lists replace the rule's own, so they extend its defaults.
        brands: [...DEFAULT_BRANDS, 'Vault MCP Server', 'Claude Code', 'Claude Desktop', 'Ollama', 'LM Studio', 'Hugging Face', 'Xenova', 'MiniLM'],
        acronyms: [...DEFAULT_ACRONYMS, 'MCP', 'UTC', 'WASM', 'OK'],
        // URLs, tool names, date formats and one-word values (placeholders such as a model id or
        // "claude-code") are quoted literally, not sentences.
        ignoreRegex: ['https?://', '[a-z]+_[a-z_]+', 'YYYY-MM-DD', '^[A-Za-z0-9._:/-]+$'],
      }],
      // minAppVersion is 1.11.4, so the tab must render through display() (settings-tab/require-display);
      // a declarative getSettingDefinitions() would be a second implementation of every section that
      // only Obsidian 1.13+ runs and that no test here can exercise. Revisit when minAppVersion reaches 1.13.
      'obsidianmd/settings-tab/prefer-setting-definitions': 'off',
    },
  },
  {
    // The inference worker runs in a Web Worker (a worker_threads Worker in tests): there is no window or
    // popout there, its global object is the worker's own, so the popout-safe window/activeWindow advice
    // of no-global-this does not apply to these two files.
    files: ['src/semantic/worker-entry.ts', 'src/semantic/embedWorker.ts'],
    rules: { 'obsidianmd/no-global-this': 'off' },
  },
  {
    // The one default config-folder name, for headless use only (no Vault#configDir there); the
    // plugin reads Vault#configDir. Every other file imports DEFAULT_CONFIG_DIR from here.
    files: ['src/host/configDir.ts'],
    rules: { 'obsidianmd/hardcoded-config-path': 'off' },
  },
  {
    // manifest.json parsed by the TypeScript parser (JSON is an object expression), validated only.
    files: ['manifest.json'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
    plugins: { obsidianmd },
    rules: { 'obsidianmd/validate-manifest': 'error' },
  },
]);
