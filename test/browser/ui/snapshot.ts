// What the render page gets from a real plugin run (ui/record.ts): the data folder's files (keys.json,
// usage.json, audit.jsonl: read by the REAL KeyStore, UsageStore and AuditLog in the page), the settings
// and server state, the tools/list entries each key got from the real server, and the index statuses.
import type { Settings } from '../../../src/core/settings.js';
import type { ServerState } from '../../../src/plugin/statusBar.js';
import type { IndexStatus } from '../../../src/services/status.js';

export interface UiSnapshot {
  settings: Settings;
  state: ServerState;
  connectUrl: string;
  dataDir: string;
  /** The vault's cache folder (outside the vault unless kept inside). */
  cacheDir?: string;
  /** Data-folder files by name (text). */
  files: Record<string, string>;
  /** Key name → the tools/list entries the running server listed for it. */
  tools: Record<string, unknown[]>;
  /** indexStatuses(deps) at the time of the snapshot (status bar, tooltip). */
  statuses: IndexStatus[];
  keyword: { state: string; indexed: number; pending: number; detail?: string } | null;
  semantic: { status: Record<string, unknown>; paused: boolean; modelFolder: string | null } | null;
  /** Absolute paths that exist (the model folder check in the semantic section). */
  existing: string[];
  /** The time the snapshot was taken (the page's clock is set to it, so "today" is the same day). */
  now: number;
}
