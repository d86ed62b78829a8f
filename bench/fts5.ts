// The reference ranker: SQLite FTS5 (better-sqlite3, devDependency) set up as issue 14 states it:
// `fts5(title, body, tokenize='porter unicode61')`, ranked by `bm25(t, 1.0, 1.0)`, every distinct
// query word quoted and OR-ed. Row ids map to the caller's ids in memory, so the table holds only the
// two text columns (an extra column would shift bm25's weights).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface Fts5 {
  add(rows: { id: string; title: string; body: string }[]): void;
  /** Ids best first (bm25 order, ties by row id), at most `limit`. */
  search(query: string, limit: number): string[];
  close(): void;
}

export interface Fts5Options {
  /**
   * Keep repeated query words (each occurrence is its own OR-ed phrase, so bm25 counts it again).
   * Off for the stated reference (distinct words, the figures issue 14 quotes); on for the stronger
   * variant the eval also prints, where verbose queries weigh the words they repeat.
   */
  keepRepeats?: boolean;
}

/** FTS5 query text: the query's words quoted (so punctuation never breaks the syntax) and OR-ed. */
export function ftsQuery(q: string, keepRepeats = false): string {
  let words: string[] = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (!keepRepeats) words = [...new Set(words)];
  return words.map((w) => `"${w}"`).join(' OR ');
}

export function openFts5(file = ':memory:', opts: Fts5Options = {}): Fts5 {
  const Database = require('better-sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS t USING fts5(title, body, tokenize = 'porter unicode61')");
  const ins = db.prepare('INSERT INTO t (rowid, title, body) VALUES (?, ?, ?)');
  const sel = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t, 1.0, 1.0), rowid LIMIT ?');
  const ids: string[] = [''];
  return {
    add(rows) {
      db.transaction((rs: typeof rows) => { for (const r of rs) { ins.run(ids.length, r.title, r.body); ids.push(r.id); } })(rows);
    },
    search(query, limit) {
      const fq = ftsQuery(query, opts.keepRepeats);
      if (!fq) return [];
      return (sel.all(fq, limit) as { rowid: number }[]).map((r) => ids[r.rowid]);
    },
    close() { db.close(); },
  };
}
