// The "Import from the web" section of the settings tab: the two import_from_url settings and where
// its requests go. (The test-only loopback allowance is not a setting and has no field here.)
import { Setting } from 'obsidian';
import type { Settings } from '../core/settings.js';
import { importSettings } from '../net/settings.js';

export const IMPORT_DISCLOSURE =
  'import_from_url makes network requests from this computer: when an MCP client calls it, the plugin downloads the URL it names ' +
  'into the vault. Only public internet addresses are reached (private, loopback, link-local and cloud-metadata addresses are refused, ' +
  'also after redirects). Switch the "transfer" tool family off for a key to deny it.';

export function renderImportSettings(el: HTMLElement, c: { settings: Settings; saveSettings(): Promise<void> }): void {
  const cur = importSettings(c.settings);
  new Setting(el).setName('Import from the web').setHeading();
  el.createEl('p', { text: IMPORT_DISCLOSURE, cls: 'setting-item-description' });
  new Setting(el)
    .setName('Allow plain HTTP')
    .setDesc('Let import_from_url fetch http:// URLs too (https only when off).')
    .addToggle((t) => t.setValue(cur.importAllowHttp).onChange(async (v) => { c.settings.importAllowHttp = v; await c.saveSettings(); }));
  new Setting(el)
    .setName('Import time limit (seconds)')
    .setDesc('Longest one import may take, redirects included.')
    .addText((t) => t.setValue(String(cur.importTimeoutS)).onChange(async (v) => {
      const n = Number(v.trim());
      if (!Number.isInteger(n) || n < 1 || n > 600) return;
      c.settings.importTimeoutS = n;
      await c.saveSettings();
    }));
}
