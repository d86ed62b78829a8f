// The settings-tab field for the symlink opt-in (host/containment.ts): outside folders a symlink in
// the vault may lead into. Off (empty) by default; while it names a folder a one-line warning shows.
import { Setting } from 'obsidian';
import type { Settings } from '../core/settings.js';
import { allowedFolders, symlinkWarning } from '../core/symlinkOptIn.js';

export function renderSymlinkSettings(el: HTMLElement, c: { settings: Settings; saveSettings(): Promise<void> }): void {
  new Setting(el).setName('Symbolic links').setHeading();
  el.createEl('p', {
    cls: 'setting-item-description',
    text: 'A symlink in the vault that leads outside it, into a dot-folder or out of a key\'s folder is treated as missing by every tool. ' +
      'Name outside folders here (absolute paths, one per line) to let symlinks lead into them, read-only. Applied when the server starts.',
  });
  let warn: HTMLElement | null = null;
  new Setting(el)
    .setName('Outside folders symlinks may lead into')
    .addTextArea((t) => t.setPlaceholder('/home/me/shared').setValue(allowedFolders(c.settings.symlinkAllowedFolders).join('\n')).onChange(async (v) => {
      const list = allowedFolders(v.split('\n'));
      c.settings.symlinkAllowedFolders = list;
      warn?.setText(symlinkWarning(list));
      await c.saveSettings();
    }));
  warn = el.createDiv({ cls: 'vmcp-warning', text: symlinkWarning(allowedFolders(c.settings.symlinkAllowedFolders)) });
}
