// Reads a batch of notes a few at a time ahead of their processing. An index drain that started a
// batch's 32 reads together, then parsed them as they came, ran every parse in one task once reads were
// answered at once (the in-app host reads synchronously): 32 notes' hashing and analysis, 40-70 ms at
// 100k notes. Here at most `ahead` reads are started before the first result is handled, so a host
// with real async reads (the headless one) still overlaps I/O, and the caller can yield between items.

/** Each item with what `read` gave for it, in order; `read` must not reject (return the failure). */
export async function* readAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>, ahead = 4): AsyncGenerator<[T, R], void, void> {
  const started: Promise<R>[] = [];
  let next = 0;
  const fill = (upTo: number) => { while (next < items.length && next < upTo) started.push(read(items[next++])); };
  for (let i = 0; i < items.length; i++) {
    fill(i + ahead);
    yield [items[i], await started[i]];
  }
}

/** What `read` gave for every item, read a few ahead; `pause` after each (a promise to wait on, or null). */
export async function readAllAhead<T, R>(items: readonly T[], read: (item: T) => Promise<R>, pause: () => Promise<void> | null): Promise<R[]> {
  const out: R[] = [];
  for await (const [, r] of readAhead(items, read)) {
    out.push(r);
    const wait = pause();
    if (wait) await wait;
  }
  return out;
}
