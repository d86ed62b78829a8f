// Stemming and stop words chosen by the `keywordStemming` setting (a list of languages). Stemmers and
// stop-word lists come from @orama/stemmers and @orama/stopwords (Snowball-derived, maintained).
// A token is stemmed by the first configured language written in the token's script (so "english,
// russian" stems Latin words as English and Cyrillic words as Russian); tokens in other scripts are
// left as they are. The analyzer's `signature` is stored with the index: a different signature
// means a different tokenization, and the index is rebuilt rather than mixed.
import { stemmer as ar } from '@orama/stemmers/arabic';
import { stemmer as hy } from '@orama/stemmers/armenian';
import { stemmer as bg } from '@orama/stemmers/bulgarian';
import { stemmer as da } from '@orama/stemmers/danish';
import { stemmer as nl } from '@orama/stemmers/dutch';
import { stemmer as en } from '@orama/stemmers/english';
import { stemmer as fi } from '@orama/stemmers/finnish';
import { stemmer as fr } from '@orama/stemmers/french';
import { stemmer as de } from '@orama/stemmers/german';
import { stemmer as el } from '@orama/stemmers/greek';
import { stemmer as hu } from '@orama/stemmers/hungarian';
import { stemmer as id } from '@orama/stemmers/indonesian';
import { stemmer as ga } from '@orama/stemmers/irish';
import { stemmer as it } from '@orama/stemmers/italian';
import { stemmer as lt } from '@orama/stemmers/lithuanian';
import { stemmer as ne } from '@orama/stemmers/nepali';
import { stemmer as no } from '@orama/stemmers/norwegian';
import { stemmer as pt } from '@orama/stemmers/portuguese';
import { stemmer as ro } from '@orama/stemmers/romanian';
import { stemmer as ru } from '@orama/stemmers/russian';
import { stemmer as es } from '@orama/stemmers/spanish';
import { stemmer as sv } from '@orama/stemmers/swedish';
import { stemmer as ta } from '@orama/stemmers/tamil';
import { stemmer as tr } from '@orama/stemmers/turkish';
import { stemmer as uk } from '@orama/stemmers/ukrainian';
import { stopwords as swAr } from '@orama/stopwords/arabic';
import { stopwords as swBg } from '@orama/stopwords/bulgarian';
import { stopwords as swDa } from '@orama/stopwords/danish';
import { stopwords as swNl } from '@orama/stopwords/dutch';
import { stopwords as swEn } from '@orama/stopwords/english';
import { stopwords as swFi } from '@orama/stopwords/finnish';
import { stopwords as swFr } from '@orama/stopwords/french';
import { stopwords as swDe } from '@orama/stopwords/german';
import { stopwords as swEl } from '@orama/stopwords/greek';
import { stopwords as swHu } from '@orama/stopwords/hungarian';
import { stopwords as swId } from '@orama/stopwords/indonesian';
import { stopwords as swIt } from '@orama/stopwords/italian';
import { stopwords as swNo } from '@orama/stopwords/norwegian';
import { stopwords as swPt } from '@orama/stopwords/portuguese';
import { stopwords as swRo } from '@orama/stopwords/romanian';
import { stopwords as swRu } from '@orama/stopwords/russian';
import { stopwords as swEs } from '@orama/stopwords/spanish';
import { stopwords as swSv } from '@orama/stopwords/swedish';
import { stopwords as swTr } from '@orama/stopwords/turkish';
import { stopwords as swUk } from '@orama/stopwords/ukrainian';
import { fold } from './text.js';
import type { Analyzer } from './types.js';

type Script = 'latin' | 'cyrillic' | 'greek' | 'arabic' | 'armenian' | 'devanagari' | 'tamil';

interface Language { stem: (w: string) => string; script: Script; stop?: string[] }

export const LANGUAGES: Record<string, Language> = {
  arabic: { stem: ar, script: 'arabic', stop: swAr },
  armenian: { stem: hy, script: 'armenian' },
  bulgarian: { stem: bg, script: 'cyrillic', stop: swBg },
  danish: { stem: da, script: 'latin', stop: swDa },
  dutch: { stem: nl, script: 'latin', stop: swNl },
  english: { stem: en, script: 'latin', stop: [...swEn, 'a'] },
  finnish: { stem: fi, script: 'latin', stop: swFi },
  french: { stem: fr, script: 'latin', stop: swFr },
  german: { stem: de, script: 'latin', stop: swDe },
  greek: { stem: el, script: 'greek', stop: swEl },
  hungarian: { stem: hu, script: 'latin', stop: swHu },
  indonesian: { stem: id, script: 'latin', stop: swId },
  irish: { stem: ga, script: 'latin' },
  italian: { stem: it, script: 'latin', stop: swIt },
  lithuanian: { stem: lt, script: 'latin' },
  nepali: { stem: ne, script: 'devanagari' },
  norwegian: { stem: no, script: 'latin', stop: swNo },
  portuguese: { stem: pt, script: 'latin', stop: swPt },
  romanian: { stem: ro, script: 'latin', stop: swRo },
  russian: { stem: ru, script: 'cyrillic', stop: swRu },
  spanish: { stem: es, script: 'latin', stop: swEs },
  swedish: { stem: sv, script: 'latin', stop: swSv },
  tamil: { stem: ta, script: 'tamil' },
  turkish: { stem: tr, script: 'latin', stop: swTr },
  ukrainian: { stem: uk, script: 'cyrillic', stop: swUk },
};

const SCRIPT_TESTS: [Script, RegExp][] = [
  ['latin', /^\p{Script=Latin}/u],
  ['cyrillic', /^\p{Script=Cyrillic}/u],
  ['greek', /^\p{Script=Greek}/u],
  ['arabic', /^\p{Script=Arabic}/u],
  ['armenian', /^\p{Script=Armenian}/u],
  ['devanagari', /^\p{Script=Devanagari}/u],
  ['tamil', /^\p{Script=Tamil}/u],
];

export interface AnalyzerOptions {
  /** Languages to stem, e.g. ["english"]; [] = no stemming. Unknown names are reported, not fatal. */
  stemming: string[];
  stopWords: boolean;
}

export type { Analyzer } from './types.js';

const CACHE_MAX = 200_000;

export function createAnalyzer(opts: AnalyzerOptions): Analyzer {
  const langs = [...new Set(opts.stemming.map((l) => l.trim().toLowerCase()).filter(Boolean))];
  const unknownLanguages = langs.filter((l) => !LANGUAGES[l]);
  const known = langs.filter((l) => LANGUAGES[l]);
  const byScript = new Map<Script, (w: string) => string>();
  for (const l of known) if (!byScript.has(LANGUAGES[l].script)) byScript.set(LANGUAGES[l].script, LANGUAGES[l].stem);
  // Stop words only for the stemmed languages (or English when stemming is off but stop words are on).
  const stopLangs = known.length ? known : ['english'];
  const stop = new Set<string>();
  if (opts.stopWords) for (const l of stopLangs) for (const w of LANGUAGES[l].stop ?? []) stop.add(fold(w));
  const cache = new Map<string, string>();
  const stem = (w: string): string => {
    if (byScript.size === 0 || w.length < 3) return w;
    const hit = cache.get(w);
    if (hit !== undefined) return hit;
    let out = w;
    for (const [script, re] of SCRIPT_TESTS) {
      if (re.test(w)) {
        const fn = byScript.get(script);
        // Identifiers with digits or joiners ("m3", "v1.2", "bge-m3") are kept as written.
        if (fn && !/[\d\-._'+#]/.test(w)) { try { out = fn(w) || w; } catch { out = w; } }
        break;
      }
    }
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(w, out);
    return out;
  };
  return {
    signature: JSON.stringify({ v: 1, stem: known, stop: opts.stopWords }),
    unknownLanguages,
    stem,
    isStopWord: (w) => stop.has(w),
  };
}
