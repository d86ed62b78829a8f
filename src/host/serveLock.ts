// One server per vault: a lock file in the data folder names the process serving it. A lock whose
// process is gone is stale and taken over.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

export interface LockInfo { pid: number; host: 'node' | 'obsidian'; url: string; since: number }

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM'; }
}

export class ServeLockError extends Error {}

export async function acquireServeLock(dataDir: string, info: LockInfo): Promise<() => Promise<void>> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fs.writeFile(file, JSON.stringify(info), { flag: 'wx' });
      return async () => {
        try {
          const cur = JSON.parse(await fs.readFile(file, 'utf8')) as LockInfo;
          if (cur.pid === info.pid) await fs.rm(file, { force: true });
        } catch { /* already gone */ }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let cur: LockInfo | null = null;
      try { cur = JSON.parse(await fs.readFile(file, 'utf8')) as LockInfo; } catch { /* unreadable: stale */ }
      if (cur && cur.pid !== info.pid && alive(cur.pid)) {
        throw new ServeLockError(`This vault is already being served by ${cur.host === 'obsidian' ? 'the Obsidian plugin' : 'a headless server'} (pid ${cur.pid}${cur.url ? `, ${cur.url}` : ''}). Stop that one first, or connect your client to it.`);
      }
      await fs.rm(file, { force: true });
    }
  }
  throw new ServeLockError(`Could not take the lock file ${file}; delete it if no server is running.`);
}
