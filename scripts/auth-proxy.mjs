// auth-proxy.mjs LISTEN_PORT TARGET_URL (LISTEN_PORT 0 = any free port) — forwards every request verbatim (Host and Origin included, so
// the server's DNS-rebinding guard still sees what the client sent) and adds "Authorization: Bearer
// <key>". Lets the official MCP conformance suite, which cannot send a bearer header, test a real
// keyed server without the server growing a no-auth mode.
// The key comes from the file named by --key-file FILE or from the environment variable VAULT_MCP_KEY,
// never from the command line (every user of the machine can read a process's arguments).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const usage = 'usage: VAULT_MCP_KEY=… node scripts/auth-proxy.mjs LISTEN_PORT TARGET_URL\n   or: node scripts/auth-proxy.mjs LISTEN_PORT TARGET_URL --key-file FILE';
let parsed;
try {
  parsed = parseArgs({ args: process.argv.slice(2), allowPositionals: true, strict: true, options: { 'key-file': { type: 'string' } } });
} catch (e) {
  console.error(`${e.message}\n${usage}`);
  process.exit(2);
}
const [port, target, extra] = parsed.positionals;
if (extra !== undefined) {
  console.error(`the key is not taken on the command line (other users see process arguments): put it in VAULT_MCP_KEY or a --key-file.\n${usage}`);
  process.exit(2);
}
if (!port || !target) {
  console.error(usage);
  process.exit(2);
}
const file = parsed.values['key-file'];
const key = (file ? readFileSync(file, 'utf8') : process.env.VAULT_MCP_KEY ?? '').trim();
if (!key) {
  console.error(`no key: set VAULT_MCP_KEY or pass --key-file FILE.\n${usage}`);
  process.exit(2);
}
const t = new URL(target);
const proxy = http
  .createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${key}` };
    const up = http.request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
    req.pipe(up);
  })
  // LISTEN_PORT 0 takes a free port; the line names the real one.
  .listen(Number(port), '127.0.0.1', () => console.log(`auth proxy on 127.0.0.1:${proxy.address().port} → ${target}`));
