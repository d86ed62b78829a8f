// Reciprocal rank fusion (pure): score(d) = Σ over arms 1 / (k + rank_arm(d)), ranks 1-based. Each
// arm contributes its top `depth` rows; a document missing from an arm gets nothing from it.

export interface FusedRow {
  id: string;
  score: number;
  /** 1-based rank in each arm, null when the arm did not return the document. */
  ranks: (number | null)[];
}

export function rrf(arms: string[][], k = 60, depth = 50): FusedRow[] {
  const rows = new Map<string, FusedRow>();
  arms.forEach((arm, a) => {
    arm.slice(0, depth).forEach((id, i) => {
      let r = rows.get(id);
      if (!r) { r = { id, score: 0, ranks: arms.map(() => null) }; rows.set(id, r); }
      if (r.ranks[a] !== null) return; // first occurrence counts
      r.ranks[a] = i + 1;
      r.score += 1 / (k + i + 1);
    });
  });
  // Ties: the better best-rank first, then the id, so pages are deterministic.
  const best = (r: FusedRow) => Math.min(...r.ranks.map((x) => x ?? Infinity));
  return [...rows.values()].sort((x, y) => y.score - x.score || best(x) - best(y) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}
