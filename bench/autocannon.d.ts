// Minimal typing for the autocannon devDependency (it ships none), as bench/load.ts uses it.
declare module 'autocannon' {
  interface Histogram { p50: number; p99: number; average: number }
  export interface Result { requests: { total: number; average: number }; latency: Histogram; non2xx: number; errors: number }
  function autocannon(opts: Record<string, unknown>): Promise<Result>;
  export default autocannon;
}
