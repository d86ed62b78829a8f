// `npm run lint`: the linter Obsidian's plugin reviewers run (eslint-plugin-obsidianmd, recommended config,
// type-checked) over src/ and package.json, plus its validate-manifest rule on manifest.json.
// `npm test` runs it and fails on any message, warnings included.
import { defineConfig } from 'eslint/config';
import obsidianmd from 'eslint-plugin-obsidianmd';
import tseslint from 'typescript-eslint';

export default defineConfig([
  { ignores: ['main.js', 'dist/**', 'node_modules/**', 'test/**', 'bench/**', 'scripts/**', 'examples/**', 'docs/**', '*.mjs'] },
  ...obsidianmd.configs.recommended,
  {
    files: ['src/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
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
