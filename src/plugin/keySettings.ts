// Per-key controls and limit settings for the settings tab (settingsTab.ts calls renderKeyLimits in
// display()): for each key its root folder, switched-off tool families, daily quota, expiry, today's
// calls against its quota, last use and the size of its tools/list; then the server-wide limits
// (rate limits, auth budget, concurrency, write size, audit) with their defaults.
import { Notice, Setting } from 'obsidian';
import type { Settings } from '../core/settings.js';
import type { KeyRecord } from '../core/keys.js';
import type { KeyStore } from '../services/keyStore.js';
import type { ServerDeps } from '../mcp/tool.js';
import { FAMILIES } from '../mcp/tool.js';
import { normalizeFolderPath } from '../core/paths.js';
import { LIMIT_DEFAULTS, LIMIT_LABELS, limitSettings, type LimitSettings } from '../limits/settings.js';
import { quotaOf } from '../limits/limiter.js';

export { FAMILIES };

export interface KeyLimitsController {
  settings: Settings;
  saveSettings(): Promise<void>;
  keys(): KeyStore;
  /** runtime.deps of the running server, or null when it is off. */
  deps(): ServerDeps | null;
  redisplay(): void;
  /** One line on the server's state (statusTooltip); without it the section says running or off. */
  serverState?(): string;
  /** Size of this key's tools/list from the running server (server.js), or null when it is off. */
  toolsListSize?(rec: KeyRecord): { tools: number; chars: number; bytes: number; tokens: number } | null;
}

/** Server-wide size and mode settings shown with the limits (the read cap sits higher up in the tab). */
const SIZE_ROWS: { key: 'maxFileReadBytes' | 'maxWriteBytes' | 'maxRequestBytes' | 'sessionIdleMinutes'; name: string; desc: string; min: number }[] = [
  { key: 'maxFileReadBytes', name: 'Largest file read (bytes)', desc: 'read_file refuses larger files (payload_too_large, setting maxFileReadBytes).', min: 1 },
  { key: 'maxWriteBytes', name: 'Largest file write (bytes)', desc: 'A write that would produce a larger file, or carries more content, is refused (payload_too_large, setting maxWriteBytes).', min: 1 },
  { key: 'maxRequestBytes', name: 'Largest request body (bytes)', desc: 'Larger HTTP bodies get 413 (setting maxRequestBytes).', min: 1024 },
  { key: 'sessionIdleMinutes', name: 'Idle session timeout (minutes)', desc: 'MCP sessions idle this long are closed.', min: 1 },
];

const when = (t: number | null | undefined) => (t ? new Date(t).toLocaleString() : 'never');
const dateOnly = (t: number | null | undefined) => (t ? new Date(t).toISOString().slice(0, 10) : '');

export function renderKeyLimits(el: HTMLElement, c: KeyLimitsController): void {
  const deps = c.deps();
  const limits = deps?.services.limits;
  const ls = limitSettings(c.settings);
  const store = c.keys();
  const update = async (name: string, patch: Parameters<KeyStore['update']>[1]) => {
    try { await store.update(name, patch); new Notice(`Key "${name}" updated; open sessions use it from their next request.`); } catch (e) { new Notice((e as Error).message); }
    c.redisplay();
  };

  new Setting(el).setName('Key restrictions').setHeading();
  el.createEl('p', { cls: 'setting-item-description vmcp-server-state', text: `Server: ${(c.serverState?.() ?? (deps ? 'running' : 'off')).replace(/\.$/, '')}${c.settings.readOnly ? ' · read-only mode' : ''}. Limits apply per key; a key confined to a folder sees and touches nothing outside it.` });
  for (const r of store.list().filter((k) => !k.ephemeral && !k.revoked)) {
    const quota = quotaOf(r, ls);
    const today = limits?.usage.todayCounts(r.id);
    const size = c.toolsListSize?.(r) ?? null;
    const box = el.createDiv({ cls: 'vmcp-key-limits' });
    box.setAttr('data-key', r.name);
    new Setting(box).setName(r.name).setHeading().setDesc(
      `Today: ${today?.admitted ?? 0} of ${quota || '∞'} calls${today?.refused ? `, ${today.refused} refused` : ''} · last used ${when(r.lastUsed)}` +
      (size ? ` · tools/list: ${size.tools} tools, ${size.bytes.toLocaleString()} bytes (≈${size.tokens.toLocaleString()} tokens)` : ' · tools/list size: start the server to measure'),
    );
    if (quota > 0) {
      const used = Math.min(1, (today?.admitted ?? 0) / quota);
      const meter = box.createDiv({ cls: 'vmcp-quota', attr: { role: 'meter', 'aria-valuemin': '0', 'aria-valuemax': String(quota), 'aria-valuenow': String(today?.admitted ?? 0), 'aria-label': `${r.name}: calls today against its quota` } });
      meter.createDiv({ cls: `vmcp-quota-fill${used >= 0.9 ? ' vmcp-quota-high' : ''}`, attr: { style: `width:${(used * 100).toFixed(1)}%` } });
    }
    new Setting(box).setName('Scope').setDesc('Read-only keys do not even see the write tools.')
      .addDropdown((d) => d.addOption('read', 'Read only').addOption('readwrite', 'Read and write').setValue(r.scope)
        .onChange(async (v) => { await update(r.name, { scope: v === 'readwrite' ? 'readwrite' : 'read' }); }));
    let root = r.root ?? '';
    new Setting(box).setName('Root folder').setDesc('Vault-relative folder this key is confined to; empty = the whole vault.')
      .addText((t) => t.setPlaceholder('Whole vault').setValue(root).onChange((v) => { root = v; }))
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
  new Setting(el).setName('Read-only mode').setDesc('No key sees or may call a write tool, whatever its scope (--read-only headless). Applies from the next request.')
    .addToggle((t) => t.setValue(!!c.settings.readOnly).onChange(async (v) => { await set({ readOnly: v }); c.redisplay(); }));
  for (const row of SIZE_ROWS) {
    new Setting(el).setName(row.name).setDesc(`${row.desc} Setting ${row.key}.`)
      .addText((t) => t.setValue(String(c.settings[row.key])).onChange(async (v) => {
        const n = Number(v.trim());
        if (/^\d+$/.test(v.trim()) && n >= row.min) await set({ [row.key]: n });
      }));
  }
  for (const k of Object.keys(LIMIT_DEFAULTS) as (keyof LimitSettings)[]) {
    const def = LIMIT_DEFAULTS[k];
    const row = new Setting(el).setName(LIMIT_LABELS[k]).setDesc(`Setting ${k}; default ${typeof def === 'boolean' ? (def ? 'on' : 'off') : def.toLocaleString()}.`);
    if (typeof def === 'boolean') row.addToggle((t) => t.setValue(ls[k] as boolean).onChange((v) => set({ [k]: v })));
    else row.addText((t) => t.setValue(String(ls[k])).onChange(async (v) => { if (/^\d+$/.test(v.trim())) await set({ [k]: Number(v.trim()) }); }));
  }
}
