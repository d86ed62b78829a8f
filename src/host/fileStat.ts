// One file's size and times as both halves of the host port (port.ts, writer.ts) report them.
export interface FileStat {
  path: string;
  size: number;
  mtime: number; // ms since epoch
  ctime: number;
}

/**
 * A FileStat to keep (one per file, in the hosts' file lists). A class, not an object literal: on Node
 * 20, once the file list was built in one pass (the plugin enabled in a running app), every object of
 * the literal was in V8's dictionary mode, a hash table of about 450 bytes (45 MB at 100k files, all
 * traced by every full collection; test/plugin/hidden-classes.test.ts). Why V8 chose it for that site
 * was not pinned down; a class's instances share a hidden class of their own. The change feed's
 * NoteState is a class for the same reason (changes/feed.ts).
 */
class FileStatRecord implements FileStat {
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

export const fileStat = (path: string, size: number, mtime: number, ctime: number): FileStat => new FileStatRecord(path, size, mtime, ctime);
