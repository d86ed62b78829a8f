// Versions of notes this server recently served or wrote, by content hash, so an edit that names an
// old expected_hash can be compared with the version its author read (src/core/rebase.ts). Bounded
// by total size (least recently used go first); per host, in memory only (a restart forgets them, and
// an edit on a forgotten version is refused as before).
import type { VaultHost } from '../host/port.js';

const MAX_CHARS = 8 * 1024 * 1024;

export class VersionCache {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly max = MAX_CHARS) {}

  remember(hash: string, text: string): void {
    if (text.length > this.max / 4) return; // one huge note must not flush everything else
    const had = this.texts.get(hash);
    if (had !== undefined) { this.texts.delete(hash); this.texts.set(hash, had); return; }
    this.texts.set(hash, text);
    this.chars += text.length;
    for (const [h, t] of this.texts) {
      if (this.chars <= this.max) break;
      this.texts.delete(h);
      this.chars -= t.length;
    }
  }

  get(hash: string): string | undefined {
    return this.texts.get(hash);
  }
}

const caches = new WeakMap<VaultHost, VersionCache>();

export function versionsOf(host: VaultHost): VersionCache {
  let c = caches.get(host);
  if (!c) { c = new VersionCache(); caches.set(host, c); }
  return c;
}
