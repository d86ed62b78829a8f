// auth-proxy.mjs LISTEN_PORT TARGET_URL KEY — forwards every request verbatim (Host and Origin
// included, so the server's DNS-rebinding guard still sees what the client sent) and adds
// "Authorization: Bearer KEY". Lets the official MCP conformance suite, which cannot send a bearer
// header, test a real keyed server without the server growing a no-auth mode.
import http from 'node:http';

const [port, target, key] = process.argv.slice(2);
if (!port || !target || !key) {
  console.error('usage: node scripts/auth-proxy.mjs LISTEN_PORT TARGET_URL KEY');
  process.exit(2);
}
const t = new URL(target);
http
  .createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${key}` };
    const up = http.request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
    req.pipe(up);
  })
  .listen(Number(port), '127.0.0.1', () => console.log(`auth proxy on 127.0.0.1:${port} → ${target}`));
