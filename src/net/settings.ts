// Settings of import_from_url, with defaults, read from the shared Settings object. The test-only
// loopback allowance is NOT a setting: tests pass it programmatically (deps.services.testOnlyNetAllow).
import type { Settings, SettingFlag } from '../core/settings.js';

export interface ImportSettings {
  /** Allow plain http:// URLs (https only by default). */
  importAllowHttp: boolean;
  /** Wall-time limit of one import, DNS and redirects included (seconds). */
  importTimeoutS: number;
}

export const IMPORT_DEFAULTS: ImportSettings = { importAllowHttp: false, importTimeoutS: 30 };

export function importSettings(s: Settings): ImportSettings {
  const http = s.importAllowHttp;
  const t = s.importTimeoutS;
  return {
    importAllowHttp: http === true || (typeof http === 'string' && /^(on|true|yes|1)$/i.test(http)),
    importTimeoutS: typeof t === 'number' && Number.isFinite(t) && t > 0 ? Math.min(t, 600) : IMPORT_DEFAULTS.importTimeoutS,
  };
}

export const IMPORT_FLAGS: SettingFlag[] = [
  { flag: 'import-allow-http', key: 'importAllowHttp', kind: 'bool', help: 'import_from_url may fetch plain http:// URLs (default: https only)' },
  { flag: 'import-timeout-s', key: 'importTimeoutS', kind: 'int', help: 'time limit of one import_from_url, seconds (default 30)' },
];
