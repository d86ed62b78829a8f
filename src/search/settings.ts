// Keyword-search settings, read with defaults so a settings object from an older version works.
import type { Settings } from '../core/settings.js';

export interface KeywordSettings {
  /** Languages whose stemmer applies (e.g. ["english", "german"]); [] = no stemming. Changing it rebuilds the index. */
  keywordStemming: string[];
  /** Drop the stemmed languages' stop words from bodies and queries. Changing it rebuilds the index. */
  keywordStopWords: boolean;
  /** Notes larger than this (bytes) are skipped by the keyword index. */
  keywordMaxNoteBytes: number;
}

export const KEYWORD_DEFAULTS: KeywordSettings = {
  keywordStemming: ['english'],
  keywordStopWords: true,
  keywordMaxNoteBytes: 5 * 1024 * 1024,
};

export function keywordSettings(s: Settings): KeywordSettings {
  const out = { ...KEYWORD_DEFAULTS } as Record<string, unknown>;
  for (const k of Object.keys(KEYWORD_DEFAULTS)) if (s[k] !== undefined && s[k] !== null) out[k] = s[k];
  const r = out as unknown as KeywordSettings;
  if (typeof r.keywordStemming === 'string') r.keywordStemming = (r.keywordStemming as string).split(',').map((g) => g.trim()).filter(Boolean);
  if (!Array.isArray(r.keywordStemming)) r.keywordStemming = [...KEYWORD_DEFAULTS.keywordStemming];
  // "none" / "off" means no stemming (a CLI flag cannot be given an empty list comfortably).
  r.keywordStemming = r.keywordStemming.map((l) => String(l).trim().toLowerCase()).filter((l) => l && l !== 'none' && l !== 'off');
  // The CLI passes strings: on/off, true/false, yes/no, 1/0.
  if (typeof r.keywordStopWords !== 'boolean') r.keywordStopWords = !/^(off|false|no|0)$/i.test(String(r.keywordStopWords).trim());
  return r;
}
