// Settings shared by the plugin (persisted with saveData) and the CLI (defaults overridden by flags).
// Every limit has a working default; features keep their own defaults (src/settings.ts joins them).

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

/** A `serve` flag that maps onto one setting (src/cli/flags.ts lists them; features add rows). */
export interface SettingFlag {
  flag: string; // without the leading --
  key: keyof Settings & string;
  kind: 'int' | 'string' | 'bool' | 'list';
  help: string;
}

export const DEFAULT_PORT = 27200;

/** The core's own defaults; every setting's default (features' too) is src/settings.ts DEFAULT_SETTINGS. */
export const CORE_DEFAULTS: Settings = {
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
};

/** Settings saved by an older version, brought to today's names (mutates and returns `s`). */
export function migrateSettings(s: Settings, partial: Partial<Settings> | undefined | null): Settings {
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
