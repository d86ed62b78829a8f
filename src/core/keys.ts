// API keys: 256-bit random, a recognisable prefix, stored only as SHA-256, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'vmcp_';

export interface KeyRecord {
  id: string; // short public id (first 8 hex of the hash), safe to show and log
  name: string;
  scope: 'read' | 'readwrite';
  hash: string; // hex sha256 of the raw key
  created: number;
  lastUsed: number | null;
  root?: string;
  disabledFamilies?: string[];
  expires?: number | null;
  dailyQuota?: number | null;
  revoked?: boolean;
  /** In-memory keys from environment variables are never persisted. */
  ephemeral?: boolean;
}

export function generateRawKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** Finds the record whose hash matches, touching every record so timing does not depend on position. */
export function findKey(records: KeyRecord[], raw: string): KeyRecord | null {
  const h = hashKey(raw);
  let hit: KeyRecord | null = null;
  for (const r of records) if (safeEqualHex(r.hash, h) && !hit) hit = r;
  return hit;
}

export const KEY_NAME = /^[\p{L}\p{N} _.@-]{1,64}$/u;
