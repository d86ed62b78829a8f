// Limit and audit settings, read with defaults so a settings object from an older version works.
// Every value is also a `serve` flag (LIMIT_FLAGS, listed in src/cli/flags.ts) and a settings-tab field.
import type { Settings, SettingFlag } from '../core/settings.js';

export interface LimitSettings {
  /** General bucket per key: calls per minute (refill rate) and burst (bucket size). */
  rateLimitPerMinute: number;
  rateLimitBurst: number;
  /** Write bucket per key, passed by write tools in addition to the general one. */
  writeRateLimitPerMinute: number;
  writeRateLimitBurst: number;
  /** Daily quota for keys without their own (`dailyQuota` unset); 0 = unlimited. */
  defaultDailyQuota: number;
  /** Failed authentications one client address may make per window before HTTP 429. */
  authFailureBudget: number;
  authFailureWindowMinutes: number;
  /** Tool calls running at once, per key and in all. */
  maxConcurrentCallsPerKey: number;
  maxConcurrentCalls: number;
  /** Open MCP sessions, per key and in all; a new session past either cap closes the oldest idle one. */
  maxSessionsPerKey: number;
  maxSessions: number;
  /** Slow clients: a request's headers must arrive within the first, the whole request within the second (applied when the server starts). */
  headersTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  /** Audit log: on/off, size of one file before it is rotated, days rotated files are kept, total size kept. */
  auditEnabled: boolean;
  auditMaxFileBytes: number;
  auditRetentionDays: number;
  auditMaxTotalBytes: number;
}

export const LIMIT_DEFAULTS: LimitSettings = {
  rateLimitPerMinute: 600,
  rateLimitBurst: 120,
  writeRateLimitPerMinute: 120,
  writeRateLimitBurst: 30,
  defaultDailyQuota: 5000,
  authFailureBudget: 60,
  authFailureWindowMinutes: 5,
  maxConcurrentCallsPerKey: 16,
  maxConcurrentCalls: 64,
  maxSessionsPerKey: 32,
  maxSessions: 256,
  headersTimeoutSeconds: 10,
  requestTimeoutSeconds: 60,
  auditEnabled: true,
  auditMaxFileBytes: 5 * 1024 * 1024,
  auditRetentionDays: 30,
  auditMaxTotalBytes: 50 * 1024 * 1024,
};

export function limitSettings(s: Settings): LimitSettings {
  const out = { ...LIMIT_DEFAULTS };
  for (const k of Object.keys(LIMIT_DEFAULTS) as (keyof LimitSettings)[]) {
    let v = s[k];
    if (typeof LIMIT_DEFAULTS[k] === 'boolean' && typeof v === 'string') v = !/^(off|false|no|0)$/i.test(v);
    if (typeof v === typeof LIMIT_DEFAULTS[k] && (typeof v !== 'number' || (Number.isFinite(v) && v >= 0))) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** Human labels for the settings tab and the messages that name a setting. */
export const LIMIT_LABELS: Record<keyof LimitSettings, string> = {
  rateLimitPerMinute: 'Calls per minute per key',
  rateLimitBurst: 'Burst per key',
  writeRateLimitPerMinute: 'Write calls per minute per key',
  writeRateLimitBurst: 'Write burst per key',
  defaultDailyQuota: 'Daily quota for new keys (0 = unlimited)',
  authFailureBudget: 'Failed sign-ins per address per window',
  authFailureWindowMinutes: 'Failed sign-in window (minutes)',
  maxConcurrentCallsPerKey: 'Concurrent calls per key',
  maxConcurrentCalls: 'Concurrent calls in all',
  maxSessionsPerKey: 'Open sessions per key',
  maxSessions: 'Open sessions in all',
  headersTimeoutSeconds: 'Request headers time limit (seconds)',
  requestTimeoutSeconds: 'Whole request time limit (seconds)',
  auditEnabled: 'Record every call in the audit log',
  auditMaxFileBytes: 'Audit file size before rotation (bytes)',
  auditRetentionDays: 'Keep audit files (days)',
  auditMaxTotalBytes: 'Audit log total size (bytes)',
};

export const LIMIT_FLAGS: SettingFlag[] = [
  { flag: 'rate-limit', key: 'rateLimitPerMinute', kind: 'int', help: 'calls per minute per key (default 600)' },
  { flag: 'rate-burst', key: 'rateLimitBurst', kind: 'int', help: 'burst per key (default 120)' },
  { flag: 'write-rate-limit', key: 'writeRateLimitPerMinute', kind: 'int', help: 'write calls per minute per key, on top of the general limit (default 120)' },
  { flag: 'write-rate-burst', key: 'writeRateLimitBurst', kind: 'int', help: 'write burst per key (default 30)' },
  { flag: 'default-quota', key: 'defaultDailyQuota', kind: 'int', help: 'daily calls for keys without their own quota; 0 = unlimited (default 5000)' },
  { flag: 'auth-failures', key: 'authFailureBudget', kind: 'int', help: 'failed authentications per client address per window before HTTP 429 (default 60)' },
  { flag: 'auth-failure-window', key: 'authFailureWindowMinutes', kind: 'int', help: 'that window in minutes (default 5)' },
  { flag: 'max-concurrent-per-key', key: 'maxConcurrentCallsPerKey', kind: 'int', help: 'tool calls one key may run at once (default 16)' },
  { flag: 'max-concurrent', key: 'maxConcurrentCalls', kind: 'int', help: 'tool calls running at once in all (default 64)' },
  { flag: 'max-sessions-per-key', key: 'maxSessionsPerKey', kind: 'int', help: 'open MCP sessions per key; a new one past it closes that key\'s oldest idle session (default 32)' },
  { flag: 'max-sessions', key: 'maxSessions', kind: 'int', help: 'open MCP sessions in all; a new one past it closes the oldest idle session (default 256)' },
  { flag: 'headers-timeout-s', key: 'headersTimeoutSeconds', kind: 'int', help: 'a request\'s headers must arrive within this many seconds (default 10)' },
  { flag: 'request-timeout-s', key: 'requestTimeoutSeconds', kind: 'int', help: 'a whole request (headers and body) must arrive within this many seconds (default 60)' },
  { flag: 'max-file-write', key: 'maxWriteBytes', kind: 'int', help: 'old name of --max-write (the two limits were one; maxWriteBytes)' },
  { flag: 'audit', key: 'auditEnabled', kind: 'string', help: 'on (default) or off: record every tool call in the audit log' },
  { flag: 'audit-max-file', key: 'auditMaxFileBytes', kind: 'int', help: 'rotate the audit log at this size, bytes (default 5242880)' },
  { flag: 'audit-retention-days', key: 'auditRetentionDays', kind: 'int', help: 'delete rotated audit files older than this (default 30)' },
  { flag: 'audit-max-total', key: 'auditMaxTotalBytes', kind: 'int', help: 'delete the oldest rotated audit files past this total size, bytes (default 52428800)' },
];
