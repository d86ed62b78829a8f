// The "Semantic search" section of the settings tab (called by settingsTab.ts display()):
// model choice and the explicit download (with the network disclosure the Obsidian developer
// policies ask for), query prefix, chunking, skip globs, pause/resume and live index status.
import { Notice, Setting, requestUrl } from 'obsidian';
import { join } from 'node:path';
import type { Settings } from '../core/settings.js';
import type { SemanticService } from '../semantic/service.js';
import { semanticSettings } from '../semantic/settings.js';
import { DEFAULT_MODELS, QUERY_PREFIX_HINT, downloadModel } from '../semantic/download.js';
import { modelProblem } from '../semantic/modelFolder.js';
import { requestUrlGet } from './requestUrlGet.js';

export interface SemanticSettingsController {
  settings: Settings;
  saveSettings(): Promise<void>;
  /** deps.services.semantic of the running server, or null when it is off. */
  semantic(): SemanticService | null;
  /** The vault's cache folder (absolute, src/host/cacheDir.ts): models go to <cache>/models/<id>. */
  cacheDir: string;
  redisplay(): void;
}

export const NETWORK_DISCLOSURE =
  'Network use: semantic search runs entirely on this computer. Only when you press "Download" does the plugin ' +
  'connect to huggingface.co to fetch the model files you chose (about 25–35 MB for the suggested models); ' +
  'nothing from your vault is sent. Without a downloaded model semantic search is off and keyword search still works.';

export function renderSemanticSettings(el: HTMLElement, c: SemanticSettingsController): () => void {
  const s = semanticSettings(c.settings);
  const svc = c.semantic();
  const set = async (patch: Partial<Settings>) => { Object.assign(c.settings, patch); await c.saveSettings(); };
  const modelsDir = join(c.cacheDir, 'models');

  new Setting(el).setName('Semantic search').setHeading();
  el.createEl('p', { text: NETWORK_DISCLOSURE, cls: 'setting-item-description' });

  const status = new Setting(el).setName('Index status');
  const showStatus = () => {
    const st = svc?.status();
    status.setDesc(!st ? 'Server is off.' : `${st.state}${st.reason ? `: ${st.reason}` : ''} — ${st.embedded} notes embedded, ${st.pending} pending, ${st.failed} failed${st.rate ? `, ${st.rate} chunks/s` : ''}${st.rebuilding ? ` (${st.rebuilding})` : ''}`);
  };
  showStatus();
  const off = svc?.onProgress(showStatus) ?? (() => undefined);
  if (svc) {
    status.addButton((b) => b.setButtonText(svc.isPaused() ? 'Resume' : 'Pause').onClick(() => { if (svc.isPaused()) svc.resume(); else svc.pause(); c.redisplay(); }));
    status.addButton((b) => b.setButtonText('Rebuild').onClick(() => { void svc.build(true, 0).catch((e) => new Notice(`Rebuild failed: ${(e as Error).message}`)); }));
  }

  let wanted: string = s.embeddingModel && !s.embeddingModel.startsWith('/') ? s.embeddingModel : DEFAULT_MODELS[0];
  const dl = new Setting(el)
    .setName('Embedding model')
    .setDesc(s.embeddingModel ? `In use: ${s.embeddingModel}${modelProblem(svc?.modelFolder() ?? join(modelsDir, s.embeddingModel)) ? ' (not downloaded yet)' : ''}` : 'None: semantic search is unavailable until a model is downloaded or a local folder is set.')
    .addText((t) => t.setPlaceholder('Xenova/all-MiniLM-L6-v2').setValue(wanted).onChange((v) => { wanted = v.trim(); }));
  dl.addButton((b) => b.setButtonText('Download').setCta().onClick(async () => {
    b.setDisabled(true);
    try {
      await downloadModel({
        id: wanted, modelsDir, get: requestUrlGet(requestUrl),
        onProgress: (p) => { b.setButtonText(p.total ? `${p.file.split('/').pop()} ${Math.floor((p.received / p.total) * 100)}%` : `${p.done}/${p.files}`); },
      });
      await set({ embeddingModel: wanted, ...(QUERY_PREFIX_HINT[wanted] && !s.embeddingQueryPrefix ? { embeddingQueryPrefix: QUERY_PREFIX_HINT[wanted] } : {}) });
      new Notice(`Downloaded ${wanted}; notes are being embedded in the background.`);
    } catch (e) {
      new Notice(`Model download failed: ${(e as Error).message}`, 10_000);
    } finally { b.setDisabled(false); c.redisplay(); }
  }));

  new Setting(el).setName('Model folder (advanced)').setDesc('Use a model already on disk instead: an absolute folder in the transformers.js layout (config.json, tokenizer.json, onnx/model_quantized.onnx).')
    .addText((t) => t.setPlaceholder('/path/to/model').setValue(s.embeddingModel.startsWith('/') ? s.embeddingModel : '').onChange(async (v) => { if (v.trim().startsWith('/')) await set({ embeddingModel: v.trim() }); }));
  new Setting(el).setName('Query prefix').setDesc('Put before every search query, never before notes. Models such as bge want the prefix from their model card; downloading bge-small-en-v1.5 fills it in.')
    .addText((t) => t.setValue(s.embeddingQueryPrefix).onChange(async (v) => set({ embeddingQueryPrefix: v })));
  new Setting(el).setName('Chunk size (tokens)').setDesc('Sections longer than this are split, with overlap. Changing it re-embeds every note.')
    .addText((t) => t.setValue(String(s.embeddingChunkTokens)).onChange(async (v) => { const n = Number(v); if (Number.isInteger(n) && n >= 32 && n <= 512) await set({ embeddingChunkTokens: n }); }));
  new Setting(el).setName('Skip').setDesc('Vault-path globs never embedded, one per line (e.g. Archive/*).')
    .addTextArea((t) => t.setValue(s.embeddingSkipGlobs.join('\n')).onChange(async (v) => set({ embeddingSkipGlobs: v.split('\n').map((x) => x.trim()).filter(Boolean) })));
  new Setting(el).setName('Embed in the background').setDesc('Embed new and changed notes automatically (in small slices, so typing stays smooth).')
    .addToggle((t) => t.setValue(s.embeddingAutoIndex).onChange(async (v) => set({ embeddingAutoIndex: v })));
  return off;
}

/** Status-bar text for the plugin's status bar item ('' when there is nothing to show). */
export function semanticStatusBarText(svc: SemanticService | null): string {
  const st = svc?.status();
  if (!st || st.state === 'disabled') return '';
  if (st.state === 'indexing') return `Embedding ${st.embedded}/${st.embedded + st.pending}`;
  if (st.state === 'paused') return `Embedding paused (${st.pending} left)`;
  if (st.state === 'unavailable') return 'Semantic search unavailable';
  return '';
}
