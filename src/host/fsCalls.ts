// The data store's file calls through Node's callback API, as promises. Each fs.promises call makes an
// ArrayBuffer of its own (Node keeps a stats array per promise request), and while the heap's external
// memory is over V8's limit every new ArrayBuffer runs a marking step of 5-10 ms in the task that made
// it: at 100k notes that was most of a save's long blocks (bench/perf-blocks.mjs). Callback requests
// share one stats array.
import { close, fstat, fsync, ftruncate, mkdir, open, rename, write } from 'node:fs';

type Done<T> = (e: NodeJS.ErrnoException | null, v: T) => void;
const call = <T>(start: (done: Done<T>) => void) => new Promise<T>((resolve, reject) => start((e, v) => (e ? reject(e) : resolve(v))));

export const openFile = (path: string, flags: string, mode?: number) => call<number>((d) => open(path, flags, mode, d));
export const closeFile = (fd: number) => call<void>((d) => close(fd, (e) => d(e, undefined)));
export const syncFile = (fd: number) => call<void>((d) => fsync(fd, (e) => d(e, undefined)));
export const truncateFile = (fd: number, size: number) => call<void>((d) => ftruncate(fd, size, (e) => d(e, undefined)));
export const renameFile = (from: string, to: string) => call<void>((d) => rename(from, to, (e) => d(e, undefined)));
export const makeFolder = (path: string) => call<void>((d) => mkdir(path, { recursive: true }, (e) => d(e, undefined)));
export const sizeOf = (fd: number) => call<number>((d) => fstat(fd, (e, st) => d(e, st?.size ?? 0)));

/** Writes all of `bytes` at the file's position (a write may take fewer bytes than it was given). */
export async function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    at += await call<number>((d) => write(fd, bytes, at, bytes.length - at, null, d));
  }
}
