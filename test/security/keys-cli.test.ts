// The headless key and audit commands: `keys add` with every restriction flag, `keys set` editing an
// existing key (only the flags given change), clear errors for bad values, and `audit --tail`
// following new lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/vault.js';

const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { encoding: 'utf8', timeout: 60_000 });

function setup() {
  const vault = join(tempDir('vmcp-keyscli-'), 'vault');
  mkdirSync(join(vault, 'Team'), { recursive: true });
  const data = join(vault, '..', 'data');
  const keys = () => JSON.parse(readFileSync(join(data, 'keys.json'), 'utf8')).keys as Record<string, unknown>[];
  return { vault, data, keys, run: (...a: string[]) => cli(...a, '--vault', vault, '--data-dir', data) };
}

test('keys add takes every restriction; keys set edits only what it is given', { timeout: 120_000 }, () => {
  const { run, keys, data } = setup();
  let r = run('keys', 'add', '--name', 'bot', '--scope', 'read', '--root', 'Team/', '--disable-families', 'search,graph', '--quota', '50', '--expires', '2030-01-31');
  assert.equal(r.status, 0, r.stderr);
  const raw = r.stdout.match(/vmcp_[A-Za-z0-9_-]{43}/)?.[0];
  assert.ok(raw, r.stdout);
  let k = keys()[0];
  assert.deepEqual([k.scope, k.root, k.disabledFamilies, k.dailyQuota, k.expires], ['read', 'Team', ['search', 'graph'], 50, Date.parse('2030-01-31T23:59:59Z')]);
  r = run('keys', 'list');
  assert.match(r.stdout, /bot\tread\tid \w+\t.*root Team\tfamilies off search,graph\tquota 50\texpires 2030-01-31T23:59:59/);

  r = run('keys', 'set', '--name', 'bot', '--scope', 'readwrite', '--quota', '0');
  assert.equal(r.status, 0, r.stderr);
  k = keys()[0];
  assert.deepEqual([k.scope, k.root, k.disabledFamilies, k.dailyQuota], ['readwrite', 'Team', ['search', 'graph'], 0], 'untouched flags stay');
  assert.equal(k.hash, keys()[0].hash);
  r = run('keys', 'set', '--name', 'bot', '--root', '', '--disable-families', '', '--quota', 'default', '--expires', 'never');
  assert.equal(r.status, 0, r.stderr);
  k = keys()[0];
  assert.deepEqual([k.root, k.disabledFamilies, k.dailyQuota, k.expires], [undefined, undefined, undefined, undefined]);
  assert.ok(!readFileSync(join(data, 'keys.json'), 'utf8').includes(raw!), 'the raw key is never stored');

  for (const [args, msg] of [
    [['--root', '../x'], /root/i], [['--disable-families', 'serch'], /unknown family "serch"/], [['--quota', 'many'], /--quota needs a whole number/],
    [['--expires', 'soon'], /--expires needs a date/], [['--scope', 'admin'], /--scope must be/], [[], /changes nothing/],
  ] as [string[], RegExp][]) {
    r = run('keys', 'set', '--name', 'bot', ...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr, msg);
  }
  r = run('keys', 'set', '--name', 'nobody', '--quota', '5');
  assert.equal(r.status, 2);
  assert.match(r.stderr, /No key named "nobody"/);
  r = run('keys', 'add', '--name', 'x', '--scope', 'read', '--disable-families', 'bogus');
  assert.equal(r.status, 2);
});

test('audit --tail prints the last lines, then follows new ones', { timeout: 60_000 }, async () => {
  const { vault, data } = setup();
  mkdirSync(data, { recursive: true });
  const line = (i: number, outcome = 'ok') => JSON.stringify({ t: Date.UTC(2026, 0, 1, 0, 0, i), key: 'bot', key_id: 'abcd1234', tool: 'read_note', args: `{"path":"n${i}.md"}`, ms: 1, bytes: 10, outcome }) + '\n';
  appendFileSync(join(data, 'audit.jsonl'), line(1) + line(2, 'not_found'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'audit', '--vault', vault, '--data-dir', data, '--tail'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const seen = (re: RegExp) => new Promise<void>((resolve, reject) => {
    const check = () => { if (re.test(out)) { child.stdout.off('data', on); resolve(); } };
    const on = (b: Buffer) => { out += b.toString(); check(); };
    child.stdout.on('data', on);
    child.once('exit', (code) => reject(new Error(`audit exited (${code}) before printing ${re}: ${out}`)));
    check();
  });
  try {
    await seen(/n2\.md/);
    assert.match(out, /read_note\s+ok.*n1\.md/);
    assert.match(out, /read_note\s+not_found.*n2\.md/);
    appendFileSync(join(data, 'audit.jsonl'), line(3, 'rate_limited'));
    await seen(/n3\.md/);
    assert.match(out, /rate_limited.*n3\.md/);
  } finally {
    child.kill('SIGTERM');
  }
});
