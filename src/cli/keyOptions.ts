// Optional key restrictions from `keys add` flags (root folder, families, quota, expiry).
import type { NewKey } from '../services/keyStore.js';
import { normalizeFolderPath } from '../core/paths.js';

export function addKeyExtras(values: Record<string, string | undefined>, fail: (m: string) => never): Omit<NewKey, 'name' | 'scope'> {
  const out: Omit<NewKey, 'name' | 'scope'> = {};
  if (values.root) {
    try { out.root = normalizeFolderPath(values.root, 'root'); } catch (e) { fail((e as Error).message); }
  }
  if (values['disable-families']) out.disabledFamilies = values['disable-families'].split(',').map((s) => s.trim()).filter(Boolean);
  if (values.quota !== undefined) {
    if (!/^\d+$/.test(values.quota)) fail(`--quota needs a whole number of calls per day, got "${values.quota}".`);
    out.dailyQuota = Number(values.quota);
  }
  if (values.expires) {
    const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(values.expires) ? `${values.expires}T23:59:59Z` : values.expires);
    if (!Number.isFinite(t)) fail(`--expires needs a date like 2027-01-31, got "${values.expires}".`);
    out.expires = t;
  }
  return out;
}
