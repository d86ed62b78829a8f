// Hostile path spellings through EVERY path-taking tool (found from tools/list: every argument that
// names a vault path or folder), for a whole-vault key and a key confined to Team/, on the symlink
// layout: percent-encoded dots, backslashes, drive letters, UNC, trailing dots and spaces, case
// variants of dot-folders, NFD, control characters, 4k names and 5k paths. Each call must answer
// (a result, never a protocol error or internal_error), show no absolute path or errno text, leak no
// word from outside the vault, a dot-folder or outside the key's root; afterwards nothing outside
// the vault or in a dot-folder changed, and the server still answers /health.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, call, refusalCode, textOf, type ToolResult } from '../../helpers/server.js';
import { Category, report } from './report.js';
import { makeLayout, serve, snapshot, changed, leaks } from './fixture.js';
import { MARKERS } from '../helpers.js';

const PATH_ARGS = new Set(['path', 'folder', 'from_path', 'to_path', 'from_dir', 'to_dir', 'source', 'target']);

export const HOSTILE = [
  '../outside/secret.md', '..\\..\\etc\\passwd', '%2e%2e/%2e%2e/etc/passwd', '%2e%2e%2fetc%2fpasswd', '..%2f..%2f.obsidian%2fapp.json',
  '/etc/passwd', 'C:\\Windows\\win.ini', 'c:/x.md', 'C:x.md', '\\\\server\\share\\x.md', '//server/share/x.md', '\\\\?\\C:\\x.md',
  'Team/../../x.md', './../x.md', 'Team/./../Private/Secret.md', '.obsidian/app.json', '.OBSIDIAN/app.json', '.Obsidian/plugins/vault-mcp-server/keys.json',
  'Team/.obsidian/x.md', '.trash/x.md', '.git/config', '.obsidian./app.json', 'Team/..', 'x\u0000.md', 'x\n.md', 'x\u007f.md',
  'Team./x.md', 'Team /x.md', 'Welcome.md.', 'Team/Plan.md ', ' .obsidian/app.json', 'Team\\Plan.md', 'Team\\..\\Private\\Secret.md',
  'Cafe\u0301/Note.md', 'Café/Note.md', '\u202e.obsidian/app.json', '\uff0eobsidian/app.json', '~/.ssh/id_rsa', 'file:///etc/passwd',
  'Team/%2e%2e/Private/Secret.md', 'Private/Secret.md', 'team/Lower.md', 'Teamwork/Other.md', 'a'.repeat(4096), `${'b'.repeat(200)}/`.repeat(25) + 'x.md',
  `Team/${'é'.repeat(200)}.md`, 'Team/leak.md', 'Team/outdir/secret.md', 'Team/dotdir/app.json',
];

/** Benign values for the other required arguments, so a call reaches its path handling. */
const FILLERS: Record<string, unknown> = {
  query: 'plan', content: 'hostile-probe', job_id: 'x', since: '2020-01-01T00:00:00Z', url: 'http://127.0.0.1:9/x.md', upload_id: 'x',
  path: 'Team/Plan.md', from_path: 'Team/Notes.md', to_path: 'Team/Moved/probe.md', from_dir: 'Team/Sub', to_dir: 'Team/MovedDir', source: 'Team/Plan.md', target: 'Team/Notes.md',
};

/** Absolute locations of this machine an answer must never show, and errno words. */
function machineText(r: ToolResult, dirs: string[]): string | null {
  const text = textOf(r);
  for (const d of dirs) if (text.includes(d)) return `shows ${d}`;
  const m = /\b(ENOENT|EACCES|EPERM|ENAMETOOLONG|ENOTDIR|EISDIR|ELOOP|EINVAL|EEXIST|errno)\b/.exec(text);
  return m ? `shows errno text ${m[1]}` : null;
}

test('hostile path spellings through every path-taking tool', { timeout: 600_000 }, async () => {
  const { vault, outside, other } = makeLayout();
  const cat = new Category('hostile paths');
  const dotBefore = snapshot(`${vault}/.obsidian`);
  const before = { outside: snapshot(outside), other: snapshot(other) };
  const t = await serve(vault);
  const dirs = [vault, outside, other, t.host.data.dir, '/tmp/'];
  try {
    const rw = await t.key({ name: 'rw', scope: 'readwrite' });
    const team = await t.key({ name: 'team', scope: 'readwrite', root: 'Team' });
    for (const [label, key, markers] of [['rw', rw, []], ['team', team, MARKERS]] as const) {
      const c = await connect(t.url, key);
      const { tools } = await c.listTools();
      for (const tool of tools) {
        const props = (tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {};
        const required = (tool.inputSchema as { required?: string[] }).required ?? [];
        const pathArgs = Object.keys(props).filter((k) => PATH_ARGS.has(k));
        for (const arg of pathArgs) {
          for (const hostile of HOSTILE) {
            const args: Record<string, unknown> = {};
            for (const k of required) if (k in FILLERS) args[k] = FILLERS[k];
            args[arg] = hostile;
            await cat.attempt(`${label} ${tool.name}(${arg}=${JSON.stringify(hostile.slice(0, 40))})`, async () => {
              const r = await call(c, tool.name, args);
              if (r.isError) assert.notEqual(refusalCode(r), 'internal_error', textOf(r).slice(0, 300));
              const bad = machineText(r, dirs);
              assert.equal(bad, null, `${bad}: ${textOf(r).slice(0, 300)}`);
              assert.deepEqual(leaks(r, 'plan'), [], textOf(r).slice(0, 300));
              const body = JSON.stringify(r);
              for (const m of markers) assert.ok(!body.includes(m), `${label} learned ${m}: ${textOf(r).slice(0, 200)}`);
            });
          }
        }
      }
      await c.close();
    }
    await cat.attempt('/health still answers', async () => assert.equal((await fetch(t.url.replace('/mcp', '/health'))).status, 200));
  } finally { await t.stop(); }
  for (const where of ['outside', 'other'] as const) {
    const d = changed(before[where], snapshot(where === 'outside' ? outside : other));
    cat.check(`${where} folder unchanged`, d.length === 0, d.join(', '));
  }
  // The server's data folder is outside the vault here: the config folder (keys.json included) must not change at all.
  const dot = changed(dotBefore, snapshot(`${vault}/.obsidian`));
  cat.check('.obsidian unchanged', dot.length === 0, dot.join(', '));
  report(cat);
});
