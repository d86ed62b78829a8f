// Containment.classify's prefix tests (no path.relative on the usual path) against path.relative's
// answers, over the spellings where a prefix test could go wrong: a sibling sharing a prefix, the root,
// the folder itself, dot parts, and paths path.resolve would change (those take path.relative still).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute, join, relative, sep } from 'node:path';
import { mkdirSync, realpathSync } from 'node:fs';
import { tempDir } from '../helpers/vault.js';
import { Containment, type Placement } from '../../src/host/containment.js';

/** classify() as it was written with path.relative (the reference). */
function reference(real: string, base: string, forbidden: string[], allowed: string[]): Placement | null {
  const under = (child: string, parent: string) => {
    const r = relative(parent, child);
    if (r === '') return '';
    if (r === '..' || r.startsWith(`..${sep}`) || isAbsolute(r)) return null;
    return r;
  };
  const dotted = (rel: string) => rel.split(sep).some((c) => c.startsWith('.'));
  for (const f of forbidden) if (under(real, f) !== null) return null;
  const inV = under(real, base);
  if (inV !== null) return inV !== '' && dotted(inV) ? null : { inVault: inV.split(sep).join('/').normalize('NFC') };
  for (const a of allowed) { const r = under(real, a); if (r !== null && !(r !== '' && dotted(r))) return { outside: real }; }
  return null;
}

test('classify answers as path.relative did, for every spelling a prefix test could get wrong', { skip: sep !== '/' && 'POSIX paths' }, () => {
  // Vault folders that do not exist: the containment then takes them as written (no realpath). The
  // allow-listed folder must exist (only existing ones count).
  const out = join(realpathSync(tempDir('vmcp-contain-')), 'out');
  mkdirSync(join(out, 'allowed'), { recursive: true });
  const bases = ['/v/vault', '/v/vault/', '/', '/v//vault', '/v/./vault'];
  const children = [
    '/v/vault', '/v/vault/', '/v/vault/a.md', '/v/vault/F/b.md', '/v/vaultx/a.md', '/v/vaul', '/v', '/',
    '/v/vault/.obsidian/x.md', '/v/vault/F/.hidden/c.md', '/v/vault/F/.d.md', '/v/vault/F/x.y/z.md',
    '/v/vault/../vault/a.md', '/v/vault/./a.md', '/v/vault//a.md', '/v/vault/a/..', '/v/vault/a/.', '/x/y/z.md',
    '/v/vault/plugin-data/k.json', '/v/vault/plugin-data', '/v/vault/plugin-datax/k.md', `${out}/allowed/n.md`, `${out}/allowedx/n.md`,
    `${out}/allowed/.git/n.md`, `${out}/allowed`, '/v/vault/Café/é.md',
  ];
  let checked = 0;
  for (const base of bases) {
    for (const forbidden of [[], ['/v/vault/plugin-data']]) {
      const allowed = [`${out}/allowed`];
      const c = new Containment(base, { forbidden: () => forbidden, allowedOutside: () => allowed });
      assert.ok(c.hasAllowed());
      for (const child of children) {
        assert.deepEqual(c.classify(child), reference(child, base, forbidden, allowed), `${child} in ${base} (forbidden ${forbidden.join()})`);
        checked++;
      }
    }
  }
  assert.equal(checked, bases.length * 2 * children.length);
});
