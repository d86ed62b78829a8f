// Polling for tests whose subject works on its own timers (a command's async work, a delayed save).

/** Polls `cond` (sync or async) every 10 ms until it holds; throws naming `what` after `ms`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
