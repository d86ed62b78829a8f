// One file's size and times as both halves of the host port (port.ts, writer.ts) report them.
export interface FileStat {
  path: string;
  size: number;
  mtime: number; // ms since epoch
  ctime: number;
}
