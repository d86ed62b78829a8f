// Settings shared by the plugin (persisted with saveData) and the CLI (defaults overridden by flags).
// Every limit has a working default; later features add fields here with their defaults.

export interface Settings {
  serverEnabled: boolean;
  port: number;
  /** 127.0.0.1 unless the user explicitly opts into another address (the UI warns). */
  bindAddress: string;
  /** Extra Host header values accepted besides localhost/127.0.0.1/[::1] (for a non-loopback bind). */
  allowedHosts: string[];
  /** Largest number of characters one read returns. */
  readCapChars: number;
  /** Largest file `read_file` will return (bytes). */
  maxFileReadBytes: number;
  /** Largest request body the HTTP endpoint accepts (bytes). */
  maxRequestBytes: number;
  /** Idle MCP sessions are closed after this many minutes. */
  sessionIdleMinutes: number;
  /** Global read-only mode: write tools are not listed for any key. */
  readOnly: boolean;
  /** Destructive write calls (replace, frontmatter change, delete, overwrite) must carry expected_hash. */
  requireHashForDestructive: boolean;
  /** Largest file (bytes, after the change) a write tool will produce. */
  maxWriteBytes: number;
  /**
   * Absolute folders outside the vault that a symlink in the vault may lead into (read-only through
   * the server). Empty by default: every symlink leading out of the vault reads as a missing path.
   */
  symlinkAllowedFolders: string[];
  [extra: string]: unknown;
}

import { SEMANTIC_DEFAULTS } from '../semantic/settings.js';

export const DEFAULT_PORT = 27200;

export const DEFAULT_SETTINGS: Settings = {
  serverEnabled: true,
  port: DEFAULT_PORT,
  bindAddress: '127.0.0.1',
  allowedHosts: [],
  readCapChars: 40_000,
  maxFileReadBytes: 10 * 1024 * 1024,
  maxRequestBytes: 16 * 1024 * 1024,
  sessionIdleMinutes: 30,
  readOnly: false,
  requireHashForDestructive: false,
  maxWriteBytes: 10 * 1024 * 1024,
  symlinkAllowedFolders: [],
  // Semantic search (embeddingModel '' = off, embeddingQueryPrefix, chunk budget/overlap, skip globs, RRF k…).
  ...SEMANTIC_DEFAULTS,
};

export function withDefaults(partial: Partial<Settings> | undefined | null): Settings {
  const s = { ...DEFAULT_SETTINGS, ...(partial ?? {}) } as Settings;
  // Migration: `maxFileWriteBytes` (a per-call cap on a write's content) was the same limit as
  // `maxWriteBytes` under another name. An old data.json keeps its stricter value under the one name.
  const old = s.maxFileWriteBytes;
  if (typeof old === 'number' && Number.isFinite(old) && old > 0) {
    const own = partial?.maxWriteBytes;
    s.maxWriteBytes = typeof own === 'number' && own > 0 ? Math.min(own, old) : old;
  }
  delete s.maxFileWriteBytes;
  return s;
}
