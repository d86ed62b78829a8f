// One file's size and times as both halves of the host port (port.ts, writer.ts) report them.
export interface FileStat {
  path: string;
  size: number;
  mtime: number; // ms since epoch
  ctime: number;
}

/**
 * A FileStat to keep (one per file, in the hosts' file lists). A class, not an object literal: in the
 * long-task bench on Node 20, the literal's objects (four fields) ended up in V8's dictionary mode, a
 * hash table of about 450 bytes each (45 MB at 100k files, all traced by every full collection). A
 * class's instances share a hidden class of its own, whatever other code did to the literals'. The
 * same holds for the change feed's NoteState (changes/feed.ts).
 */
class StatEntry implements FileStat {
  declare path: string;
  declare size: number;
  declare mtime: number;
  declare ctime: number;
  constructor(path: string, size: number, mtime: number, ctime: number) {
    this.path = path;
    this.size = size;
    this.mtime = mtime;
    this.ctime = ctime;
  }
}

export const fileStat = (path: string, size: number, mtime: number, ctime: number): FileStat => new StatEntry(path, size, mtime, ctime);
