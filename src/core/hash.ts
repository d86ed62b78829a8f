import { createHash } from 'node:crypto';

/** `sha256:<64 hex>` over the raw file bytes; the precondition token of every destructive tool. */
export function contentHash(data: Uint8Array | string): string {
  return 'sha256:' + createHash('sha256').update(data).digest('hex');
}

export const CONTENT_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;
