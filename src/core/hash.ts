import * as crypto from 'node:crypto';

// The one-shot form (Node 20.12+, so the app's Electron and the headless server) makes no Hash object:
// each of those holds a native handle, and hashing every note at a first build or a reconcile made one
// per note. 100k hashes of 1 KB in Node 20: 208 ms against 363, scavenge pauses 32 ms against 87,
// promoted 5.8 MB against 9.5 (a script outside the repo, keeping the hashes). Older runtimes use createHash.
const oneShot = typeof crypto.hash === 'function' ? crypto.hash : null;

/** SHA-256 of `data` (a string as UTF-8) as 64 hex digits. */
function sha256Hex(data: Uint8Array | string): string {
  return oneShot ? oneShot('sha256', data, 'hex') : crypto.createHash('sha256').update(data).digest('hex');
}

/** `sha256:<64 hex>` over the raw file bytes; the precondition token of every destructive tool. */
export function contentHash(data: Uint8Array | string): string {
  return 'sha256:' + sha256Hex(data);
}

export const CONTENT_HASH_PATTERN = /^sha256:[0-9a-f]{64}$/;
