// Run by sessions.test.ts with --expose-gc: the in-process server (real HTTP) flooded with
// initialize calls from 10 keys, never closed; prints the live heap after a full GC per round.
import { copyVault } from '../../helpers/vault.js';
import { startTestRuntime } from '../../helpers/runtime.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
const t = await startTestRuntime(copyVault(), { rateLimitPerMinute: 0, defaultDailyQuota: 0, authFailureBudget: 0 });
const keys = [t.rwKey, t.readKey];
for (let i = 0; i < 8; i++) { const k = `vmcp_flood_${i}_${'x'.repeat(20)}`; t.rt.keys.addEphemeral(k, `flood-${i}`, 'read'); keys.push(k); }
const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } });
const heapMb = () => { gc(); gc(); return Math.round(process.memoryUsage().heapUsed / 1e5) / 10; };
console.log(`round 0 heap ${heapMb()} sessions 0`);
for (let round = 1; round <= 2; round++) {
  for (let i = 0; i < 3000; i += 30) {
    await Promise.all(Array.from({ length: 30 }, async (_, j) => {
      const r = await fetch(t.url, { method: 'POST', headers: { authorization: `Bearer ${keys[(i + j) % keys.length]}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }, body: INIT });
      await r.text();
    }));
  }
  await new Promise((r) => setTimeout(r, 100));
  console.log(`round ${round} heap ${heapMb()} sessions ${t.rt.sessions.size}`);
}
await t.stop();
