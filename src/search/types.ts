// The contract between keyword search (issue 4) and its users (hybrid search, issue 5).
// The keyword feature registers an object with this shape as `deps.services.keyword`.
import { clearTimeout, setTimeout } from 'node:timers';

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
  /** Why the ranker cannot answer completely right now (e.g. still building), or null. */
  unavailableReason?(): string | null;
  /** Resolves when the first load or build is done and queued changes are applied. */
  ready?(): Promise<void>;
  /** True while notes are still waiting to be (re)indexed: answers may miss them. */
  stale?(): boolean;
}

/**
 * The first search after start waits this long (at most) for the first build, then answers from
 * what is indexed so far and says so (the answer's hint, _meta.index_stale) instead of refusing.
 */
export const FIRST_BUILD_WAIT_MS = 3000;

/** Waits for `p` at most `ms`; never rejects. */
export async function waitAtMost(p: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!p) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p.catch(() => undefined), new Promise((r) => { timer = setTimeout(r, ms); })]);
  clearTimeout(timer);
}

/** What a search answer says while its index is incomplete (in its hint). */
export function staleStatus(reason: string | null | undefined): string {
  return `${reason ?? 'notes changed moments ago are still being indexed'}; results may be incomplete. Pass wait_for_pending_writes=true (keyword_search) or call again shortly for a complete answer.`;
}

/** Text processing of one index: stemming and stop words (src/search/analyzer.ts makes one). */
export interface Analyzer {
  readonly signature: string;
  readonly unknownLanguages: string[];
  stem(folded: string): string;
  isStopWord(folded: string): boolean;
}
