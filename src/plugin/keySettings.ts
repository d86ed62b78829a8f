// Per-key controls and limit settings for the settings tab (settingsTab.ts calls renderKeyLimits in
// display()): for each key its root folder, switched-off tool families, daily quota, expiry, today's
// calls against its quota, last use and the size of its tools/list; then the server-wide limits
// (rate limits, auth budget, concurrency, write size, audit) with their defaults.
import { Notice, Setting } from 'obsidian';
import type { Settings } from '../core/settings.js';
import type { KeyRecord } from '../core/keys.js';
import type { KeyStore } from '../services/keyStore.js';
import type { ServerDeps } from '../mcp/deps.js';
import type { Family } from '../mcp/tool.js';
import { callerFor } from '../http/app.js';
import { permittedTools, toolListing } from '../mcp/server.js';
import { normalizeFolderPath } from '../core/paths.js';
import { LIMIT_DEFAULTS, LIMIT_LABELS, limitSettings, type LimitSettings } from '../limits/settings.js';
import { quotaOf } from '../limits/limiter.js';
import type { LimitServices } from '../limits/feature.js';

export const FAMILIES: Family[] = ['read', 'search', 'write', 'graph', 'files', 'admin', 'llm', 'transfer', 'git'];

export interface KeyLimitsController {
  settings: Settings;
  saveSettings(): Promise<void>;
  keys(): KeyStore;
  /** runtime.deps of the running server, or null when it is off. */
  deps(): ServerDeps | null;
  redisplay(): void;
}

/** Characters of the tools/list answer this key gets (what an agent pays in context), or null when the server is off. */
export function toolsListSize(deps: ServerDeps | null, rec: KeyRecord): { tools: number; chars: number } | null {
  if (!deps) return null;
  const tools = permittedTools(deps, callerFor(rec));
  return { tools: tools.length, chars: JSON.stringify({ tools: tools.map((t) => toolListing(t, deps)) }).length };
}

const when = (t: number | null | undefined) => (t ? new Date(t).toLocaleString() : 'never');
const dateOnly = (t: number | null | undefined) => (t ? new Date(t).toISOString().slice(0, 10) : '');

export function renderKeyLimits(el: HTMLElement, c: KeyLimitsController): void {
  const deps = c.deps();
  const limits = deps?.services.limits as LimitServices | undefined;
  const ls = limitSettings(c.settings);
  const store = c.keys();
  const update = async (name: string, patch: Parameters<KeyStore['update']>[1]) => {
    try { await store.update(name, patch); new Notice(`Key "${name}" updated; open sessions use it from their next request.`); } catch (e) { new Notice((e as Error).message); }
    c.redisplay();
  };

  new Setting(el).setName('Key restrictions').setHeading();
  el.createEl('p', { cls: 'setting-item-description', text: `Server: ${deps ? 'running' : 'off'}. Limits apply per key; a key confined to a folder sees and touches nothing outside it.` });
  for (const r of store.list().filter((k) => !k.ephemeral && !k.revoked)) {
    const quota = quotaOf(r, ls);
    const today = limits?.usage.todayCounts(r.id);
    const size = toolsListSize(deps, r);
    const box = el.createDiv({ cls: 'vmcp-key-limits' });
    new Setting(box).setName(r.name).setHeading().setDesc(
      `Today: ${today?.admitted ?? 0} of ${quota || '∞'} calls${today?.refused ? `, ${today.refused} refused` : ''} · last used ${when(r.lastUsed)}` +
      (size ? ` · tools/list: ${size.tools} tools, ${size.chars.toLocaleString()} characters` : ''),
    );
    let root = r.root ?? '';
    new Setting(box).setName('Root folder').setDesc('Vault-relative folder this key is confined to; empty = the whole vault.')
      .addText((t) => t.setPlaceholder('(whole vault)').setValue(root).onChange((v) => { root = v; }))
      .addButton((b) => b.setButtonText('Apply').onClick(async () => {
        let folder = '';
        try { folder = normalizeFolderPath(root, 'root folder'); } catch (e) { new Notice((e as Error).message); return; }
        await update(r.name, { root: folder });
      }));
    const fam = new Setting(box).setName('Tool families').setDesc('Switched-off families are not listed to this key at all.');
    for (const f of FAMILIES) {
      fam.addToggle((t) => t.setTooltip(f).setValue(!(r.disabledFamilies ?? []).includes(f)).onChange(async (on) => {
        const off = new Set(r.disabledFamilies ?? []);
        if (on) off.delete(f); else off.add(f);
        await update(r.name, { disabledFamilies: [...off] });
      }));
      fam.controlEl.createSpan({ text: f, cls: 'vmcp-family-label' });
    }
    new Setting(box).setName('Daily quota').setDesc(`Calls per day (resets at midnight); empty = the default (${ls.defaultDailyQuota || 'unlimited'}), 0 = unlimited.`)
      .addText((t) => t.setValue(r.dailyQuota === undefined ? '' : String(r.dailyQuota ?? 0)).onChange(async (v) => {
        const s = v.trim();
        if (s !== '' && !/^\d+$/.test(s)) return;
        await update(r.name, { dailyQuota: s === '' ? undefined : Number(s) === 0 ? null : Number(s) });
      }));
    new Setting(box).setName('Expires').setDesc('YYYY-MM-DD (end of that day, UTC); empty = never.')
      .addText((t) => t.setPlaceholder('2027-01-31').setValue(dateOnly(r.expires)).onChange(async (v) => {
        const s = v.trim();
        if (s === '') return update(r.name, { expires: undefined });
        if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || !Number.isFinite(Date.parse(s))) return;
        await update(r.name, { expires: Date.parse(`${s}T23:59:59Z`) });
      }));
  }

  new Setting(el).setName('Limits').setHeading();
  const set = async (patch: Partial<Settings>) => { Object.assign(c.settings, patch); await c.saveSettings(); };
  for (const k of Object.keys(LIMIT_DEFAULTS) as (keyof LimitSettings)[]) {
    const def = LIMIT_DEFAULTS[k];
    const row = new Setting(el).setName(LIMIT_LABELS[k]).setDesc(`Setting ${k}; default ${typeof def === 'boolean' ? (def ? 'on' : 'off') : def.toLocaleString()}.`);
    if (typeof def === 'boolean') row.addToggle((t) => t.setValue(ls[k] as boolean).onChange((v) => set({ [k]: v })));
    else row.addText((t) => t.setValue(String(ls[k])).onChange(async (v) => { if (/^\d+$/.test(v.trim())) await set({ [k]: Number(v.trim()) }); }));
  }
}
