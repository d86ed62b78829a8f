// Stacks of rare long blocks (`LONGTASKS_STALL_MS=300`): a CPU profile changes timing enough that a
// block seen once in four runs may not come back under it. This watchdog costs nothing until it fires:
// the main thread stamps a shared clock from its 1 ms probe tick; a worker thread, connected to the main
// thread's inspector, sees the stamp go stale, pauses the main thread wherever its JavaScript is, writes
// the stack down and resumes it. Each block gets up to three stacks (at the threshold and every 100 ms).
import { Worker } from 'node:worker_threads';

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { Session } = require('node:inspector');
const beat = new Float64Array(workerData.sab);
const session = new Session();
session.connectToMainThread();
const stacks = [];
let pausing = false;
let blockStart = -1;
let taken = 0;
session.on('Debugger.paused', (m) => {
  const frames = m.params.callFrames.slice(0, 14).map((f) => (f.functionName || '(anonymous)') + ' ' + (f.url.split('/').slice(-2).join('/')) + ':' + (f.location.lineNumber + 1));
  stacks.push({ blockStartedAt: blockStart, stalledMs: Math.round(performance.timeOrigin + performance.now() - beat[0]), frames });
  session.post('Debugger.resume', () => { pausing = false; });
});
session.post('Debugger.enable', () => {
  setInterval(() => {
    const stale = performance.timeOrigin + performance.now() - beat[0];
    if (beat[0] === 0 || stale < workerData.ms) { taken = 0; return; }
    if (beat[0] !== blockStart) { blockStart = beat[0]; taken = 0; }
    if (pausing || taken >= 3 || stale < workerData.ms + taken * 100) return;
    pausing = true; taken++;
    session.post('Debugger.pause');
  }, 10);
});
parentPort.on('message', () => { parentPort.postMessage(stacks); });
`;

export interface StallStack { blockStartedAt: number; stalledMs: number; frames: string[] }

export class StallStacks {
  private readonly beat = new Float64Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;

  constructor(ms: number) {
    this.worker = new Worker(WORKER, { eval: true, workerData: { sab: this.beat.buffer, ms } });
    this.worker.unref();
  }

  /** Called from the main thread's probe tick: the loop is turning. */
  stamp(): void {
    this.beat[0] = performance.timeOrigin + performance.now();
  }

  /** Between phases nothing stamps: no stack is taken. */
  disarm(): void {
    this.beat[0] = 0;
  }

  async stacks(): Promise<StallStack[]> {
    return new Promise((resolve) => {
      this.worker.once('message', resolve);
      this.worker.postMessage('stacks');
    });
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}
