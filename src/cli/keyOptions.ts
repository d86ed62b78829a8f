// Key restrictions from `keys add` / `keys set` flags (scope, root folder, switched-off families,
// daily quota, expiry), validated with messages that say how to fix the value.
import type { NewKey } from '../services/keyStore.js';
import type { KeyRecord } from '../core/keys.js';
import { normalizeFolderPath } from '../core/paths.js';
import { FAMILIES } from '../mcp/tool.js';

type Fail = (m: string) => never;
export type KeyPatch = Partial<Pick<KeyRecord, 'scope' | 'root' | 'disabledFamilies' | 'expires' | 'dailyQuota'>>;

function families(v: string, fail: Fail): string[] {
  const list = [...new Set(v.split(',').map((s) => s.trim()).filter(Boolean))];
  const bad = list.filter((f) => !(FAMILIES as readonly string[]).includes(f));
  if (bad.length) fail(`--disable-families: unknown famil${bad.length > 1 ? 'ies' : 'y'} ${bad.map((b) => `"${b}"`).join(', ')}; use a comma-separated list of ${FAMILIES.join(', ')}.`);
  return list;
}

function expiry(v: string, fail: Fail): number {
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T23:59:59Z` : v);
  if (!Number.isFinite(t)) fail(`--expires needs a date like 2027-01-31 (end of that day, UTC), got "${v}".`);
  return t;
}

export function addKeyExtras(values: Record<string, string | undefined>, fail: Fail): Omit<NewKey, 'name' | 'scope'> {
  const out: Omit<NewKey, 'name' | 'scope'> = {};
  if (values.root) {
    try { out.root = normalizeFolderPath(values.root, 'root'); } catch (e) { fail((e as Error).message); }
  }
  if (values['disable-families']) out.disabledFamilies = families(values['disable-families'], fail);
  if (values.quota !== undefined) {
    if (!/^\d+$/.test(values.quota)) fail(`--quota needs a whole number of calls per day (0 = unlimited), got "${values.quota}".`);
    out.dailyQuota = Number(values.quota);
  }
  if (values.expires) out.expires = expiry(values.expires, fail);
  return out;
}

/**
 * `keys set`: only the flags given change. `--root ""` = whole vault, `--disable-families ""` = none,
 * `--quota default` = the server's default quota, `--quota 0` = unlimited, `--expires never`.
 */
export function setKeyPatch(values: Record<string, string | undefined>, fail: Fail): KeyPatch {
  const patch: KeyPatch = {};
  if (values.scope !== undefined) {
    if (values.scope !== 'read' && values.scope !== 'readwrite') fail(`--scope must be "read" or "readwrite", got "${values.scope}".`);
    patch.scope = values.scope;
  }
  if (values.root !== undefined) {
    try { patch.root = values.root.trim() === '' ? '' : normalizeFolderPath(values.root, 'root'); } catch (e) { fail((e as Error).message); }
  }
  if (values['disable-families'] !== undefined) patch.disabledFamilies = families(values['disable-families'], fail);
  if (values.quota !== undefined) {
    if (values.quota === 'default') patch.dailyQuota = undefined;
    else if (/^\d+$/.test(values.quota)) patch.dailyQuota = Number(values.quota);
    else fail(`--quota needs a whole number of calls per day (0 = unlimited) or "default", got "${values.quota}".`);
  }
  if (values.expires !== undefined) patch.expires = values.expires === 'never' || values.expires === '' ? undefined : expiry(values.expires, fail);
  if (!Object.keys(patch).length) fail('keys set changes nothing without at least one of --scope, --root, --disable-families, --quota, --expires.');
  return patch;
}

/** One line of `keys list`. */
export function describeKey(r: KeyRecord): string {
  const iso = (t: number | null | undefined) => (t ? new Date(t).toISOString() : 'never');
  return [
    r.name, r.scope, `id ${r.id}`, `created ${iso(r.created)}`, `last used ${iso(r.lastUsed)}`,
    ...(r.root ? [`root ${r.root}`] : []),
    ...(r.disabledFamilies?.length ? [`families off ${r.disabledFamilies.join(',')}`] : []),
    ...(r.dailyQuota !== undefined ? [`quota ${r.dailyQuota ? r.dailyQuota : 'unlimited'}`] : []),
    ...(r.expires ? [`expires ${iso(r.expires)}`] : []),
    ...(r.ephemeral ? ['in memory'] : []),
  ].join('\t');
}
