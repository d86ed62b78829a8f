// The test client's transport must not pile abort listeners on its one long-lived AbortSignal: the
// vault-wide read sweeps make thousands of calls, which printed 9,303 MaxListenersExceededWarning
// lines before the harness gave each request a signal of its own (test/helpers/server.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { SAMPLE_VAULT } from '../helpers/paths.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { connect, call } from '../helpers/server.js';

test('1,200 calls through one client leave no abort listeners behind and print no MaxListeners warning', async () => {
  const rt = await startTestRuntime(SAMPLE_VAULT, { rateLimitPerMinute: 0, defaultDailyQuota: 0 } as Record<string, number>);
  const client = await connect(rt.url, rt.readKey);
  const warnings: string[] = [];
  const onWarning = (w: Error) => { if (w.name === 'MaxListenersExceededWarning') warnings.push(w.message); };
  process.on('warning', onWarning);
  try {
    const signal = (client.transport as unknown as { _abortController: AbortController })._abortController.signal;
    let i = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (i < 1200) { i++; const r = await call(client, 'read_note', { path: 'Welcome.md' }); assert.ok(!r.isError); }
    }));
    // One forwarding listener per transport signal, however many calls went through it.
    assert.ok(getEventListeners(signal, 'abort').length <= 1, `${getEventListeners(signal, 'abort').length} abort listeners left on the transport's signal`);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(warnings, []);
  } finally {
    process.off('warning', onWarning);
    await client.close();
    await rt.stop();
  }
});
