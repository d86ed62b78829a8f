// UTF-8 decoding of big texts a piece per task: decoding a 10-15 MB state file or change feed in one
// go held the app's UI thread 200-450 ms at 100k notes. (Encoding goes through core/pieceWriter.ts.)
import { nextTurn } from '../core/turns.js';

/** Characters (or bytes) converted per task. */
const PIECE = 1 << 20;

/**
 * `bytes` as UTF-8 text in pieces of about a megabyte, one per task, each ending at a line end (or at the
 * end): for line files read a line at a time. Joining the pieces of a 15-40 MB file into one string was
 * itself a 60-160 ms block at 100k notes. A line longer than a piece stays whole in its piece.
 */
export async function decodeUtf8Lines(bytes: Uint8Array): Promise<string[]> {
  const parts: string[] = [];
  for await (const part of utf8LinePieces(bytes)) parts.push(part);
  return parts;
}

/** decodeUtf8Lines a piece at a time, each decoded when asked for: a reader that keeps nothing of a
 *  piece once read (the change feed's state) does not hold the whole file's text while it reads, and
 *  the collections meanwhile do not copy it (at 100k notes the state's 14 MB of text outlived several). */
export async function* utf8LinePieces(bytes: Uint8Array): AsyncGenerator<string, void> {
  const decoder = new TextDecoder();
  for (let at = 0; at < bytes.length;) {
    let end = Math.min(bytes.length, at + PIECE);
    if (end < bytes.length) {
      // 0x0A is never part of a multi-byte character, so a cut after it is a character boundary too.
      const nl = bytes.lastIndexOf(0x0a, end - 1);
      end = nl >= at ? nl + 1 : bytes.indexOf(0x0a, end) + 1 || bytes.length;
    }
    const part = decoder.decode(bytes.subarray(at, end));
    at = end;
    yield part;
    if (at < bytes.length) await nextTurn();
  }
}
