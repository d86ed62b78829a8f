// Unsigned LEB128 varints: the keyword index's posting lists (search/postings.ts) and its file
// (written through core/pieceWriter.ts) store gaps and term frequencies this way.

/** Bytes of a varint. */
export function varintSize(v: number): number {
  let n = 1;
  while (v >= 128) { v = Math.floor(v / 128); n++; }
  return n;
}

/** Writes a varint at `at`; returns the offset after it. */
export function putVarint(b: Uint8Array, at: number, v: number): number {
  while (v >= 128) { b[at++] = (v & 127) | 128; v = Math.floor(v / 128); }
  b[at++] = v;
  return at;
}
