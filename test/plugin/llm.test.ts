// The plugin path of summarize: the settings section (src/plugin/llmSettings.ts) rendered against
// the fake obsidian module, the API key kept in the fake SecretStorage and never in the saved
// settings, and the runtime using llmServices(app) (key from SecretStorage, requests through
// requestUrl) to reach the fake backend. src/plugin/llmSettings.ts imports 'obsidian', so a resolve
// hook maps that specifier to test/plugin/fake-obsidian before it is loaded.
// (Once main.ts wires llmServices, plugin.test.ts can cover the same through the built bundle.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { join } from 'node:path';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { LLM_SECRET_ID } from '../../src/llm/settings.js';
import { copyVault, tempDir } from '../helpers/vault.js';
import { connect, call, textOf } from '../helpers/server.js';
import { startFakeLlm, type FakeLlm } from '../llm/fakeLlm.js';

const fakeUrl = new URL('./fake-obsidian/index.ts', import.meta.url).href;
register(`data:text/javascript,${encodeURIComponent(`export async function resolve(s, c, n) { return n(s === 'obsidian' ? ${JSON.stringify(fakeUrl)} : s, c); }`)}`);
type Fake = typeof import('./fake-obsidian/index.js');
const fake = (await import('obsidian' as string)) as Fake;
const { renderLlmSettings, llmServices, LLM_DISCLOSURE } = await import('../../src/plugin/llmSettings.js');

const API_KEY = 'sk-plugin-SECRET-abcdefghijklmnop';
const MCP_KEY = 'vmcp_plugin_llm_key_0123456789abcdef';
let llm: FakeLlm;
before(async () => { llm = await startFakeLlm(); });
after(async () => { await llm.close(); });

function renderTab(app: InstanceType<Fake['App']>, settings: Settings, saved: string[], secrets = true) {
  const el = new fake.FakeElement('div');
  const draw = () => {
    el.empty();
    renderLlmSettings(el as unknown as HTMLElement, {
      app: app as never,
      settings,
      saveSettings: async () => { saved.push(JSON.stringify({ settings })); },
      secrets: secrets ? app.secretStorage : null,
      redisplay: draw,
    });
  };
  draw();
  const find = (name: string) => {
    const s = el.settings().find((x) => x.name === name);
    if (!s) throw new Error(`no setting "${name}": ${el.settings().map((x) => x.name).join(' | ')}`);
    return s;
  };
  return { el, find };
}

test('settings section: disclosure, endpoint/model saved as settings, the key only in SecretStorage', async () => {
  const vault = copyVault();
  const app = new fake.App(vault);
  const settings = withDefaults({ port: 0 });
  const saved: string[] = [];
  const tab = renderTab(app, settings, saved);
  assert.match(tab.el.textContent, /Where note content goes/);
  assert.ok(tab.el.textContent.includes(LLM_DISCLOSURE));

  await tab.find('Endpoint URL').component(fake.TextComponent).change('not a url');
  assert.equal(settings.llmUrl, undefined, 'an invalid URL is not saved');
  await tab.find('Endpoint URL').component(fake.TextComponent).change(llm.url);
  await tab.find('Model').component(fake.TextComponent).change('plugin-model');
  await tab.find('Notes per call').component(fake.TextComponent).change('9');
  assert.equal(settings.llmUrl, llm.url);
  assert.equal(settings.llmModel, 'plugin-model');
  assert.equal(settings.summarizeMaxNotes, 9);

  // The key: a secret the user names and creates with the app's SecretComponent (the guide's way);
  // data.json keeps only its name.
  const picker = tab.find('API key').component(fake.SecretComponent);
  await picker.create('openai-work', API_KEY);
  assert.equal(settings.llmKeySecret, 'openai-work');
  assert.equal(app.secretStorage.getSecret('openai-work'), API_KEY);
  assert.match(tab.find('API key').desc, /Uses the secret "openai-work"/);
  assert.ok(saved.length > 0);
  for (const s of saved) assert.ok(!s.includes(API_KEY) && !s.includes('SECRET'), 'the key never reaches the saved settings');
  assert.ok(!JSON.stringify(settings).includes(API_KEY));

  // The runtime the plugin starts: key from SecretStorage, requests through requestUrl.
  const host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-llm-plugin-'), 'data'), watch: false });
  await host.ready();
  const keys = new KeyStore(host.data);
  keys.addEphemeral(MCP_KEY, 'client', 'read');
  let rt: Runtime | null = null;
  try {
    rt = await startRuntime({ host, settings: () => settings, keys, services: { ...llmServices(app as never, () => settings, fake.requestUrl as never) } });
    const c = await connect(rt.server.url, MCP_KEY);
    try {
      const t = (await c.listTools()).tools.find((x) => x.name === 'summarize');
      assert.match(t?.description ?? '', /At most 9 notes per call/);
      const r = await call(c, 'summarize', { paths: ['People'] });
      assert.equal(r.isError, undefined, textOf(r));
      assert.equal(llm.calls.at(-1)!.headers.authorization, `Bearer ${API_KEY}`);
      assert.equal((r.structuredContent as { notes_included: number }).notes_included, 2);

      // Picking no secret takes effect at the next call, without a restart.
      await tab.find('API key').component(fake.SecretComponent).change('');
      await call(c, 'summarize', { paths: ['Welcome.md'] });
      assert.equal(llm.calls.at(-1)!.headers.authorization, undefined);

      // Clearing the endpoint hides the tool.
      await tab.find('Endpoint URL').component(fake.TextComponent).change('');
      assert.ok(!(await c.listTools()).tools.some((x) => x.name === 'summarize'));
    } finally { await c.close(); }
  } finally {
    await rt?.stop();
    await host.close();
  }
});

test('test connection reports the answer or the redacted failure', async () => {
  const app = new fake.App(copyVault());
  const settings = withDefaults({ llmUrl: llm.url, llmModel: 'm' });
  app.secretStorage.setSecret(LLM_SECRET_ID, API_KEY);
  const tab = renderTab(app, settings, []);
  await tab.find('Test connection').button('Test').click();
  assert.match(tab.find('Test connection').desc, /^Connected: m answered "SUMMARY/);
  llm.fail = { status: 401, body: JSON.stringify({ error: { message: `bad key ${API_KEY}` } }) };
  await tab.find('Test connection').button('Test').click();
  llm.fail = null;
  assert.match(tab.find('Test connection').desc, /^Failed: .*HTTP 401/);
  assert.ok(!tab.find('Test connection').desc.includes(API_KEY));
});

test('a key stored by an older version under the fixed id is used until the user picks another', async () => {
  const app = new fake.App(copyVault());
  const settings = withDefaults({ llmUrl: llm.url, llmModel: 'm' });
  app.secretStorage.setSecret(LLM_SECRET_ID, API_KEY);
  const tab = renderTab(app, settings, []);
  assert.equal(tab.find('API key').component(fake.SecretComponent).getValue(), LLM_SECRET_ID);
  assert.equal(llmServices(app as never, () => settings).llmKey(), API_KEY);
});

test('a secret storage that throws (no keychain): the tab says so, summarize refuses clearly instead of sending no key', async () => {
  const vault = copyVault();
  const app = new fake.App(vault);
  const settings = withDefaults({ port: 0, llmUrl: llm.url, llmModel: 'm', llmKeySecret: 'openai-work' });
  app.secretStorage.unavailable = 'safeStorage: encryption is not available';
  const tab = renderTab(app, settings, []);
  assert.match(tab.find('API key').desc, /secret storage cannot be read here \(safeStorage: encryption is not available\)/);
  // Creating a secret in the app's dialog fails the same way: nothing is saved as the key's name.
  await assert.rejects(tab.find('API key').component(fake.SecretComponent).create('other', 'x'), /encryption is not available/);
  assert.equal(settings.llmKeySecret, 'openai-work');
  // A name picked while the keychain refuses: kept, and a Notice says why it cannot work and what to do.
  const before = fake.notices.length;
  await tab.find('API key').component(fake.SecretComponent).change('openai-home');
  assert.equal(settings.llmKeySecret, 'openai-home');
  const notice = fake.notices.slice(before).map((n) => n.message).join('\n');
  assert.match(notice, /secret storage cannot be used on this computer \(safeStorage: encryption is not available\).*"openai-home"/);
  assert.match(notice, /keyring \(GNOME Keyring or KWallet\)/);
  settings.llmKeySecret = 'openai-work';
  const host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-llm-plugin-'), 'data'), watch: false });
  await host.ready();
  const keys = new KeyStore(host.data);
  keys.addEphemeral(MCP_KEY, 'client', 'read');
  const rt = await startRuntime({ host, settings: () => settings, keys, services: { ...llmServices(app as never, () => settings, fake.requestUrl as never) } });
  const c = await connect(rt.server.url, MCP_KEY);
  try {
    const before = llm.calls.length;
    const r = await call(c, 'summarize', { paths: ['Welcome.md'] });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /"openai-work" could not be read from Obsidian's secret storage.*keyring/);
    assert.equal(llm.calls.length, before, 'no request went out without the key');
  } finally { await c.close(); await rt.stop(); await host.close(); }
});

test('apps without SecretStorage: no key field, a plain explanation', () => {
  const app = new fake.App(copyVault());
  const tab = renderTab(app, withDefaults({}), [], false);
  assert.match(tab.find('API key').desc, /needs Obsidian 1\.11\.4/);
  assert.equal(tab.find('API key').components.length, 0);
});

test('fake SecretStorage behaves like the app: id rules, null when absent', () => {
  const s = new fake.SecretStorage();
  assert.equal(s.getSecret('nope'), null);
  assert.throws(() => s.setSecret('Bad_ID', 'x'));
  s.setSecret('ok-id-1', 'v');
  assert.deepEqual(s.listSecrets(), ['ok-id-1']);
});
