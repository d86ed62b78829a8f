// `npm run load`: one key hammers read_note (autocannon, loopback only, bounded in time and count)
// while a second key makes calls at a normal pace. Reports how the hot key is refused at its rate,
// p50/p99 of both keys (the calm key alone first, then during the hammering) and the server's RSS.
// The server runs as a child process (`src/cli.ts serve`), so the load generator does not share its
// event loop. Options: LOAD_SECONDS (default 10), LOAD_CONNECTIONS (default 16), LOAD_MAX_REQUESTS
// (default 100000), LOAD_RATE (hot key requests/s in all, default 200; 0 = unbounded, i.e. saturation).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FsDataStore } from '../src/host/fsDataStore.js';
import { KeyStore } from '../src/services/keyStore.js';
import { copyVault, tempDir } from '../test/helpers/vault.js';

const REPO = join(fileURLToPath(import.meta.url), '../..');
const SECONDS = Number(process.env.LOAD_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 16);
const MAX_REQUESTS = Number(process.env.LOAD_MAX_REQUESTS ?? 100_000);
/** Requests per second the hot key sends in all (default 200, 20x its limit); 0 = as fast as the server answers. */
const RATE = Number(process.env.LOAD_RATE ?? 200);

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN; };
const rssMb = (pid: number) => { const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8')); return m ? Number(m[1]) / 1024 : NaN; };
const cpuS = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) / 100; };
const headers = (key: string, sid?: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...(sid ? { 'mcp-session-id': sid } : {}) });

async function session(url: string, key: string): Promise<string> {
  const r = await fetch(url, { method: 'POST', headers: headers(key), body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load', version: '1' } } }) });
  const sid = r.headers.get('mcp-session-id');
  await r.text();
  if (!sid) throw new Error(`initialize failed: ${r.status}`);
  await fetch(url, { method: 'POST', headers: headers(key, sid), body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }).then((x) => x.text());
  return sid;
}

const callBody = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_note', arguments: { path: 'Welcome.md' } } });

async function calmLoop(url: string, key: string, sid: string, ms: number, everyMs: number) {
  const lat: number[] = [];
  let refused = 0;
  const end = Date.now() + ms;
  for (let i = 1; Date.now() < end; i++) {
    const t0 = performance.now();
    const text = await fetch(url, { method: 'POST', headers: headers(key, sid), body: callBody(i) }).then((r) => r.text());
    lat.push(performance.now() - t0);
    if (text.includes('MCP-REFUSAL')) refused++;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return { calls: lat.length, refused, p50: pct(lat, 50), p99: pct(lat, 99) };
}

async function main() {
  const vault = copyVault();
  const dataDir = join(tempDir('vmcp-load-'), 'data');
  const keys = new KeyStore(new FsDataStore(dataDir));
  await keys.load();
  const hot = (await keys.add({ name: 'hot', scope: 'read', dailyQuota: 0 })).raw;
  const calm = (await keys.add({ name: 'calm', scope: 'read', dailyQuota: 0 })).raw;
  const child = spawn(process.execPath, [...(process.env.LOAD_PROFILE ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.LOAD_PROFILE}`] : []), '--import', 'tsx', join(REPO, 'src/cli.ts'), 'serve', '--vault', vault, '--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0', '--no-watch'], { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout!.on('data', (d) => { out += d; const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(out); if (m) { clearTimeout(timer); resolve(m[1]); } });
    child.on('exit', (c) => reject(new Error(`server exited ${c}: ${out}`)));
  });
  try {
    const hotSid = await session(url, hot);
    const calmSid = await session(url, calm);
    const rss0 = rssMb(child.pid!);
    process.stderr.write(`server ${url}; calm key alone for 3 s, then ${SECONDS} s of hammering\n`);
    const cpu0 = cpuS(child.pid!);
    const alone = await calmLoop(url, calm, calmSid, 3000, 100);
    let ok = 0, refused = 0, otherRefusals = 0;
    const rssSamples: number[] = [];
    const sampler = setInterval(() => rssSamples.push(rssMb(child.pid!)), 500);
    let id = 1;
    const [cannon, during] = await Promise.all([
      autocannon({
        url, connections: CONNECTIONS, duration: SECONDS, maxOverallRequests: MAX_REQUESTS, method: 'POST', ...(RATE > 0 ? { overallRate: RATE } : {}),
        headers: headers(hot, hotSid),
        requests: [{ method: 'POST', setupRequest: (req: Record<string, unknown>) => ({ ...req, body: callBody(id++) }), onResponse: (_s: number, body: string) => { if (body.includes('"code\\":\\"rate_limited')) refused++; else if (body.includes('MCP-REFUSAL')) otherRefusals++; else if (body.includes('"result"')) ok++; } }],
      }),
      calmLoop(url, calm, calmSid, SECONDS * 1000, 100),
    ]);
    clearInterval(sampler);
    await new Promise((r) => setTimeout(r, 2000)); // let the server settle (GC) before the last sample
    const rss1 = rssMb(child.pid!);
    const cpu1 = cpuS(child.pid!);
    const hotRate = ok / SECONDS;
    const report = {
      seconds: SECONDS, connections: CONNECTIONS, hot_rate_per_s: RATE || 'unbounded',
      hot: { requests: cannon.requests.total, ok, rate_limited: refused, other_refusals: otherRefusals, admitted_per_s: Math.round(hotRate * 10) / 10, expected: 'burst 120 then 10/s (600/min)', p50_ms: cannon.latency.p50, p99_ms: cannon.latency.p99, non2xx: cannon.non2xx, errors: cannon.errors },
      server_cpu_s: Math.round((cpu1 - cpu0) * 100) / 100,
      calm_alone: alone, calm_during: during,
      rss_mb: { before: Math.round(rss0), mid: Math.round(rssSamples[Math.floor(rssSamples.length / 2)] ?? NaN), peak: Math.round(Math.max(...rssSamples, rss1)), after: Math.round(rss1) },
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    const problems: string[] = [];
    if (ok > 120 + SECONDS * 10 * 1.2 + 5) problems.push(`hot key got ${ok} calls through, more than its rate allows`);
    if (refused === 0) problems.push('hot key was never refused');
    if (during.refused) problems.push(`calm key was refused ${during.refused} times`);
    if (during.p99 > Math.max(100, alone.p99 * 10)) problems.push(`calm key p99 ${during.p99.toFixed(1)} ms vs ${alone.p99.toFixed(1)} ms alone`);
    if (rss1 - rss0 > 100) problems.push(`RSS grew ${Math.round(rss1 - rss0)} MB`);
    if (problems.length) { process.stdout.write(`FAIL: ${problems.join('; ')}\n`); process.exitCode = 1; }
    else process.stdout.write('OK: hot key refused at its rate, calm key unaffected, memory flat\n');
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
