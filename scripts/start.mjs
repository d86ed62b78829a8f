// `npm start`: build if needed, then serve the bundled sample vault on 127.0.0.1:27200.
// The first run creates a readwrite key and prints it once (it is stored hashed in the sample vault's
// plugin data folder); later runs reuse it. Extra arguments are passed to `serve`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
buildIfNeeded(root);
const args = [join(root, 'dist/cli.js'), 'serve', '--vault', join(root, 'examples/vault'), '--port', '27200', '--create-key', 'sample', ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
