// The "Keyword search" section of the settings tab: stemming languages and stop words (the
// keywordStemming / keywordStopWords settings, also the CLI's --keyword-stemming / --keyword-stop-words).
// Either change means another tokenization, so the keyword index is rebuilt (src/search/service.ts
// checkSettings); the running service is told at once instead of at the next search.
// Wiring (settingsTab.ts display()):  renderSearchSettings(el.createDiv(), { settings, saveSettings, keyword: () => … })
import { Setting } from 'obsidian';
import type { Settings } from '../core/settings.js';
import { LANGUAGE_NAMES } from './languageNames.js';
import { keywordSettings } from '../search/settings.js';

/** The part of the keyword service this section uses (src/search/service.ts). */
export interface KeywordSettingsTarget {
  settingsChanged(): void;
  status(): { state: string; indexed: number; pending: number; detail?: string };
}

export interface SearchSettingsController {
  settings: Settings;
  saveSettings(): Promise<void>;
  /** The running server's keyword service, or null when the server is off. */
  keyword(): KeywordSettingsTarget | null;
}

/** "english, German ,, none" → ["english", "german"]; unknown names are kept (and reported). */
export function parseLanguages(text: string): string[] {
  return [...new Set(text.split(',').map((l) => l.trim().toLowerCase()).filter((l) => l && l !== 'none' && l !== 'off'))];
}

export function unknownLanguages(langs: string[]): string[] {
  return langs.filter((l) => !LANGUAGE_NAMES.includes(l));
}

export function renderSearchSettings(el: HTMLElement, c: SearchSettingsController): void {
  const ks = keywordSettings(c.settings);
  let timer: number | null = null;
  /** Saves at once; tells the running index after `delayMs` (typing a language must not rebuild per keystroke). */
  const apply = async (patch: Partial<Settings>, delayMs = 0) => {
    Object.assign(c.settings, patch);
    await c.saveSettings();
    if (timer) window.clearTimeout(timer);
    timer = null;
    if (!delayMs) { c.keyword()?.settingsChanged(); return; }
    timer = window.setTimeout(() => { timer = null; c.keyword()?.settingsChanged(); }, delayMs);
    (timer as { unref?: () => void }).unref?.();
  };
  new Setting(el).setName('Keyword search').setHeading();
  const warn = el.createDiv({ cls: 'vmcp-warning' });
  const showUnknown = (langs: string[]) => {
    const bad = unknownLanguages(langs);
    warn.setText(bad.length ? `Unknown stemming language(s): ${bad.join(', ')} (not stemmed). Known: ${LANGUAGE_NAMES.join(', ')}.` : '');
  };
  new Setting(el)
    .setName('Stemming languages')
    .setDesc(`Comma-separated languages whose word endings are folded ("running" finds "runs"); empty or "none" = no stemming. A word is stemmed by the first listed language of its script. Changing this rebuilds the keyword index. Known: ${LANGUAGE_NAMES.join(', ')}.`)
    .addText((t) => {
      t.setPlaceholder('english').setValue(ks.keywordStemming.join(', '));
      t.onChange(async (v) => {
        const langs = parseLanguages(v);
        showUnknown(langs);
        if (langs.join(',') === keywordSettings(c.settings).keywordStemming.join(',')) return;
        await apply({ keywordStemming: langs }, 1500);
      });
    });
  new Setting(el)
    .setName('Drop stop words')
    .setDesc('Leave out the stemmed languages\' most common words ("the", "and") from note bodies and queries; titles, aliases and headings keep them. Changing this rebuilds the keyword index.')
    .addToggle((t) => t.setValue(ks.keywordStopWords).onChange((v) => apply({ keywordStopWords: v })));
  showUnknown(ks.keywordStemming);
}
