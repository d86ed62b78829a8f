// The "Summaries (language model)" section of the settings tab, and the two services the plugin
// hands to startRuntime for summarize:
//   - llmKey: the API key, read at each call from Obsidian's SecretStorage (app.secretStorage,
//     Obsidian 1.11.4+) under the secret name the user picked with the app's SecretComponent (the
//     secret-storage guide's way: one named secret can serve several plugins); data.json holds only
//     that name (llmKeySecret), never the key;
//   - llmTransport: Obsidian's requestUrl, which is not subject to CORS (local Ollama / LM Studio
//     servers usually refuse the app://obsidian.md origin a renderer fetch would send). It cannot be
//     aborted, so the client races it against the time limit. No streaming is needed.
// Wiring (src/main.ts):  startRuntime({ ..., services: { ...llmServices(this.app, () => this.settings) } })
// and in the settings tab:  renderLlmSettings(el, { app, settings, saveSettings, secrets: secretsOf(app), redisplay })
import { Notice, SecretComponent, Setting, requestUrl, type App } from 'obsidian';
import type { Settings } from '../core/settings.js';
import { Refusal } from '../core/errors.js';
import { LLM_DEFAULTS, LLM_SECRET_ID, llmSettings } from '../llm/settings.js';
import { chat, chatCompletionsUrl, endpointDisplay, LlmError } from '../llm/client.js';
import { requestUrlTransport, type RequestUrlFn, type Transport } from '../llm/transport.js';

/** The part of Obsidian's SecretStorage used here (obsidian.d.ts, since 1.11.4). */
export interface SecretStorageLike {
  setSecret(id: string, secret: string): void;
  getSecret(id: string): string | null;
}

export interface LlmSettingsController {
  app: App;
  settings: Settings;
  saveSettings(): Promise<void>;
  /** app.secretStorage, or null on apps older than 1.11.4 (then no key can be stored). */
  secrets: SecretStorageLike | null;
  redisplay(): void;
}

export const LLM_DISCLOSURE =
  'Where note content goes: when an MCP client calls summarize, the full text of the notes it selects is sent to the ' +
  'endpoint below — a service on the internet such as OpenAI (under that provider\'s terms), or a model running on this ' +
  'computer such as Ollama (http://localhost:11434/v1) or LM Studio, in which case nothing leaves the machine. Nothing is ' +
  'sent until both an endpoint and a model are set; while either is empty the summarize tool is not offered. The API key ' +
  'is kept in Obsidian\'s secret storage, not in this plugin\'s data.json.';

export function secretsOf(app: App): SecretStorageLike | null {
  const s = (app as unknown as { secretStorage?: SecretStorageLike }).secretStorage;
  return s && typeof s.getSecret === 'function' ? s : null;
}

/** The name of the secret holding the LLM key: the one the user picked, else the id older versions
 *  stored the key under (when it is there), else none. */
export function llmSecretName(s: Settings, secrets: SecretStorageLike | null): string {
  if (typeof s.llmKeySecret === 'string') return s.llmKeySecret;
  try { return secrets?.getSecret(LLM_SECRET_ID) ? LLM_SECRET_ID : ''; } catch { return ''; }
}

/** The key under that name; a keychain that cannot be read (some Linux desktops have none) is a
 *  clear refusal, not an unauthenticated request. */
export function readLlmKey(s: Settings, secrets: SecretStorageLike | null): string | undefined {
  const name = llmSecretName(s, secrets);
  if (!name || !secrets) return undefined;
  try {
    return secrets.getSecret(name) || undefined;
  } catch (e) {
    throw new Refusal('unavailable', `The LLM API key "${name}" could not be read from Obsidian's secret storage (${(e as Error).message}). On Linux this needs a keyring (GNOME Keyring or KWallet); pick another secret in Settings → Vault MCP Server → API key, or use a local model server that needs no key.`);
  }
}

/** deps.services entries for startRuntime: the key from SecretStorage, requests through requestUrl. */
export function llmServices(app: App, settings: () => Settings, request: RequestUrlFn = requestUrl): { llmKey: () => string | undefined; llmTransport: Transport } {
  return {
    llmKey: () => readLlmKey(settings(), secretsOf(app)),
    llmTransport: requestUrlTransport(request),
  };
}

/** Why the secret just picked cannot be used, when the OS keychain refuses (no keyring on some Linux
 *  desktops: the app cannot store or read any secret); null when it can be read. */
export function storageProblem(secrets: SecretStorageLike, name: string): string | null {
  if (!name) return null;
  try { secrets.getSecret(name); return null; } catch (e) {
    return `Vault MCP Server: Obsidian's secret storage cannot be used on this computer (${(e as Error).message}), so the API key "${name}" cannot be stored or read. On Linux this needs a keyring (GNOME Keyring or KWallet) unlocked at login; until then summarize refuses instead of calling the endpoint without a key. Local servers that need no key (Ollama, LM Studio) keep working: leave the API key empty for them.`;
  }
}

function validUrl(v: string): boolean {
  if (v === '') return true;
  try { chatCompletionsUrl(v); return true; } catch { return false; }
}

export function renderLlmSettings(el: HTMLElement, c: LlmSettingsController, request: RequestUrlFn = requestUrl): void {
  const s = llmSettings(c.settings);
  const set = async (patch: Partial<Settings>) => { Object.assign(c.settings, patch); await c.saveSettings(); };

  new Setting(el).setName('Summaries (language model)').setHeading();
  el.createEl('p', { text: LLM_DISCLOSURE, cls: 'setting-item-description' });

  const urlSetting = new Setting(el).setName('Endpoint URL')
    .setDesc('An OpenAI-compatible API base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama). Empty = summaries off.')
    .addText((t) => t.setPlaceholder('http://localhost:11434/v1').setValue(s.llmUrl).onChange(async (v) => {
      const url = v.trim();
      if (!validUrl(url)) { urlSetting.setDesc('Not an HTTP or HTTPS URL yet; the previous endpoint is kept.'); return; }
      urlSetting.setDesc(url ? `Requests go to ${endpointDisplay(chatCompletionsUrl(url))}.` : 'Empty: summaries are off.');
      await set({ llmUrl: url });
    }));
  new Setting(el).setName('Model').setDesc('The model name as that endpoint spells it, for example llama3.1:8b for Ollama.')
    .addText((t) => t.setPlaceholder('llama3.1:8b').setValue(s.llmModel).onChange(async (v) => set({ llmModel: v.trim() })));

  const secrets = c.secrets;
  const keySetting = new Setting(el).setName('API key');
  if (!secrets) {
    keySetting.setDesc('Storing a key needs Obsidian 1.11.4 or later (secret storage). Local servers that need no key (Ollama, LM Studio) still work.');
  } else {
    const name = llmSecretName(c.settings, secrets);
    let problem = '';
    try { if (name && !secrets.getSecret(name)) problem = ` No secret named "${name}" is stored yet.`; } catch (e) { problem = ` Obsidian's secret storage cannot be read here (${(e as Error).message}).`; }
    keySetting.setDesc((name ? `Uses the secret "${name}" from Obsidian's secret storage (Settings → Keychain).` : 'Pick or create a secret in Obsidian\'s secret storage; local servers usually need none.') + problem)
      .addComponent((cel) => new SecretComponent(c.app, cel).setValue(name).onChange(async (v) => {
        await set({ llmKeySecret: v });
        const problem = storageProblem(secrets, v);
        if (problem) new Notice(problem, 15_000);
        c.redisplay();
      }));
  }

  const intSetting = (name: string, desc: string, key: 'summarizeMaxNotes' | 'summarizeBatchChars' | 'llmTimeoutS' | 'llmMaxOutputTokens', min: number, max: number) =>
    new Setting(el).setName(name).setDesc(desc).addText((t) => t.setPlaceholder(String(LLM_DEFAULTS[key])).setValue(String(s[key])).onChange(async (v) => {
      const n = Number(v.trim());
      if (Number.isInteger(n) && n >= min && n <= max) await set({ [key]: n });
    }));
  intSetting('Notes per call', 'Most notes one summarize call covers; agents are told this number and split larger folders.', 'summarizeMaxNotes', 1, 1000);
  intSetting('Characters per request', 'Input packed into one request; more notes are summarised in batches and combined, and a longer note is cut. Keep it within your model\'s context (about 4 characters per token).', 'summarizeBatchChars', 1000, 2_000_000);
  intSetting('Time limit (seconds)', 'How long one request may take before the call is refused with summarize_timeout.', 'llmTimeoutS', 5, 3600);
  intSetting('Answer length (tokens)', 'max_tokens of each answer.', 'llmMaxOutputTokens', 64, 100_000);

  const testSetting = new Setting(el).setName('Test connection').setDesc('Sends one short request asking for OK (no note content) to the endpoint.');
  testSetting.addButton((b) => b.setButtonText('Test').onClick(async () => {
    const now = llmSettings(c.settings);
    if (!now.llmUrl || !now.llmModel) { new Notice('Set the endpoint URL and the model first.'); return; }
    b.setDisabled(true);
    try {
      const r = await chat({ url: now.llmUrl, model: now.llmModel, apiKey: readLlmKey(c.settings, secrets), timeoutMs: Math.min(now.llmTimeoutS, 30) * 1000, maxOutputTokens: 16 },
        [{ role: 'user', content: 'Reply with OK.' }], { transport: requestUrlTransport(request) });
      testSetting.setDesc(`Connected: ${now.llmModel} answered "${r.text.slice(0, 60)}".`);
    } catch (e) {
      testSetting.setDesc(`Failed: ${e instanceof LlmError ? e.message : (e as Error).message}`);
    } finally {
      b.setDisabled(false);
    }
  }));
}
