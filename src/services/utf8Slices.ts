// UTF-8 conversion of big texts a piece per task: decoding or encoding a 10-15 MB state file or change
// feed in one go held the app's UI thread 200-450 ms at 100k notes.
import { nextTurn } from '../core/turns.js';

/** Characters (or bytes) converted per task. */
const PIECE = 1 << 20;

/**
 * `bytes` as UTF-8 text in pieces of about a megabyte, one per task, each ending at a line end (or at the
 * end): for line files read a line at a time. Joining the pieces of a 15-40 MB file into one string was
 * itself a 60-160 ms block at 100k notes. A line longer than a piece stays whole in its piece.
 */
export async function decodeUtf8Lines(bytes: Uint8Array): Promise<string[]> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for (let at = 0; at < bytes.length;) {
    let end = Math.min(bytes.length, at + PIECE);
    if (end < bytes.length) {
      // 0x0A is never part of a multi-byte character, so a cut after it is a character boundary too.
      const nl = bytes.lastIndexOf(0x0a, end - 1);
      end = nl >= at ? nl + 1 : bytes.indexOf(0x0a, end) + 1 || bytes.length;
    }
    parts.push(decoder.decode(bytes.subarray(at, end)));
    at = end;
    if (at < bytes.length) await nextTurn();
  }
  return parts;
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
    if (at < text.length) await nextTurn();
  }
}
