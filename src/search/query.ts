// The query syntax people type, parsed into clauses that never fail:
//   bare words are ANDed · "exact phrase" · prefix* · -excluded (also -"a phrase") · a OR b
// Anything else (bge-m3, C++, foo:bar, --flag, unbalanced quotes, stray operators) is searched literally:
// an item whose text splits into several words (foo:bar) needs all of them; only "quotes" demand adjacency.
import type { Analyzer } from './analyzer.js';
import { tokenize } from './text.js';

export interface Alt {
  /** phrase: adjacent and in order (verified on the text); words: all present (literal text split by punctuation). */
  kind: 'term' | 'prefix' | 'phrase' | 'words';
  /** Index terms (folded, stemmed; prefixes folded only). Every one must match for the alt to match. */
  terms: string[];
  raw: string;
}

export interface Clause { alts: Alt[] }

export interface ParsedQuery {
  clauses: Clause[];
  excluded: Alt[];
  /** Every distinct leaf the index is asked for. */
  /** weight = how often the term occurs in the query (verbose queries repeat what matters). */
  leaves: { term: string; prefix: boolean; weight: number }[];
}

interface Item { text: string; quoted: boolean; negated: boolean; orAfter?: boolean }

function lex(q: string): Item[] {
  const items: Item[] = [];
  const quotes = (q.match(/"/g) ?? []).length;
  // Unbalanced quotes are literal characters: drop the last one so the rest still pairs up.
  if (quotes % 2 === 1) { const i = q.lastIndexOf('"'); q = q.slice(0, i) + ' ' + q.slice(i + 1); }
  const re = /(-?)"([^"]*)"|(\S+)/g;
  for (let m = re.exec(q); m; m = re.exec(q)) {
    if (m[2] !== undefined) items.push({ text: m[2], quoted: true, negated: m[1] === '-' });
    else {
      const w = m[3];
      // '--flag' (a command-line option) is a literal word, not an exclusion.
      if (w.length > 1 && w.startsWith('-') && !w.startsWith('--') && /[\p{L}\p{N}]/u.test(w)) items.push({ text: w.slice(1), quoted: false, negated: true });
      else items.push({ text: w, quoted: false, negated: false });
    }
  }
  return items;
}

function altOf(item: Item, analyzer: Analyzer, keepStop: boolean): Alt | null {
  const raw = item.text;
  if (!item.quoted && /^[^*]+\*$/.test(raw)) {
    const toks = tokenize(raw.slice(0, -1)).filter((t) => !t.part);
    if (toks.length === 1) return { kind: 'prefix', terms: [toks[0].text], raw };
    if (toks.length === 0) return null;
    // "foo:ba*": all but the last word literally, the last as a prefix (approximated as a phrase of terms).
  }
  const toks = tokenize(raw.replace(/\*+$/, '')).filter((t) => !t.part);
  const kept = toks.filter((t) => keepStop || !analyzer.isStopWord(t.text)).map((t) => analyzer.stem(t.text));
  if (!kept.length) return null;
  if (kept.length === 1 && !item.quoted) return { kind: 'term', terms: kept, raw };
  if (kept.length === 1) return { kind: 'term', terms: kept, raw };
  return { kind: item.quoted ? 'phrase' : 'words', terms: kept, raw };
}

export function parseQuery(query: string, analyzer: Analyzer): ParsedQuery {
  const items = lex(query.normalize('NFC'));
  // OR binds the items on each side into one clause; a leading/trailing/double OR is a literal word "or".
  const groups: Item[][] = [];
  for (let i = 0; i < items.length; i++) {
    const it = items[i];
    if (!it.quoted && it.text === 'OR' && groups.length && i + 1 < items.length && !(items[i + 1].text === 'OR' && !items[i + 1].quoted)) {
      const next = items[++i];
      const last = groups[groups.length - 1];
      if (!next.negated && !last.some((x) => x.negated)) { last.push(next); continue; }
      groups.push([next]);
      continue;
    }
    groups.push([it]);
  }
  const positive = groups.filter((g) => !g[0].negated);
  const negative = groups.filter((g) => g[0].negated).flat();
  // Stop words are dropped, unless the query has nothing else (then they are searched in titles).
  const build = (keepStop: boolean) => positive.map((g) => ({ alts: g.map((it) => altOf(it, analyzer, keepStop)).filter((a): a is Alt => !!a) })).filter((c) => c.alts.length);
  let clauses = build(false);
  if (!clauses.length) clauses = build(true);
  const excluded = negative.map((it) => altOf({ ...it, negated: false }, analyzer, false)).filter((a): a is Alt => !!a);
  const seen = new Map<string, ParsedQuery['leaves'][number]>();
  const leaves: ParsedQuery['leaves'] = [];
  for (const a of [...clauses.flatMap((c) => c.alts), ...excluded]) {
    for (const t of a.terms) {
      const key = `${a.kind === 'prefix' ? 'p' : 't'}:${t}`;
      const had = seen.get(key);
      if (had) had.weight++;
      else { const l = { term: t, prefix: a.kind === 'prefix', weight: 1 }; seen.set(key, l); leaves.push(l); }
    }
  }
  return { clauses, excluded, leaves };
}
