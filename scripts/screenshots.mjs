// `npm run screenshots`: builds if needed, then renders the plugin's UI in Chromium to docs/screenshots/
// (test/browser/ui/screenshots.ts; needs Debian's chromium, which .ci/run installs).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = join(fileURLToPath(import.meta.url), '../..');
buildIfNeeded(root);
const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'test/browser/ui/screenshots.ts')], { stdio: 'inherit', cwd: root, env: { ...process.env, VAULT_MCP_REPO: root } });
process.exit(r.status ?? 1);
