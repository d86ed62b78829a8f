// Hybrid fusion (pure). Weighted reciprocal rank fusion: score(d) = Σ over arms w_arm / (k + rank_arm(d)),
// ranks 1-based; each arm contributes its top `depth` rows, and a document missing from an arm gets
// nothing from it. The semantic arm's weight adapts per query to how confident it is (semanticWeight):
// an embedding model whose best matches barely stand out from the rest (a weak model, or a corpus where
// every note looks alike to it) would only reshuffle a good keyword ranking, so it is weighed down to
// almost nothing; where its best matches clearly stand out it counts fully, and the two arms' agreement
// lifts the notes both rank.

export interface FusedRow {
  id: string;
  score: number;
  /** 1-based rank in each arm, null when the arm did not return the document. */
  ranks: (number | null)[];
}

export function rrf(arms: string[][], k = 60, depth = 50, weights: number[] = arms.map(() => 1)): FusedRow[] {
  const rows = new Map<string, FusedRow>();
  arms.forEach((arm, a) => {
    arm.slice(0, depth).forEach((id, i) => {
      let r = rows.get(id);
      if (!r) { r = { id, score: 0, ranks: arms.map(() => null) }; rows.set(id, r); }
      if (r.ranks[a] !== null) return; // first occurrence counts
      r.ranks[a] = i + 1;
      r.score += weights[a] / (k + i + 1);
    });
  });
  // Ties: the better best-rank first, then the id, so pages are deterministic.
  const best = (r: FusedRow) => Math.min(...r.ranks.map((x) => x ?? Infinity));
  return [...rows.values()].sort((x, y) => y.score - x.score || best(x) - best(y) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/**
 * How far (in cosine similarity) the best match must stand above the 10th best for the semantic arm to
 * count fully. Measured with the GloVe fixture: 0.15 on a vault of distinct topics queried in paraphrase
 * (where it finds what keywords miss), 0.017 on Cranfield and 0.008 on CISI (where it trails keywords
 * by half); README "Hybrid search" has the figures.
 */
export const FULL_TRUST_GAP = 0.15;

/**
 * The semantic arm's weight (0…1) from its similarities, best first: ((s1 − s10) / FULL_TRUST_GAP)²,
 * capped at 1 (with fewer than 10 rows, the last one stands in for the 10th; a single row, for 0).
 */
export function semanticWeight(similarities: readonly number[]): number {
  const n = similarities.length;
  if (!n) return 0;
  const ref = n >= 10 ? similarities[9] : n > 1 ? similarities[n - 1] : 0;
  const gap = Math.max(0, similarities[0] - ref);
  return Math.min(1, (gap / FULL_TRUST_GAP) ** 2);
}
