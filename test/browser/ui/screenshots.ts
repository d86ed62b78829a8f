// `npm run screenshots`: the settings tab, the key dialog (a key just created: shown once), the per-key
// restrictions, the status bar and the MCP activity view, rendered in Chromium from a real plugin run
// (ui/record.ts) in the light and dark themes, written to docs/screenshots/*.png.
// For the pictures only: the port reads 27200 instead of the run's random one, the cache folder is shown
// where Obsidian's data folder is on Linux instead of the run's temporary one, and the activity chart's
// earlier 13 days are seeded counters (today's bars and every table row are the run's real calls).
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ElementHandle } from 'puppeteer-core';
import { REPO } from '../../helpers/paths.js';
import { unloadAll } from '../../plugin/harness.js';
import { chromiumMissing, launchChromium } from '../chromium.js';
import { recordPluginRun } from './record.js';
import { mount, openUiPage, type Theme } from './render.js';
import type { UiSnapshot } from './snapshot.js';

const OUT = join(REPO, 'docs/screenshots');
const PORT = 27200;

function forPictures(s: UiSnapshot): UiSnapshot {
  const real = s.state.kind === 'on' ? s.state.port : PORT;
  const swap = (t: string) => t.split(`:${real}/`).join(`:${PORT}/`);
  // The cache folder as Obsidian's data folder on Linux names it, not the run's temporary one.
  const cacheDir = s.cacheDir ? `/home/you/.config/obsidian/vault-mcp-server/${basename(s.cacheDir)}` : undefined;
  return { ...s, settings: { ...s.settings, port: PORT }, state: { kind: 'on', port: PORT }, connectUrl: swap(s.connectUrl), cacheDir };
}

async function shot(el: ElementHandle | null, file: string): Promise<void> {
  if (!el) throw new Error(`nothing to capture for ${file}`);
  await el.screenshot({ path: join(OUT, file) as `${string}.png` });
  console.log(`wrote docs/screenshots/${file}`);
}

async function main(): Promise<void> {
  const why = chromiumMissing();
  if (why) { console.error(why); process.exit(1); }
  mkdirSync(OUT, { recursive: true });
  const snap = forPictures((await recordPluginRun({ seedDays: true })).snapshot);
  await unloadAll();
  const chromium = await launchChromium();
  try {
    for (const theme of ['light', 'dark'] as Theme[]) {
      // Settings: the server section and the keys, with a key just created (the once-shown key box).
      let p = await openUiPage(chromium, theme, 1100);
      await mount(p, 'settings', snap, { createKey: { name: 'cursor', scope: 'read' } });
      await p.page.evaluate(() => {
        // Capture down to the "Create key" row: the key box and the sections below get their own pictures.
        const tab = document.querySelector('.vertical-tab-content') as HTMLElement;
        const box = tab.querySelector('.vmcp-new-key') as HTMLElement;
        document.body.dataset.cut = String(box.getBoundingClientRect().top - tab.getBoundingClientRect().top - 4);
      });
      const cut = Number(await p.page.evaluate(() => document.body.dataset.cut));
      const modal = await p.page.$('.modal.mod-settings');
      const box = (await modal!.boundingBox())!;
      await p.page.screenshot({ path: join(OUT, `settings-${theme}.png`) as `${string}.png`, clip: { x: box.x, y: box.y, width: box.width, height: cut } });
      console.log(`wrote docs/screenshots/settings-${theme}.png`);
      await shot(await p.page.$('.vmcp-new-key'), `key-dialog-${theme}.png`);
      await shot(await p.page.$('.vmcp-key-limits[data-key="research-agent"]'), `key-restrictions-${theme}.png`);
      await p.close();

      p = await openUiPage(chromium, theme, 560);
      await mount(p, 'activity', snap);
      await shot(await p.page.$('.workspace-leaf-content'), `activity-${theme}.png`);
      await p.close();

      p = await openUiPage(chromium, theme, 640);
      await mount(p, 'statusBar', snap, [
        { state: { kind: 'on', port: PORT }, statuses: [] },
        { state: { kind: 'on', port: PORT }, statuses: [{ name: 'keyword', state: 'building', indexed: 2400, pending: 4171 }] },
        { state: { kind: 'port-busy', port: PORT } },
        { state: { kind: 'off' } },
      ]);
      await p.page.evaluate(() => document.body.classList.add('vmcp-shot-stack'));
      await shot(await p.page.$('body'), `status-bar-${theme}.png`);
      await p.close();
    }
  } finally { await chromium.close(); }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });
