// Scratch check: longest event-loop block of the vector store's save and load at 100k notes × 2 chunks ×
// 384 dims, synchronous (serialize/deserialize) vs sliced (serializeSliced/deserializeSliced).
import { VectorStore } from '../src/semantic/store.js';
import { LoopProbe, formatStats } from './loop-probe.js';
const dims = 384;
const s = new VectorStore({ model: 'm', dims, chunking: 'c' }, 1024);
const v = new Float32Array(2 * dims).fill(0.5);
for (let i = 0; i < 100_000; i++) s.upsert({ path: `Notes/F${i % 100}/Note ${i}.md`, hash: 'sha256:' + 'a'.repeat(64), mtime: 1700000000000 + i, size: 1234, chunks: [{ ordinal: '#1', heading: 'Note heading', start: 0, end: 900 }, { ordinal: '#2', heading: 'Details', start: 900, end: 1800 }] }, v);
const probe = new LoopProbe();
const tick = () => new Promise((r) => setTimeout(r, 20));
for (let k = 0; k < 2; k++) {
  probe.begin('serialize (sync)'); await tick(); const bytes = s.serialize(); await tick(); console.log(formatStats(probe.end()));
  probe.begin('serializeSliced'); const b2 = await s.serializeSliced(); console.log(formatStats(probe.end()));
  probe.begin('deserialize (sync)'); await tick(); VectorStore.deserialize(bytes); await tick(); console.log(formatStats(probe.end()));
  probe.begin('deserializeSliced'); await VectorStore.deserializeSliced(b2); console.log(formatStats(probe.end()));
}
