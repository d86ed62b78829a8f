// The data store's file calls through Node's callback API, promisified. Each fs.promises call makes an
// ArrayBuffer of its own (Node keeps a stats array per promise request), and while the heap's external
// memory is over V8's limit every new ArrayBuffer runs a marking step of 5-10 ms in the task that made
// it: at 100k notes that was most of a save's long blocks (bench/perf-blocks.mjs). Callback requests
// share one stats array.
import { close, fstat, fsync, ftruncate, mkdir, open, rename, write } from 'node:fs';
import { promisify } from 'node:util';

export const openFile = promisify(open);
export const closeFile = promisify(close);
export const syncFile = promisify(fsync);
export const truncateFile = promisify(ftruncate);
export const renameFile = promisify(rename);
const mkdirP = promisify(mkdir);
export const makeFolder = (path: string) => mkdirP(path, { recursive: true });
const fstatP = promisify(fstat);
export const sizeOf = async (fd: number) => (await fstatP(fd)).size;
const writeP = promisify(write);

/** Writes all of `bytes` at the file's position (a write may take fewer bytes than it was given). */
export async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += (await writeP(fd, bytes, at, bytes.length - at, null)).bytesWritten;
}
