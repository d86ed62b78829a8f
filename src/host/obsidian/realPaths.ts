// The symlink rule (host/containment.ts) inside Obsidian. The app itself follows symbolic links: a
// linked folder's files are in its vault listing, readable through vault.read, and its metadata
// cache parses them. This gate keeps every path the rule refuses out of what ObsidianHost shows:
// a survey of the vault folder at start (one readdir per folder; only symlink entries cost more)
// and a check of each path the app reports created or renamed later; reads check the real path on
// disk right before reading, so nothing outside is ever read even before a survey or check is done.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { Containment, missing, samePlacement, type Located } from '../containment.js';

const DONE: Promise<void> = Promise.resolve();

export class RealPathGate {
  readonly contain: Containment;
  /** Vault paths refused by the rule (a refused folder hides everything under it). */
  private readonly refused = new Set<string>();
  /** Admitted file links: their real location, a vault path, or null (in an allow-listed outside folder). */
  private readonly realOf = new Map<string, string | null>();
  /** Admitted folder links into allow-listed outside folders: everything under them is outside. */
  private readonly outsideRoots = new Set<string>();
  private surveyed: Promise<void> | null = null;
  private surveyFinished = false;

  constructor(readonly basePath: string, opts: { allowedOutside?: () => readonly string[]; forbidden?: () => readonly string[] }) {
    this.contain = new Containment(basePath, opts);
  }

  /** Walks the vault once (at start): every symlink entry, and everything under an admitted folder link. */
  survey(): Promise<void> {
    this.surveyed ??= this.walk('', false, new Set()).catch(() => undefined).then(() => { this.surveyFinished = true; });
    return this.surveyed;
  }

  private async walk(rel: string, outside: boolean, visited: Set<string>): Promise<void> {
    const entries = await fs.readdir(join(this.basePath, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await this.walk(child, outside, visited);
      else if (e.isSymbolicLink()) {
        const loc = await this.judge(child);
        if (loc?.folder) {
          const real = await fs.realpath(join(this.basePath, child)).catch(() => '');
          if (!visited.has(real)) { visited.add(real); await this.walk(child, true, visited); }
        }
      }
    }
  }

  /** Applies the rule to one path and records the outcome; returns where it is, or null (refused). */
  private async judge(rel: string): Promise<{ folder: boolean } | null> {
    const key = rel.normalize('NFC');
    const loc = await this.contain.locate(key, rel);
    if (!loc) {
      const exists = await fs.lstat(join(this.basePath, rel)).then(() => true, () => false);
      if (exists) this.refused.add(key);
      return null;
    }
    this.record(key, loc);
    return { folder: loc.folder };
  }

  private record(key: string, loc: Located): void {
    if (loc.folder && loc.real === null) { this.refused.delete(key); this.outsideRoots.add(key); return; }
    this.admitPlain(key);
    if (!loc.folder && loc.real !== undefined) this.realOf.set(key, loc.real);
  }

  /** `key` is a plain entry of the vault: whatever was recorded for a link of that name goes. */
  private admitPlain(key: string): void {
    this.refused.delete(key);
    this.outsideRoots.delete(key);
    this.realOf.delete(key);
  }

  /** Paths being judged right now: hidden (with everything under them) until the judgment is in. */
  private readonly judging = new Map<string, Promise<void>>();

  /**
   * A path the app reported created or renamed (`oldPath`): shown at once when it is plainly inside,
   * else hidden, judged, then shown if the rule admits it. Before the start-up survey is done it
   * waits for the survey too, so it answers exactly like a missing path until then.
   */
  observe(rel: string, oldPath?: string): Promise<void> {
    // A move while the gate holds nothing (no link, nothing refused or being judged: nearly every
    // vault) is a plain entry moved into a plain folder: nothing to record, nothing to normalise.
    if (oldPath !== undefined && this.surveyFinished && this.holdsNothing()) return DONE;
    const key = rel.normalize('NFC');
    if (!this.surveyFinished) return this.hideWhile(key, this.survey().then(() => this.judge(rel)));
    // A plain entry moved into a plain vault folder stays plain: no disk access at all (a folder
    // rename is one event per file under it, all in one task of the app's thread).
    if (oldPath !== undefined && this.plainInVault(oldPath.normalize('NFC')) && this.plainFolderOf(key)) {
      this.admitPlain(key);
      return Promise.resolve();
    }
    // A plain file or folder in a plain vault folder (what the app creates all day) is judged at once,
    // so a note just written is listed right away; links and anything unusual take the async path.
    const plain = oldPath === undefined ? this.contain.locatePlainSync(key, rel) : 'link';
    if (plain !== 'link' && plain !== null) { this.record(key, plain); return Promise.resolve(); }
    return this.hideWhile(key, this.judge(rel));
  }

  private holdsNothing(): boolean {
    return this.refused.size === 0 && this.realOf.size === 0 && this.outsideRoots.size === 0 && this.judging.size === 0;
  }

  /** `key` (and everything under it) is hidden until `work` settles. */
  private hideWhile(key: string, work: Promise<unknown>): Promise<void> {
    const p: Promise<void> = work.then(() => undefined, () => undefined).finally(() => { if (this.judging.get(key) === p) this.judging.delete(key); });
    this.judging.set(key, p);
    return p;
  }

  /** Nothing recorded about `path` or above it: a plain entry of the vault (links are all recorded). */
  private plainInVault(path: string): boolean {
    return !this.realOf.has(path) && !RealPathGate.within(this.outsideRoots, path) && this.visible(path);
  }

  /** The folder holding `path` is a plain, shown vault folder. */
  private plainFolderOf(path: string): boolean {
    return !path.includes('/') || this.plainInVault(path.slice(0, path.lastIndexOf('/')));
  }

  /** Resolves once no judgment of `path` or a folder above it is pending. */
  async settle(path: string): Promise<void> {
    while (this.judging.size) {
      const waits = [...this.judging].filter(([k]) => k === path || path.startsWith(k + '/')).map(([, p]) => p);
      if (!waits.length) return;
      await Promise.all(waits);
    }
  }

  /** Is `path` or one of its folders in `set`? */
  private static within(set: Set<string>, path: string): boolean {
    if (!set.size) return false;
    for (let p = path; ; p = p.slice(0, p.lastIndexOf('/'))) {
      if (set.has(p)) return true;
      if (!p.includes('/')) return false;
    }
  }

  /** Something is refused or being judged (listings must be filtered). */
  get refusing(): boolean {
    return this.refused.size > 0 || this.judging.size > 0;
  }

  /** False for a refused path or anything under a refused folder, and while either is being judged. */
  visible(path: string): boolean {
    if (RealPathGate.within(this.refused, path)) return false;
    if (!this.judging.size) return true;
    for (const k of this.judging.keys()) if (path === k || path.startsWith(k + '/')) return false;
    return true;
  }

  /** See VaultHost.realPathOf. */
  realPathOf(path: string): string | null | undefined {
    const hit = this.realOf.get(path);
    if (hit !== undefined) return hit;
    return RealPathGate.within(this.outsideRoots, path) ? null : undefined;
  }

  /** Right before a read: the real location on disk must be what the rule admitted, else "missing".
   *  Returns that real location (read it, not the vault path: a link swapped since cannot redirect the read).
   *  One realpath system call, made synchronously: the promise form's dispatch cost the app's thread far
   *  more than the call itself (a local disk's cached lookup), and every index reads every note. */
  async realForRead(path: string, diskPath: string): Promise<string> {
    const hit = this.contain.placeSync(join(this.basePath, diskPath));
    if (!hit || !samePlacement(hit.placement, path, this.realPathOf(path))) {
      await this.observe(diskPath); // the listing learns it too
      throw missing(path);
    }
    return hit.real;
  }
}
