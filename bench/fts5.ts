// The reference ranker: SQLite FTS5 bm25() with the porter tokenizer (better-sqlite3, devDependency).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface Fts5 {
  add(rows: { id: string; title: string; body: string }[]): void;
  /** Ids best first (all query words OR-ed, bm25 order). */
  search(query: string, limit: number): string[];
  close(): void;
}

/** FTS5 query text: every word quoted and OR-ed (so punctuation never breaks the syntax). */
export function ftsQuery(q: string): string {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => `"${w}"`).join(' OR ');
}

export function openFts5(file = ':memory:'): Fts5 {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const Database = require('better-sqlite3');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS docs USING fts5(id UNINDEXED, title, body, tokenize = 'porter unicode61 remove_diacritics 2')");
  const ins = db.prepare('INSERT INTO docs (id, title, body) VALUES (?, ?, ?)');
  const sel = db.prepare('SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?');
  return {
    add(rows) {
      db.transaction((rs: typeof rows) => { for (const r of rs) ins.run(r.id, r.title, r.body); })(rows);
    },
    search(query, limit) {
      const fq = ftsQuery(query);
      if (!fq) return [];
      return (sel.all(fq, limit) as { id: string }[]).map((r) => r.id);
    },
    close() { db.close(); },
  };
}
