// `node dist/cli.js audit --vault DIR [--data-dir DIR] [--tail] [--key NAME] [--tool NAME]
//  [--outcome ok|refused|CODE] [--since YYYY-MM-DD] [--limit N] [--json]`: prints the audit log
// (oldest first); --tail keeps following new lines, across rotations.
import { parseArgs } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FsDataStore } from '../host/fsDataStore.js';
import { ACTIVE, matches, parseLines, readAllEntries, type AuditEntry, type AuditFilter } from './log.js';
import { setTimeout } from 'node:timers';
import { DEFAULT_CONFIG_DIR } from '../host/configDir.js';

export function formatEntry(e: AuditEntry): string {
  const t = new Date(e.t).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `${t}  ${e.key.padEnd(14)}  ${e.tool.padEnd(18)}  ${e.outcome.padEnd(14)}  ${String(e.ms).padStart(5)} ms  ${String(e.bytes).padStart(7)} B  ${e.args}`;
}

function die(msg: string): never {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(2);
}

export async function auditCommand(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, options: {
      vault: { type: 'string' }, 'data-dir': { type: 'string' }, tail: { type: 'boolean' }, json: { type: 'boolean' },
      key: { type: 'string' }, tool: { type: 'string' }, outcome: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' },
    } }) as { values: Record<string, string | boolean | undefined> });
  } catch (e) {
    die(`${(e as Error).message}\nusage: node dist/cli.js audit --vault DIR [--data-dir DIR] [--tail] [--key NAME] [--tool NAME] [--outcome ok|refused|CODE] [--since YYYY-MM-DD] [--limit N] [--json]`);
  }
  if (!values.vault) die('--vault DIR is required (the folder that holds your notes).');
  const vault = resolve(String(values.vault));
  if (!existsSync(vault) || !statSync(vault).isDirectory()) die(`--vault ${values.vault}: no such folder.`);
  const dataDir = values['data-dir'] ? resolve(String(values['data-dir'])) : join(vault, DEFAULT_CONFIG_DIR, 'plugins', 'vault-mcp-server');
  const data = new FsDataStore(dataDir);
  const f: AuditFilter = {};
  if (values.key) f.key = String(values.key);
  if (values.tool) f.tool = String(values.tool);
  if (values.outcome) f.outcome = String(values.outcome);
  if (values.since) {
    const t = Date.parse(String(values.since));
    if (!Number.isFinite(t)) die(`--since needs a date like 2026-01-31, got "${values.since}".`);
    f.since = t;
  }
  let limit = Infinity;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(String(values.limit))) die(`--limit needs a whole number, got "${values.limit}".`);
    limit = Number(values.limit);
  }
  const print = (e: AuditEntry) => process.stdout.write((values.json ? JSON.stringify(e) : formatEntry(e)) + '\n');
  // The active file is read once: --tail follows from exactly the bytes printed, so a line appended
  // meanwhile is neither lost nor printed twice.
  const active = await data.read(ACTIVE).catch(() => null);
  const all = await readAllEntries(data, f, active);
  const shown = values.tail && limit === Infinity ? all.slice(-20) : all.slice(-limit);
  if (!shown.length && !values.tail) process.stdout.write(`No audit entries${Object.keys(f).length ? ' match' : ''} in ${dataDir}.\n`);
  for (const e of shown) print(e);
  if (!values.tail) return;
  let offset = active?.length ?? 0;
  let carry = '';
  const stop = () => process.exit(0);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const size = (await data.size(ACTIVE)) ?? 0;
    if (size < offset) { offset = 0; carry = ''; } // rotated
    if (size === offset) continue;
    const bytes = await data.read(ACTIVE);
    if (!bytes) continue;
    const text = carry + new TextDecoder().decode(bytes.subarray(offset));
    offset = bytes.length;
    const cut = text.lastIndexOf('\n');
    carry = cut < 0 ? text : text.slice(cut + 1);
    for (const e of parseLines(cut < 0 ? '' : text.slice(0, cut))) if (matches(e, f)) print(e);
  }
}
