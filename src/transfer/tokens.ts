// Transfer links as a pure store (no I/O; clock and randomness injected): download links usable until
// they expire and bound to the file's bytes at mint time; upload links single use and bound to one
// destination. Tokens are 256-bit random, held only as SHA-256 hashes and bound to the minting key;
// the public upload_id is separate random, so neither can be derived from the other. Everything that
// makes a token unusable (unknown, expired, used, revoked) answers the same `null` to a redeemer.
import { createHash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'vmt_';
export const MIN_TTL_S = 60;
export const MAX_TTL_S = 3600;
export const DEFAULT_TTL_S = 600;
/** Finished and expired uploads stay answerable by check_upload this long after they end. */
export const KEEP_FINISHED_MS = 24 * 3600_000;
/** Most live links one key may hold; the oldest are dropped beyond it. */
export const MAX_LINKS_PER_KEY = 200;

export type UploadState = 'pending' | 'uploading' | 'completed';

interface Base {
  hash: string;
  keyId: string;
  keyName: string;
  path: string;
  created: number;
  expires: number;
  revoked: boolean;
}

export interface DownloadLink extends Base {
  kind: 'download';
  /** content_hash of the bytes at mint time. */
  contentHash: string;
  size: number;
}

export interface UploadLink extends Base {
  kind: 'upload';
  uploadId: string;
  overwrite: boolean;
  expectedHash?: string;
  state: UploadState;
  finished?: number;
  result?: { path: string; size: number; sha256: string; mime: string; created: boolean };
  /** Why the last attempt failed (the link stays pending and can be tried again). */
  lastError?: string;
}

export type Link = DownloadLink | UploadLink;

export type UploadStatus =
  | { status: 'pending' | 'uploading'; path: string; expires_at: number; last_error?: string }
  | { status: 'completed'; path: string; size: number; sha256: string; mime: string; created: boolean; completed_at: number }
  | { status: 'unknown' | 'revoked' | 'expired' };

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function clampTtl(seconds: number | undefined): number {
  const s = seconds ?? DEFAULT_TTL_S;
  return Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, Math.round(s)));
}

/** deps.services.transfer: the token store and where its page lives. */
export interface TransferService {
  store: TransferStore;
  /** Base URL of the page, e.g. http://127.0.0.1:27200/transfer */
  pageUrl(): string;
}

export class TransferStore {
  private readonly byHash = new Map<string, Link>();
  private readonly uploads = new Map<string, UploadLink>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: (n: number) => Buffer = randomBytes,
  ) {}

  private token(): string {
    return TOKEN_PREFIX + this.random(32).toString('base64url');
  }

  private add(link: Link): void {
    this.prune();
    const mine = [...this.byHash.values()].filter((l) => l.keyId === link.keyId && this.usable(l)).sort((a, b) => a.created - b.created);
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_LINKS_PER_KEY + 1))) old.revoked = true;
    this.byHash.set(link.hash, link);
    if (link.kind === 'upload') this.uploads.set(link.uploadId, link);
  }

  mintDownload(spec: { keyId: string; keyName: string; path: string; contentHash: string; size: number; ttlS?: number }): { token: string; expires: number } {
    const token = this.token();
    const t = this.now();
    const expires = t + clampTtl(spec.ttlS) * 1000;
    this.add({ kind: 'download', hash: hashToken(token), keyId: spec.keyId, keyName: spec.keyName, path: spec.path, contentHash: spec.contentHash, size: spec.size, created: t, expires, revoked: false });
    return { token, expires };
  }

  mintUpload(spec: { keyId: string; keyName: string; path: string; overwrite: boolean; expectedHash?: string; ttlS?: number }): { token: string; uploadId: string; expires: number } {
    const token = this.token();
    const uploadId = 'up_' + this.random(12).toString('base64url');
    const t = this.now();
    const expires = t + clampTtl(spec.ttlS) * 1000;
    this.add({
      kind: 'upload', hash: hashToken(token), uploadId, keyId: spec.keyId, keyName: spec.keyName, path: spec.path, overwrite: spec.overwrite,
      ...(spec.expectedHash ? { expectedHash: spec.expectedHash } : {}), state: 'pending', created: t, expires, revoked: false,
    });
    return { token, uploadId, expires };
  }

  private usable(l: Link): boolean {
    if (l.revoked || this.now() >= l.expires) return false;
    return l.kind === 'download' || l.state === 'pending';
  }

  /** The link a token opens, or null for every kind of bad token (unknown, expired, used, revoked). */
  redeem(token: string | null | undefined): Link | null {
    if (!token || !token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
    const l = this.byHash.get(hashToken(token));
    return l && this.usable(l) ? l : null;
  }

  /** Marks an upload as in progress (so a second request with the same token is refused). */
  begin(l: UploadLink): void {
    l.state = 'uploading';
    delete l.lastError;
  }

  complete(l: UploadLink, result: NonNullable<UploadLink['result']>): void {
    l.state = 'completed';
    l.result = result;
    l.finished = this.now();
  }

  /** A failed attempt: the link is pending again (until it expires) and remembers why. */
  fail(l: UploadLink, why: string): void {
    if (l.state === 'uploading') l.state = 'pending';
    l.lastError = why.slice(0, 300);
  }

  /** Kills every link of a key (revoked or expired key). */
  revokeKey(keyId: string): number {
    let n = 0;
    for (const l of this.byHash.values()) if (l.keyId === keyId && !l.revoked) { l.revoked = true; n++; }
    return n;
  }

  /** Revokes the links of every key `isLive` rejects. */
  sweep(isLive: (keyId: string) => boolean): void {
    const dead = new Set<string>();
    for (const l of this.byHash.values()) if (!l.revoked && !dead.has(l.keyId) && !isLive(l.keyId)) dead.add(l.keyId);
    for (const k of dead) this.revokeKey(k);
  }

  /** What check_upload answers; only the minting key sees its uploads (others get unknown). */
  status(uploadId: string, keyId: string): UploadStatus {
    this.prune();
    const l = this.uploads.get(uploadId);
    if (!l || l.keyId !== keyId) return { status: 'unknown' };
    if (l.state === 'completed' && l.result) return { status: 'completed', ...l.result, completed_at: l.finished ?? l.expires };
    if (l.revoked) return { status: 'revoked' };
    if (this.now() >= l.expires) return { status: 'expired' };
    return { status: l.state === 'uploading' ? 'uploading' : 'pending', path: l.path, expires_at: l.expires, ...(l.lastError ? { last_error: l.lastError } : {}) };
  }

  /** Forgets links that ended more than KEEP_FINISHED_MS ago. */
  prune(): void {
    const limit = this.now() - KEEP_FINISHED_MS;
    for (const [h, l] of this.byHash) {
      const end = l.kind === 'upload' && l.finished ? l.finished : l.expires;
      if (end < limit) {
        this.byHash.delete(h);
        if (l.kind === 'upload') this.uploads.delete(l.uploadId);
      }
    }
  }

  size(): number {
    return this.byHash.size;
  }
}
