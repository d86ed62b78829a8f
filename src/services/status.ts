// Index state as counts only (never paths), shared by /health, stats().
// The report over every index is src/services/indexReport.ts.

export interface IndexStatus {
  name: string; // "metadata", "keyword", "semantic"…
  state: 'ready' | 'building' | 'loading' | 'unavailable' | 'disabled';
  indexed: number;
  pending: number;
  skipped?: number;
  detail?: string;
}

export interface IndexStatusProvider {
  status(): IndexStatus;
  /** Counts over the notes `visible` accepts (a root-confined key); without it, see scopedStatus. */
  statusWithin?(visible: (path: string) => boolean): IndexStatus;
}
