// The contract between keyword search (issue 4) and its users (hybrid search, issue 5).
// The keyword feature registers an object with this shape as `deps.services.keyword`.

export interface KeywordRankOptions {
  /** Rows wanted (hybrid asks for 50). */
  limit: number;
  /** Only notes this returns true for (caller scope, folder, tags, frontmatter); apply before the limit. */
  accept?: (path: string) => boolean;
  signal?: AbortSignal;
}

export interface KeywordRanked {
  path: string;
  score: number;
  /** True when the note contains every query term (drives `confidence: ok | low`). */
  matchedAll: boolean;
}

export interface KeywordRanker {
  /** Ranked note paths for a query, best first; [] when nothing matches. */
  rank(query: string, opts: KeywordRankOptions): Promise<KeywordRanked[]>;
  /** The note's display title as the index knows it (frontmatter title, first-line H1…), or null. */
  title?(path: string): string | null;
  /** Why the ranker cannot answer right now (e.g. still building), or null. */
  unavailableReason?(): string | null;
}

/** Text processing of one index: stemming and stop words (src/search/analyzer.ts makes one). */
export interface Analyzer {
  readonly signature: string;
  readonly unknownLanguages: string[];
  stem(folded: string): string;
  isStopWord(folded: string): boolean;
}
