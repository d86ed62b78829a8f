// Change-feed retention settings, with defaults, read from the shared Settings object.
import type { Settings } from '../core/settings.js';

export interface ChangeSettings {
  /** Feed lines older than this many days are dropped. */
  changesRetentionDays: number;
  /** At most this many feed lines are kept (the newest). */
  changesMaxEvents: number;
}

export const CHANGE_DEFAULTS: ChangeSettings = { changesRetentionDays: 30, changesMaxEvents: 20_000 };

export function changeSettings(s: Settings): ChangeSettings {
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : d);
  return {
    changesRetentionDays: num(s.changesRetentionDays, CHANGE_DEFAULTS.changesRetentionDays),
    changesMaxEvents: Math.floor(num(s.changesMaxEvents, CHANGE_DEFAULTS.changesMaxEvents)),
  };
}
