// Headless entry point: `serve`, `keys add|set|list|revoke`. Only parses arguments and wires things.
import { parseArgs } from 'node:util';
import { existsSync, statSync, readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { NodeHost } from './host/node/nodeHost.js';
import { FsDataStore } from './host/fsDataStore.js';
import { KeyStore } from './services/keyStore.js';
import { withDefaults } from './settings.js';
import type { Settings } from './core/settings.js';
import { startRuntime } from './runtime.js';
import { acquireServeLock } from './host/serveLock.js';
import { cacheInVault, moveCaches, vaultCacheDir } from './host/cacheDir.js';
import { settingFlags } from './cli/flags.js';
import { extraCommands } from './cli/commands.js';
import { VERSION } from './version.js';
import { DEFAULT_CONFIG_DIR } from './host/configDir.js';
import { allowedFolders, symlinkWarning } from './core/symlinkOptIn.js';

const USAGE = `Vault MCP Server ${VERSION}

  node dist/cli.js serve --vault DIR [--host 127.0.0.1] [--port N|0] [--data-dir DIR] [--embedding-model PATH_OR_ID] [--create-key NAME]
  node dist/cli.js keys add --vault DIR --name NAME --scope read|readwrite [--root FOLDER] [--disable-families a,b] [--quota N] [--expires YYYY-MM-DD]
  node dist/cli.js keys set --vault DIR --name NAME [--scope read|readwrite] [--root FOLDER|""] [--disable-families a,b|""] [--quota N|0|default] [--expires YYYY-MM-DD|never]
  node dist/cli.js keys list --vault DIR
  node dist/cli.js keys revoke --vault DIR --name NAME
  node dist/cli.js audit --vault DIR [--tail] [--key NAME] [--tool NAME] [--outcome ok|refused|CODE] [--since DATE] [--limit N] [--json]
  node dist/cli.js models pull [ID] [--models-dir DIR]   download an embedding model (default Xenova/all-MiniLM-L6-v2); serve uses it
  node dist/cli.js models list [--models-dir DIR]
  node dist/cli.js bridge --url URL (--key-file FILE | env VAULT_MCP_KEY)   stdio ↔ HTTP, for Claude Desktop

Environment: VAULT_MCP_TOKEN / VAULT_MCP_READ_TOKEN add in-memory readwrite / read keys.
serve flags:
${settingFlags.map((f) => `  --${f.flag}${f.kind === 'bool' ? '' : ' VALUE'}  ${f.help}`).join('\n')}
  --data-dir DIR  plugin data folder (default <vault>/.obsidian/plugins/vault-mcp-server)
  --cache-dir DIR  rebuildable caches: keyword index, vectors, models (default: the folder the plugin uses,
                   <Obsidian's data folder or the OS cache folder>/vault-mcp-server/<vault>-<hash>; with
                   --data-dir, that folder; cacheInVault in data.json keeps them in the plugin folder)
  --create-key NAME  when no key exists yet, create a readwrite key with this name and print it once
  --models-dir DIR  where \`models pull\` put models (default: the shared models folder); the pulled default
                   model is used when neither --embedding-model nor the plugin's setting names one
  --no-watch  do not watch the vault folder for outside changes`;

export function fail(msg: string): never {
  process.stderr.write(`error: ${msg}\n`);
  process.exit(2);
}

export function vaultDir(v: string | undefined): string {
  if (!v) fail('--vault DIR is required (the folder that holds your notes).');
  const dir = resolve(v);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) fail(`--vault ${v}: no such folder.`);
  return dir;
}

export function dataDirOf(vault: string, explicit?: string): string {
  return explicit ? resolve(explicit) : join(vault, DEFAULT_CONFIG_DIR, 'plugins', 'vault-mcp-server');
}

function loadPluginSettings(dataDir: string): Partial<Settings> {
  const f = join(dataDir, 'data.json');
  if (!existsSync(f)) return {};
  try {
    const d = JSON.parse(readFileSync(f, 'utf8')) as { settings?: Partial<Settings> } | null;
    return d && typeof d === 'object' && d.settings ? d.settings : {};
  } catch {
    fail(`${f} is not valid JSON; fix it or move it away.`);
  }
}

async function serve(argv: string[]): Promise<void> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {
    vault: { type: 'string' }, 'data-dir': { type: 'string' }, 'cache-dir': { type: 'string' }, 'embedding-model': { type: 'string' },
    'create-key': { type: 'string' }, 'no-watch': { type: 'boolean' }, 'models-dir': { type: 'string' },
  };
  for (const f of settingFlags) options[f.flag] = { type: f.kind === 'bool' ? 'boolean' : 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }) as { values: Record<string, string | boolean | undefined> });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${USAGE}`);
  }
  const vault = vaultDir(values.vault as string | undefined);
  const dataDir = dataDirOf(vault, values['data-dir'] as string | undefined);
  const overrides: Record<string, unknown> = {};
  for (const f of settingFlags) {
    const v = values[f.flag];
    if (v === undefined) continue;
    if (f.kind === 'int') {
      if (!/^\d+$/.test(String(v))) fail(`--${f.flag} needs a whole number, got "${v}".`);
      overrides[f.key] = Number(v);
    } else if (f.kind === 'list') overrides[f.key] = String(v).split(',').map((s) => s.trim()).filter(Boolean);
    else overrides[f.key] = v;
  }
  if (values['embedding-model']) overrides.embeddingModel = values['embedding-model'];
  if (overrides.symlinkAllowedFolders) overrides.symlinkAllowedFolders = (overrides.symlinkAllowedFolders as string[]).map((p) => resolve(p));
  const settings = withDefaults({ ...loadPluginSettings(dataDir), ...overrides });
  settings.symlinkAllowedFolders = allowedFolders(settings.symlinkAllowedFolders);

  // The caches go where the plugin puts them (src/host/cacheDir.ts), so the app and the CLI share them.
  const cacheDir = values['cache-dir'] ? resolve(String(values['cache-dir'])) : values['data-dir'] || cacheInVault(settings) ? dataDir : vaultCacheDir(vault);
  const { chooseServeModel } = await import('./cli/serveModel.js');
  const modelLine = chooseServeModel(settings, join(cacheDir, 'models'), values['models-dir'] ? resolve(String(values['models-dir'])) : undefined);
  const host = new NodeHost(vault, { dataDir, cacheDir, watch: !values['no-watch'], allowedOutside: () => settings.symlinkAllowedFolders });
  if (settings.symlinkAllowedFolders.length) process.stderr.write(`warning: ${symlinkWarning(settings.symlinkAllowedFolders)}\n`);
  const keys = new KeyStore(host.data);
  await keys.load();
  if (process.env.VAULT_MCP_TOKEN) keys.addEphemeral(process.env.VAULT_MCP_TOKEN, 'env:VAULT_MCP_TOKEN', 'readwrite');
  if (process.env.VAULT_MCP_READ_TOKEN) keys.addEphemeral(process.env.VAULT_MCP_READ_TOKEN, 'env:VAULT_MCP_READ_TOKEN', 'read');
  let createdKey: string | null = null;
  if (values['create-key'] && keys.list().filter((k) => !k.ephemeral).length === 0) {
    createdKey = (await keys.add({ name: String(values['create-key']), scope: 'readwrite' })).raw;
  }
  const release = await acquireServeLock(dataDir, { pid: process.pid, host: 'node', url: '', since: Date.now() }).catch((e) => fail((e as Error).message));
  if (!values['cache-dir'] && !values['data-dir']) {
    await moveCaches(cacheDir === dataDir ? vaultCacheDir(vault) : dataDir, cacheDir).catch((e) => process.stderr.write(`warning: could not move the caches to ${cacheDir} (${(e as Error).message}); they are rebuilt there\n`));
  }
  await host.ready();
  let rt;
  try {
    // Feature messages (index rebuilds, save failures…) to stderr; MCP sessions get them too (logging).
    const log = (m: string) => { process.stderr.write(`${m}\n`); };
    rt = await startRuntime({ host, settings: () => settings, keys, services: { log, llmKey: () => process.env.OPENAI_API_KEY || undefined } });
  } catch (e) {
    await release();
    fail((e as Error).message);
  }
  const { url } = rt.server;
  if (!['127.0.0.1', 'localhost', '::1'].includes(settings.bindAddress)) {
    process.stderr.write(`warning: bound to ${settings.bindAddress}: other machines on the network can reach this server (keys still required).\n`);
  }
  if (createdKey) {
    process.stdout.write(`Created key "${values['create-key']}" (shown only this once):\n  ${createdKey}\nConnect Claude Code:\n  claude mcp add --transport http vault ${url} --header "Authorization: Bearer ${createdKey}"\n`);
  } else if (values['create-key']) {
    // Later runs of `npm start`: the first key was shown once; say how to get another.
    const names = keys.list().filter((k) => !k.ephemeral).map((k) => `"${k.name}"`).join(', ');
    process.stdout.write(`This vault already has keys (${names}); a key is shown only once, when it is created. To create another:\n  node dist/cli.js keys add --vault ${vault} --name NAME --scope readwrite\n`);
  }
  const notes = host.files().filter((f) => f.path.endsWith('.md')).length;
  process.stdout.write(`Vault MCP Server ${VERSION}: ${notes} notes in ${vault}\ncaches in ${cacheDir}\n${modelLine}\nlistening on ${url}\n`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await rt.stop();
    await host.close();
    await release();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

async function keysCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, strict: true, options: { vault: { type: 'string' }, 'data-dir': { type: 'string' }, name: { type: 'string' }, scope: { type: 'string' }, root: { type: 'string' }, 'disable-families': { type: 'string' }, quota: { type: 'string' }, expires: { type: 'string' } } }) as { values: Record<string, string | undefined> });
  } catch (e) {
    fail(`${(e as Error).message}\n\n${USAGE}`);
  }
  const vault = vaultDir(values.vault);
  const store = new KeyStore(new FsDataStore(dataDirOf(vault, values['data-dir'])));
  await store.load();
  if (sub === 'add') {
    if (!values.name) fail('keys add needs --name NAME.');
    const scope = values.scope ?? 'read';
    if (scope !== 'read' && scope !== 'readwrite') fail(`--scope must be "read" or "readwrite", got "${scope}".`);
    const { addKeyExtras } = await import('./cli/keyOptions.js');
    const extras = addKeyExtras(values, fail);
    try {
      const { raw, record } = await store.add({ name: values.name, scope, ...extras });
      process.stdout.write(`Created ${record.scope} key "${record.name}" (id ${record.id}). It is shown only this once:\n${raw}\n`);
    } catch (e) {
      fail((e as Error).message);
    }
  } else if (sub === 'set') {
    if (!values.name) fail('keys set needs --name NAME (see keys list).');
    const { setKeyPatch, describeKey } = await import('./cli/keyOptions.js');
    const patch = setKeyPatch(values, fail);
    try {
      const rec = await store.update(values.name, patch);
      process.stdout.write(`Updated key "${rec.name}"; a running server applies it from its next request, open sessions included.\n${describeKey(rec)}\n`);
    } catch (e) {
      fail(`${(e as Error).message} See keys list.`);
    }
  } else if (sub === 'list') {
    const rows = store.list();
    if (!rows.length) process.stdout.write('No keys. Create one with: node dist/cli.js keys add --vault DIR --name NAME --scope readwrite\n');
    const { describeKey } = await import('./cli/keyOptions.js');
    for (const r of rows) process.stdout.write(`${describeKey(r)}\n`);
  } else if (sub === 'revoke') {
    if (!values.name) fail('keys revoke needs --name NAME.');
    if (!(await store.revoke(values.name))) fail(`No key named "${values.name}"; see keys list.`);
    process.stdout.write(`Revoked "${values.name}". Open sessions using it are refused from their next request.\n`);
  } else fail(`unknown keys command "${sub ?? ''}"; use add, set, list or revoke.\n\n${USAGE}`);
}

async function main(): Promise<void> {
  const [cmd, ...rest] = process.argv.slice(2);
  if (cmd === 'serve') return serve(rest);
  if (cmd === 'keys') return keysCommand(rest);
  if (cmd === '--version' || cmd === 'version') { process.stdout.write(`${VERSION}\n`); return; }
  const extra = cmd ? extraCommands[cmd] : undefined;
  if (extra) return extra(rest);
  if (!cmd || cmd === 'help' || cmd === '--help' || cmd === '-h') { process.stdout.write(USAGE + '\n'); return; }
  fail(`unknown command "${cmd}".\n\n${USAGE}`);
}

main().catch((e) => fail((e as Error)?.stack ?? String(e)));
