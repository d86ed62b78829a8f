// Event-loop blocks, measured two ways at once:
// - a 1 ms timer chain that records every gap between its ticks: a gap of g ms means nothing else could
//   run for about g − 1 ms (one long task, or a run of callbacks with no timer phase in between: in the
//   app both freeze the UI the same way). This is the "longest block" and its p99.
// - perf_hooks.monitorEventLoopDelay (libuv's own delay histogram, 1 ms resolution) as a cross-check.
// On a shared machine a gap can also be the OS running other processes; so each gap also records the
// CPU time the main thread itself got meanwhile (Linux: /proc/thread-self/schedstat, nanoseconds; else
// process.cpuUsage, every thread of the process), and "longest block (CPU)" is the longest gap counted
// that way: what the code itself held the thread for, without the time the OS gave other processes.
// Work that is not the plugin's (the fake app's own link resolution, which the real app does itself)
// can be reported with `exclude(start, end)`: that time is taken out of the gaps it falls in.
import { closeSync, openSync, readSync } from 'node:fs';
import { StallStacks } from './stall-stacks.js';
import { constants as perfConstants, monitorEventLoopDelay, performance, PerformanceObserver, type IntervalHistogram } from 'node:perf_hooks';

export interface BlockStats {
  label: string;
  totalMs: number;
  longestMs: number;
  /** The longest gap counting only the CPU time the process used in it (the OS's preemption left out). */
  longestCpuMs: number;
  p99Ms: number;
  over50: number;
  /** Blocks whose main-thread CPU time alone was over 50 ms. */
  over50Cpu: number;
  /** The longest block's CPU time less the garbage collections V8 reported inside it (perf_hooks 'gc'),
   *  and the longest block counted that way: what code ran, apart from collecting the whole heap's garbage
   *  (the app's own objects included). */
  longestCpuLessGcMs: number;
  /** Garbage collection inside the block with the longest CPU time (ms). */
  gcInLongestMs: number;
  eldMaxMs: number;
  eldP99Ms: number;
  /** The five longest blocks: [ms since phase start, length]. */
  worst: [number, number][];
  excludedMs: number;
  /** Every block over 50 ms as [start, end] in microseconds of the monotonic clock V8's CPU profiles
   *  use (process.hrtime), for bench/long-stacks.mjs --blocks. */
  longUs: [number, number][];
  /** For each block over 50 ms of CPU: its CPU ms and the collections inside it by kind (ms). */
  longGcs: string[];
  /** The phase's collection pauses (perf_hooks 'gc', wall ms), whoever's work they fell in: the longest
   *  of each kind, and how many lasted 25 ms or more (a reference run of the app alone has them too). */
  pauses: { longest: Record<string, number>; over25: number; count: number };
}

// Blocks whose windows are kept for bench/long-stacks.mjs (LONGTASKS_MS lowers it to look at the margin).
const LONG_WINDOW_MS = Number(process.env.LONGTASKS_MS ?? 50);

const hrUs = () => Number(process.hrtime.bigint() / 1000n);

const processCpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
/** The main thread's own time on a CPU (ms), from the kernel's scheduler statistics when readable. */
function mainThreadCpu(): { read: () => number; close: () => void } {
  try {
    const fd = openSync('/proc/thread-self/schedstat', 'r');
    const buf = Buffer.alloc(128);
    const read = () => { const n = readSync(fd, buf, 0, 128, 0); return Number(buf.toString('latin1', 0, n).split(' ')[0]) / 1e6; };
    if (!Number.isFinite(read())) throw new Error('unreadable');
    return { read, close: () => closeSync(fd) };
  } catch {
    return { read: processCpuMs, close: () => undefined };
  }
}

export class LoopProbe {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = 0;
  private start = 0;
  private gaps: [number, number, number, number][] = [];
  private lastUs = 0;
  private lastCpu = 0;
  private hist: IntervalHistogram | null = null;
  private excluded: [number, number, number][] = [];
  /** The plugin's listeners' calls (start, end), to say how much of a long block they were. */
  private listens: number[] = [];
  private label = '';
  private gcs: [number, number, number][] = [];
  private gcObserver: PerformanceObserver | null = null;
  private cpu = mainThreadCpu();
  private cpuMs = () => this.cpu.read();
  /** LONGTASKS_STALL_MS: the stack of every block longer than that (bench/stall-stacks.ts). */
  readonly stall = process.env.LONGTASKS_STALL_MS ? new StallStacks(Number(process.env.LONGTASKS_STALL_MS)) : null;

  /** Each phase's label and wall-clock start (to place stall stacks). */
  readonly phases: [string, number][] = [];

  begin(label: string): void {
    this.label = label;
    this.phases.push([label, performance.timeOrigin + performance.now()]);
    this.gaps = [];
    this.excluded = [];
    this.listens = [];
    this.gcs = [];
    this.gcObserver = new PerformanceObserver((list) => { for (const e of list.getEntries()) this.gcs.push([e.startTime, e.startTime + e.duration, (e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0]); });
    this.gcObserver.observe({ entryTypes: ['gc'] });
    this.hist = monitorEventLoopDelay({ resolution: 1 });
    this.hist.enable();
    this.start = this.last = performance.now();
    this.lastUs = hrUs();
    this.lastCpu = this.cpuMs();
    const tick = () => {
      const t = performance.now();
      const c = this.cpuMs();
      const gap = t - this.last - 1;
      if (gap > 1) this.gaps.push([this.last, t, c - this.lastCpu, this.lastUs]);
      this.last = t;
      this.lastUs = hrUs();
      this.lastCpu = c;
      this.stall?.stamp();
      this.timer = setTimeout(tick, 1);
    };
    this.timer = setTimeout(tick, 1);
  }

  /** Time [start, end] (performance.now()) spent in work that is not the plugin's; `amount` (ms) when
   *  only part of it was not (an app task that also ran the plugin's listeners). */
  exclude(start: number, end: number, amount = end - start): void {
    if (this.timer && amount > 0) this.excluded.push([start, end, Math.min(amount, end - start)]);
  }

  /** A call of one of the plugin's listeners, made by the app, ran from `start` to `end`. */
  listener(start: number, end: number): void {
    if (this.timer) this.listens.push(start, end);
  }

  end(): BlockStats {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.stall?.disarm();
    const t = performance.now();
    // The time since the last tick is a gap too (the phase may end inside a block).
    if (t - this.last - 1 > 1) this.gaps.push([this.last, t, this.cpuMs() - this.lastCpu, this.lastUs]);
    this.hist!.disable();
    this.gcObserver?.disconnect();
    let excludedMs = 0;
    let longestCpuMs = 0;
    let longestCpuLessGcMs = 0;
    let gcInLongestMs = 0;
    let over50Cpu = 0;
    const longGcs: string[] = [];
    const blocks = this.gaps.map(([a, b, cpu]) => {
      let own = b - a - 1;
      let ex = 0;
      for (const [s, e, amount] of this.excluded) {
        const o = Math.min(b, e) - Math.max(a, s);
        // The part of the interval's foreign work that falls in this gap (spread evenly over it).
        const x = o > 0 ? (e > s ? o * (amount / (e - s)) : 0) : 0;
        if (x > 0) { own -= x; ex += x; }
      }
      excludedMs += ex;
      const held = Math.max(0, Math.min(own, cpu - ex));
      let gc = 0;
      for (const [s, e] of this.gcs) { const o = Math.min(b, e) - Math.max(a, s); if (o > 0) gc += o; }
      if (held > longestCpuMs) { longestCpuMs = held; gcInLongestMs = Math.min(gc, held); }
      longestCpuLessGcMs = Math.max(longestCpuLessGcMs, held - Math.min(gc, held));
      if (held > 50) {
        over50Cpu++;
        const kinds = new Map<string, number>();
        for (const [s, e, k] of this.gcs) { const o = Math.min(b, e) - Math.max(a, s); if (o > 0) kinds.set(gcKind(k), (kinds.get(gcKind(k)) ?? 0) + o); }
        let heard = 0;
        for (let i = 0; i < this.listens.length; i += 2) { const o = Math.min(b, this.listens[i + 1]) - Math.max(a, this.listens[i]); if (o > 0) heard += o; }
        longGcs.push(`${(a - this.start).toFixed(0)} ms: ${held.toFixed(0)} ms CPU${[...kinds].map(([k, ms]) => `, ${k} ${ms.toFixed(0)}`).join('')}${heard >= 0.5 ? `, the plugin's listeners ${heard.toFixed(0)}` : ''}`);
      }
      return [a - this.start, Math.max(0, own)] as [number, number];
    });
    const longest: Record<string, number> = {};
    for (const [s, e, k] of this.gcs) longest[gcKind(k)] = Math.max(longest[gcKind(k)] ?? 0, e - s);
    const pauses = { longest, over25: this.gcs.filter(([s, e]) => e - s >= 25).length, count: this.gcs.length };
    const lengths = blocks.map((b) => b[1]).sort((x, y) => x - y);
    // p99 over every 1 ms slot of the phase: what share of the time the loop was free enough.
    const slots = Math.max(1, Math.round(t - this.start));
    const p99 = percentileOfBlocks(lengths, slots, 0.99);
    const h = this.hist!;
    return {
      label: this.label,
      totalMs: t - this.start,
      longestMs: lengths.at(-1) ?? 0,
      longestCpuMs,
      longestCpuLessGcMs,
      gcInLongestMs,
      p99Ms: p99,
      over50: lengths.filter((x) => x > 50).length,
      over50Cpu,
      eldMaxMs: h.max / 1e6,
      eldP99Ms: h.percentile(99) / 1e6,
      worst: [...blocks].sort((x, y) => y[1] - x[1]).slice(0, 5),
      excludedMs,
      longGcs,
      pauses,
      longUs: this.gaps.filter(([a, b]) => b - a - 1 > LONG_WINDOW_MS).map(([a, b, , us]) => [us, us + (b - a) * 1000] as [number, number]),
    };
  }
}

/** perf_hooks' gc entry kinds, by name. */
function gcKind(k: number): string {
  const c = perfConstants;
  return k === c.NODE_PERFORMANCE_GC_MAJOR ? 'major' : k === c.NODE_PERFORMANCE_GC_MINOR ? 'scavenge' : k === c.NODE_PERFORMANCE_GC_INCREMENTAL ? 'incremental' : k === c.NODE_PERFORMANCE_GC_WEAKCB ? 'weak callbacks' : `kind ${k}`;
}

/**
 * The p-th percentile of "how long was a tick delayed" over a phase: each block of length L delays
 * about L one-millisecond ticks (by L, L−1, … 1 ms); every other tick has no delay.
 */
function percentileOfBlocks(sortedLengths: number[], slots: number, p: number): number {
  const delays: number[] = [];
  for (const L of sortedLengths) for (let d = Math.ceil(L); d >= 1; d--) delays.push(d);
  const rank = Math.floor(p * Math.max(slots, delays.length));
  const zeros = Math.max(0, slots - delays.length);
  if (rank < zeros) return 0;
  delays.sort((a, b) => a - b);
  return delays[Math.min(delays.length - 1, rank - zeros)] ?? 0;
}

/** "scavenge 41, major 12 ms; 3 of 120 pauses ≥ 25 ms" */
export function formatPauses(p: BlockStats['pauses']): string {
  const kinds = Object.entries(p.longest).sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${ms.toFixed(0)}`).join(', ');
  return `${kinds || 'none'} ms; ${p.over25} of ${p.count} pauses ≥ 25 ms`;
}

export function formatStats(s: BlockStats): string {
  const f = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(1));
  return `${s.label.padEnd(22)} total ${f(s.totalMs).padStart(7)} ms | longest block ${f(s.longestMs).padStart(6)} ms (CPU ${f(s.longestCpuMs)}, of it GC ${f(s.gcInLongestMs)}; without GC ${f(s.longestCpuLessGcMs)}) | p99 ${f(s.p99Ms).padStart(5)} ms | >50 ms: ${String(s.over50).padStart(3)} (CPU ${s.over50Cpu}) | ELD max ${f(s.eldMaxMs)} p99 ${f(s.eldP99Ms)} ms${s.excludedMs > 1 ? ` | fake app's own work excluded: ${f(s.excludedMs)} ms` : ''}`;
}
