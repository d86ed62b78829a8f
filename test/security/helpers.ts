// Runtimes for the security suite: a persisted KeyStore (keys with roots, families and quotas), an
// injectable clock, and small fixture vaults with content inside and outside a key's root.
import { join } from 'node:path';
import { mkdirSync, writeFileSync, utimesSync, readdirSync, statSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore, type NewKey } from '../../src/services/keyStore.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { tempDir } from '../helpers/vault.js';

export interface SecRuntime {
  rt: Runtime;
  host: NodeHost;
  url: string;
  dataDir: string;
  settings: Settings;
  key(spec: NewKey): Promise<string>;
  stop(): Promise<void>;
}

export class FakeClock {
  constructor(public t = Date.UTC(2026, 5, 15, 10, 0, 0)) {}
  now = () => this.t;
  advance(ms: number) { this.t += ms; }
}

export async function startSec(vault: string, settings: Partial<Settings> = {}, opts: { now?: () => number } = {}): Promise<SecRuntime> {
  const dataDir = join(tempDir('vmcp-sec-'), 'data');
  const host = new NodeHost(vault, { dataDir, watch: false });
  await host.ready();
  const now = opts.now ?? Date.now;
  const keys = new KeyStore(host.data, now);
  const s = withDefaults({ port: 0, ...settings });
  const rt = await startRuntime({ host, settings: () => s, keys, now });
  return {
    rt, host, url: rt.server.url, dataDir, settings: s,
    key: async (spec) => (await keys.add(spec)).raw,
    stop: async () => { await rt.stop(); await host.close(); },
  };
}

const FIXED = new Date('2026-03-01T12:00:00Z');

/** Writes files (path → text) under a fresh vault folder with fixed modification times. */
export function makeVault(files: Record<string, string>): string {
  const dir = join(tempDir('vmcp-secvault-'), 'vault');
  for (const [p, text] of Object.entries(files)) {
    const f = join(dir, p);
    mkdirSync(join(f, '..'), { recursive: true });
    writeFileSync(f, text);
    utimesSync(f, FIXED, FIXED);
  }
  return dir;
}

/** sha256 of every file under `dir` whose vault path does not start with `keepPrefix` (what must not change). */
export function snapshotOutside(dir: string, inside: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const e of readdirSync(d)) {
      if (e.startsWith('.')) continue;
      const p = join(d, e);
      const r = rel ? `${rel}/${e}` : e;
      if (statSync(p).isDirectory()) walk(p, r);
      else if (!(r === inside || r.startsWith(inside + '/'))) out.set(r, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir, '');
  return out;
}

/** The same notes inside Team/ for every fixture; `outside` adds what a Team-rooted key must never learn. */
export const INSIDE: Record<string, string> = {
  'Team/Plan.md': '---\nstatus: active\ntags: [team]\n---\n# Plan\n\nWe plan the launch. See [[Secret]] and [[Private/Secret]] and [[Notes]].\n\n- [ ] team task 📅 2026-04-01\n\n## Budget\n\nNumbers here. #team\n',
  'Team/Notes.md': '# Notes\n\nMeeting notes about the plan. Links back to [[Plan]].\n',
  'Team/CLAUDE.md': '# Team guide\n\nFile team notes under Team/.\n',
  'Team/Sub/Deep.md': '# Deep\n\nA deeper note. [[Plan#Budget]] and [[Notes]]\n',
  'Team/diagram.txt': 'plain text attachment\n',
};

export const OUTSIDE: Record<string, string> = {
  'CLAUDE.md': '# ROOTGUIDE\n\nThe root guide must stay hidden from confined keys.\n',
  'Private/Secret.md': '---\ncodename: nightjarvalue\ntags: [classified]\n---\n# Secret\n\nsecretbodytext zanzibarquux plan team launch. Links to [[Plan]] and [[Notes]].\n\n- [ ] outsidetask 📅 2026-04-02\n',
  'Private/Secret.png': 'not really a png',
  'Private/Deep/More.md': '# More\n\nzanzibarquux again [[Team/Plan]]\n',
  'Teamwork/Other.md': '# Other\n\nTeamworkfile plan team zanzibarquux\n',
  'team/Lower.md': '# Lower\n\nLowerfile plan team\n',
  'Café/Note.md': '# Café\n\nUnicodefile plan\n',
  // Vault-wide, [[Notes]] in Team/Sub/Deep.md opens this root-level note (bare names try the vault root
  // before searching by name); inside Team/ it must resolve to Team/Notes.md as if this did not exist.
  'Notes.md': '# Root notes\n\nRootnotesfile plan team\n',
};

/** Words that occur only outside Team/ and are never used as probe arguments. */
export const MARKERS = ['nightjarvalue', 'secretbodytext', 'ROOTGUIDE', 'outsidetask', 'Lowerfile', 'Teamworkfile', 'Unicodefile', 'Rootnotesfile'];
