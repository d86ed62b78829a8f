// Real Chromium for the browser tests (Debian's `chromium`, driven by puppeteer-core; `.ci/run` installs
// it with apt when it is missing). Tests skip with the reason from `chromiumMissing()` when no browser
// is found. Launch flags: headless, no sandbox (CI runs as root), and every background service off, so
// the browser makes no connection of its own on this machine's closed network.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'puppeteer-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

/** The browser binary: $CHROMIUM_PATH, else the first of Debian's/Google's usual paths that exists. */
export function chromiumPath(): string | null {
  const env = process.env.CHROMIUM_PATH;
  if (env) return existsSync(env) ? env : null;
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

/** undefined when a browser is there, else why the test is skipped (node:test prints it). */
export function chromiumMissing(): string | undefined {
  try { createRequire(import.meta.url).resolve('puppeteer-core'); } catch { return 'puppeteer-core is not installed (run npm install)'; }
  if (chromiumPath()) return undefined;
  return `no Chromium found (${process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist` : `looked for ${CANDIDATES.join(', ')}`}); install it with "apt-get install chromium" (.ci/run does) or set CHROMIUM_PATH`;
}

export const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--disable-default-apps', '--disable-extensions', '--mute-audio',
  '--hide-scrollbars', '--font-render-hinting=none',
];

export interface Chromium { browser: Browser; close(): Promise<void> }

/** A fresh browser with a new empty profile (removed on close). */
export async function launchChromium(): Promise<Chromium> {
  const path = chromiumPath();
  if (!path) throw new Error(chromiumMissing());
  const { default: puppeteer } = await import('puppeteer-core');
  const profile = mkdtempSync(join(tmpdir(), 'vmcp-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: path,
    headless: true,
    // Our flags only: puppeteer's defaults would add a second --headless and a profile of its own.
    ignoreDefaultArgs: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, 'about:blank'],
    pipe: true,
    protocolTimeout: 120_000,
  });
  return {
    browser,
    close: async () => {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A loopback HTTP server answering every request with `page` (one route) and counting requests, so a
 *  test can show the page and its worker fetched nothing else. */
export async function servePage(page: { html: string; csp: string; files?: Record<string, { type: string; body: string | Buffer }> }): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push(path);
    const file = path === '/' ? { type: 'text/html; charset=utf-8', body: page.html } : page.files?.[path];
    if (!file) { res.writeHead(path === '/favicon.ico' ? 204 : 404).end(); return; }
    res.writeHead(200, { 'content-type': file.type, 'content-security-policy': page.csp, 'cache-control': 'no-store' });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
