// UTF-8 conversion of big texts a piece per task: decoding or encoding a 10-15 MB state file or change
// feed in one go held the app's UI thread 200-450 ms at 100k notes.
import { setTimeout } from 'node:timers';

/** Characters (or bytes) converted per task. */
const PIECE = 1 << 20;

const turn = () => new Promise<void>((r) => setTimeout(r, 0));

/** `bytes` as UTF-8 text, a megabyte per task. */
export async function decodeUtf8Sliced(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= PIECE) return new TextDecoder().decode(bytes);
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE) {
    const end = Math.min(bytes.length, at + PIECE);
    // stream: a character split between two pieces is completed by the next one.
    parts.push(decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length }));
    if (end < bytes.length) await turn();
  }
  return parts.join('');
}

/** `text` as UTF-8 pieces of about a megabyte, one per task; a surrogate pair is never split. */
export async function* encodeUtf8Pieces(text: string): AsyncGenerator<Uint8Array, void, void> {
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PIECE);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--; // keep a high surrogate with its pair
    yield encoder.encode(text.slice(at, end));
    at = end;
    if (at < text.length) await turn();
  }
}
