// Run by raw-events.test.ts in a Node with --expose-gc and a young generation large enough that no
// scavenge runs while it measures: the V8 heap a RawEvents grows by while recording 100,000 renames (the
// app's one task for a folder move), printed as JSON.
import './fake-obsidian/index.js';
import { RawEvents } from '../../src/host/obsidian/rawEvents.js';
import type { TAbstractFile } from 'obsidian';

const N = 100_000;
const files = Array.from({ length: N }, (_, i) => ({ path: `moved/note ${i}.md` }) as unknown as TAbstractFile);
const olds = files.map((f) => `before/${f.path.slice(6)}`);
const perEvent: number[] = [];
for (let run = 0; run < 3; run++) {
  const raw = new RawEvents({ clock: () => 0, sliceMs: 8, handle: () => undefined, emptied: () => undefined });
  (globalThis as { gc?: () => void }).gc!();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < N; i++) raw.record('rename', files[i], files[i].path, olds[i], 7);
  perEvent.push((process.memoryUsage().heapUsed - before) / N);
  raw.close();
}
console.log(JSON.stringify({ perEvent }));
