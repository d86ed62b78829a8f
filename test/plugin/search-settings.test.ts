// Keyword-search settings: the settings-tab section (src/plugin/searchSettings.ts, rendered against the
// fake obsidian module), the CLI flag rows and their string values, and a change rebuilding the index
// with the new tokenization (src/search/service.ts) instead of mixing two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { withDefaults } from '../../src/settings.js';
import { KeywordService } from '../../src/search/service.js';
import { keywordSettings } from '../../src/search/settings.js';
import { settingFlags } from '../../src/cli/flags.js';
import { tempDir } from '../helpers/vault.js';

const fakeUrl = new URL('./fake-obsidian/index.ts', import.meta.url).href;
register(`data:text/javascript,${encodeURIComponent(`export async function resolve(s, c, n) { return n(s === 'obsidian' ? ${JSON.stringify(fakeUrl)} : s, c); }`)}`);
type Fake = typeof import('./fake-obsidian/index.js');
const fake = (await import('obsidian' as string)) as Fake;
const { renderSearchSettings } = await import('../../src/plugin/searchSettings.js');

test('CLI flags --keyword-stemming / --keyword-stop-words exist and their strings are understood', () => {
  const stem = settingFlags.find((f) => f.flag === 'keyword-stemming');
  const stop = settingFlags.find((f) => f.flag === 'keyword-stop-words');
  assert.equal(stem?.key, 'keywordStemming');
  assert.equal(stem?.kind, 'list');
  assert.equal(stop?.key, 'keywordStopWords');
  assert.deepEqual(keywordSettings(withDefaults({ keywordStemming: ['none'] })).keywordStemming, []);
  assert.deepEqual(keywordSettings(withDefaults({ keywordStemming: 'English, german' as unknown as string[] })).keywordStemming, ['english', 'german']);
  assert.equal(keywordSettings(withDefaults({ keywordStopWords: 'off' as unknown as boolean })).keywordStopWords, false);
  assert.equal(keywordSettings(withDefaults({ keywordStopWords: 'on' as unknown as boolean })).keywordStopWords, true);
  assert.equal(keywordSettings(withDefaults({})).keywordStopWords, true);
});

test('the settings section saves stemming / stop words and the running index is rebuilt with them', async () => {
  const dir = join(tempDir('vmcp-kwset-'), 'vault');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.md'), 'running quickly over the hills\n');
  const host = new NodeHost(dir, { dataDir: join(tempDir(), 'data'), watch: false });
  const settings = withDefaults({});
  const svc = new KeywordService({ host, settings: () => settings, debounceMs: 5, saveDelayMs: 10 });
  await svc.ready();
  const paths = async (q: string) => (await svc.search(q)).hits.map((h) => h.path);
  try {
    assert.deepEqual(await paths('runs'), ['a.md'], 'stemmed by default');
    assert.deepEqual(await paths('the'), [], 'stop word dropped from the body');
    const el = new fake.FakeElement('div');
    let saves = 0;
    renderSearchSettings(el as unknown as HTMLElement, { settings, saveSettings: async () => { saves++; }, keyword: () => svc });
    const find = (name: string) => {
      const s = el.settings().find((x) => x.name === name);
      if (!s) throw new Error(`no setting "${name}": ${el.settings().map((x) => x.name).join(' | ')}`);
      return s;
    };
    assert.ok(el.settings().some((x) => x.name === 'Keyword search'));
    const langs = find('Stemming languages').component(fake.TextComponent);
    assert.equal(langs.getValue(), 'english');
    await langs.change('none, klingon');
    assert.deepEqual(settings.keywordStemming, ['klingon']);
    assert.match(el.textContent, /Unknown stemming language\(s\): klingon/);
    await find('Drop stop words').component(fake.ToggleComponent).change(false);
    assert.equal(settings.keywordStopWords, false);
    assert.ok(saves >= 2);
    // The toggle told the service at once: it is rebuilding with the new tokenization.
    await svc.flush();
    assert.deepEqual(await paths('runs'), [], 'no stemming any more');
    assert.deepEqual(await paths('running'), ['a.md']);
    assert.deepEqual(await paths('the'), ['a.md'], 'stop words are indexed now');
    assert.match(svc.status().detail ?? '', /unknown stemming language\(s\): klingon/);
  } finally {
    await svc.stop();
    await host.close();
  }
});
