// The "Summaries (language model)" section of the settings tab, and the two services the plugin
// hands to startRuntime for summarize:
//   - llmKey: the API key, read at each call from Obsidian's SecretStorage (app.secretStorage,
//     Obsidian 1.11.4+), never from data.json;
//   - llmTransport: Obsidian's requestUrl, which is not subject to CORS (local Ollama / LM Studio
//     servers usually refuse the app://obsidian.md origin a renderer fetch would send). It cannot be
//     aborted, so the client races it against the time limit. No streaming is needed.
// Wiring (src/main.ts):  startRuntime({ ..., services: { ...llmServices(this.app) } })
// and in the settings tab's display():  renderLlmSettings(el, { settings, saveSettings, secrets: app.secretStorage ?? null, redisplay })
import { Notice, Setting, requestUrl, type App } from 'obsidian';
import type { Settings } from '../core/settings.js';
import { LLM_DEFAULTS, LLM_SECRET_ID, llmSettings } from '../llm/settings.js';
import { chat, chatCompletionsUrl, endpointDisplay, LlmError } from '../llm/client.js';
import { requestUrlTransport, type RequestUrlFn, type Transport } from '../llm/transport.js';

/** The part of Obsidian's SecretStorage used here (obsidian.d.ts, since 1.11.4). */
export interface SecretStorageLike {
  setSecret(id: string, secret: string): void;
  getSecret(id: string): string | null;
}

export interface LlmSettingsController {
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

/** deps.services entries for startRuntime: the key from SecretStorage, requests through requestUrl. */
export function llmServices(app: App, request: RequestUrlFn = requestUrl as unknown as RequestUrlFn): { llmKey: () => string | undefined; llmTransport: Transport } {
  return {
    llmKey: () => secretsOf(app)?.getSecret(LLM_SECRET_ID) || undefined,
    llmTransport: requestUrlTransport(request),
  };
}

function validUrl(v: string): boolean {
  if (v === '') return true;
  try { chatCompletionsUrl(v); return true; } catch { return false; }
}

export function renderLlmSettings(el: HTMLElement, c: LlmSettingsController, request: RequestUrlFn = requestUrl as unknown as RequestUrlFn): void {
  const s = llmSettings(c.settings);
  const set = async (patch: Partial<Settings>) => { Object.assign(c.settings, patch); await c.saveSettings(); };

  new Setting(el).setName('Summaries (language model)').setHeading();
  el.createEl('p', { text: LLM_DISCLOSURE, cls: 'setting-item-description' });

  const urlSetting = new Setting(el).setName('Endpoint URL')
    .setDesc('An OpenAI-compatible API base URL, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama). Empty = summaries off.')
    .addText((t) => t.setPlaceholder('http://localhost:11434/v1').setValue(s.llmUrl).onChange(async (v) => {
      const url = v.trim();
      if (!validUrl(url)) { urlSetting.setDesc('Not an http(s) URL yet; the previous endpoint is kept.'); return; }
      urlSetting.setDesc(url ? `Requests go to ${endpointDisplay(chatCompletionsUrl(url))}.` : 'Empty: summaries are off.');
      await set({ llmUrl: url });
    }));
  new Setting(el).setName('Model').setDesc('The model name at that endpoint, e.g. gpt-4o-mini or llama3.1:8b.')
    .addText((t) => t.setPlaceholder('llama3.1:8b').setValue(s.llmModel).onChange(async (v) => set({ llmModel: v.trim() })));

  const secrets = c.secrets;
  const stored = () => !!secrets?.getSecret(LLM_SECRET_ID);
  const keySetting = new Setting(el).setName('API key');
  if (!secrets) {
    keySetting.setDesc('Storing a key needs Obsidian 1.11.4 or later (secret storage). Local servers that need no key (Ollama, LM Studio) still work.');
  } else {
    let typed = '';
    keySetting.setDesc(stored() ? 'A key is stored in Obsidian\'s secret storage.' : 'No key stored (local servers usually need none).')
      .addText((t) => {
        (t.inputEl as HTMLInputElement).type = 'password';
        t.setPlaceholder(stored() ? '•••••••• (stored)' : 'sk-…').onChange((v) => { typed = v.trim(); });
      })
      .addButton((b) => b.setButtonText('Save key').setCta().onClick(() => {
        if (!typed) { new Notice('Type the API key first.'); return; }
        secrets.setSecret(LLM_SECRET_ID, typed);
        typed = '';
        new Notice('API key saved in Obsidian\'s secret storage.');
        c.redisplay();
      }))
      .addButton((b) => b.setButtonText('Remove key').onClick(() => {
        secrets.setSecret(LLM_SECRET_ID, '');
        new Notice('API key removed.');
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

  const testSetting = new Setting(el).setName('Test connection').setDesc('Sends one short request ("Reply with OK"; no note content) to the endpoint.');
  testSetting.addButton((b) => b.setButtonText('Test').onClick(async () => {
    const now = llmSettings(c.settings);
    if (!now.llmUrl || !now.llmModel) { new Notice('Set the endpoint URL and the model first.'); return; }
    b.setDisabled(true);
    try {
      const r = await chat({ url: now.llmUrl, model: now.llmModel, apiKey: secrets?.getSecret(LLM_SECRET_ID) || undefined, timeoutMs: Math.min(now.llmTimeoutS, 30) * 1000, maxOutputTokens: 16 },
        [{ role: 'user', content: 'Reply with OK.' }], { transport: requestUrlTransport(request) });
      testSetting.setDesc(`Connected: ${now.llmModel} answered "${r.text.slice(0, 60)}".`);
    } catch (e) {
      testSetting.setDesc(`Failed: ${e instanceof LlmError ? e.message : (e as Error).message}`);
    } finally {
      b.setDisabled(false);
    }
  }));
}
