// Pure post-processing of the encoder output, shared by the in-thread embedder (embedder.ts) and the
// inference worker (embedWorker.ts), which must not import node:fs.

/** Mean over unmasked tokens, then L2 normalisation: [batch, seq, dim] → [batch, dim]. */
export function meanPoolNormalize(h: Float32Array, dims: number[], mask: BigInt64Array | ArrayLike<number | bigint>): Float32Array {
  const [b, seq, d] = dims;
  const out = new Float32Array(b * d);
  const m = new Float32Array(b * seq);
  for (let i = 0; i < m.length; i++) m[i] = Number(mask[i]);
  for (let i = 0; i < b; i++) {
    const o = i * d;
    let count = 0;
    for (let j = 0; j < seq; j++) {
      const w = m[i * seq + j];
      if (!w) continue;
      count += w;
      const base = (i * seq + j) * d;
      for (let k = 0; k < d; k++) out[o + k] += h[base + k] * w;
    }
    let norm = 0;
    for (let k = 0; k < d; k++) { const x = out[o + k] / (count || 1); out[o + k] = x; norm += x * x; }
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < d; k++) out[o + k] /= norm;
  }
  return out;
}
