// Opens the render page in Chromium: the app's theme variables and base styles (../obsidian-theme.css),
// then the plugin's styles.css, then the bundled UI (ui/app.ts), served from loopback under a CSP
// (scripts only from the page's origin, no network). `mount` runs one of window.vmcpUi's renderers.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { REPO } from '../../helpers/paths.js';
import { servePage, type Chromium } from '../chromium.js';
import { uiBundle } from './bundle.js';
import type { UiSnapshot } from './snapshot.js';

const here = dirname(fileURLToPath(import.meta.url));
export const UI_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

export type Theme = 'light' | 'dark';

export interface UiPage { page: Page; errors: string[]; close(): Promise<void> }

export async function openUiPage(chromium: Chromium, theme: Theme, width = 1100): Promise<UiPage> {
  const served = await servePage({
    csp: UI_CSP,
    html: `<!doctype html><html><head><meta charset="utf-8"><title>Vault MCP Server UI</title>
<link rel="stylesheet" href="/app.css"><link rel="stylesheet" href="/styles.css"></head>
<body class="theme-${theme}"><script src="/ui.js"></script></body></html>`,
    files: {
      '/app.css': { type: 'text/css', body: readFileSync(join(here, '../obsidian-theme.css'), 'utf8') },
      '/styles.css': { type: 'text/css', body: readFileSync(join(REPO, 'styles.css'), 'utf8') },
      '/ui.js': { type: 'text/javascript', body: await uiBundle() },
    },
  });
  const page = await chromium.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String((e as Error).message ?? e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.setViewport({ width, height: 900, deviceScaleFactor: 1 });
  await page.goto(served.url, { waitUntil: 'load' });
  await page.waitForFunction('typeof window.vmcpUi === "object"');
  return { page, errors, close: async () => { await page.close(); await served.close(); } };
}

/** Runs vmcpUi[what](snapshot, ...args) in the page; resolves with what it returns. */
export function mount(p: UiPage, what: 'settings' | 'activity' | 'statusBar', snap: UiSnapshot, ...args: unknown[]): Promise<{ calls: string[]; notices: string[] }> {
  return p.page.evaluate((w: string, s: unknown, a: unknown[]) => (window as unknown as { vmcpUi: Record<string, (...x: unknown[]) => unknown> }).vmcpUi[w](s, ...a), what, snap as unknown, args) as Promise<{ calls: string[]; notices: string[] }>;
}
