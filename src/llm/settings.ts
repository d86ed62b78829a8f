// Language-model settings, read with defaults (older settings objects work). The API key is never a
// setting: it comes from deps.services.llmKey (OPENAI_API_KEY headless, SecretStorage in Obsidian),
// and the optional deps.services.llmTransport replaces fetch (requestUrl in Obsidian).
import type { Settings } from '../core/settings.js';
import type { ServerDeps } from '../mcp/tool.js';
import { endpointDisplay, type LlmConfig } from './client.js';
import type { Transport } from './transport.js';

export interface LlmSettings {
  /** OpenAI-compatible base URL (…/v1); '' = no backend, summarize is not listed. */
  llmUrl: string;
  llmModel: string;
  /** Time limit of one backend call, seconds. */
  llmTimeoutS: number;
  llmMaxOutputTokens: number;
  /** Backend calls in flight at once for one summarize call. */
  llmConcurrency: number;
  /** Most notes one summarize call covers. */
  summarizeMaxNotes: number;
  /** Input characters packed into one backend request (notes longer than this are cut). */
  summarizeBatchChars: number;
}

export const LLM_DEFAULTS: LlmSettings = {
  llmUrl: '',
  llmModel: '',
  llmTimeoutS: 120,
  llmMaxOutputTokens: 1024,
  llmConcurrency: 2,
  summarizeMaxNotes: 50,
  summarizeBatchChars: 16_000,
};

export const LLM_SECRET_ID = 'vault-mcp-server-llm-api-key';

function num(v: unknown, d: number, min: number): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= min ? n : d;
}

export function llmSettings(s: Settings): LlmSettings {
  const d = LLM_DEFAULTS;
  return {
    llmUrl: typeof s.llmUrl === 'string' ? s.llmUrl.trim() : d.llmUrl,
    llmModel: typeof s.llmModel === 'string' ? s.llmModel.trim() : d.llmModel,
    llmTimeoutS: num(s.llmTimeoutS, d.llmTimeoutS, 0.01),
    llmMaxOutputTokens: Math.floor(num(s.llmMaxOutputTokens, d.llmMaxOutputTokens, 16)),
    llmConcurrency: Math.floor(num(s.llmConcurrency, d.llmConcurrency, 1)),
    summarizeMaxNotes: Math.floor(num(s.summarizeMaxNotes, d.summarizeMaxNotes, 1)),
    summarizeBatchChars: Math.floor(num(s.summarizeBatchChars, d.summarizeBatchChars, 500)),
  };
}

export function llmConfigured(deps: ServerDeps): boolean {
  const s = llmSettings(deps.settings());
  return s.llmUrl !== '' && s.llmModel !== '';
}

export function llmKey(deps: ServerDeps): string | undefined {
  const f = deps.services.llmKey;
  const k = typeof f === 'function' ? f() : undefined;
  return k ? k : undefined;
}

export function llmTransport(deps: ServerDeps): Transport | undefined {
  return deps.services.llmTransport;
}

export function llmConfig(deps: ServerDeps): LlmConfig {
  const s = llmSettings(deps.settings());
  return { url: s.llmUrl, model: s.llmModel, apiKey: llmKey(deps), timeoutMs: s.llmTimeoutS * 1000, maxOutputTokens: s.llmMaxOutputTokens };
}

/** Where note content goes, in one sentence (tool description, settings tab). */
export function destination(deps: ServerDeps): string {
  const s = llmSettings(deps.settings());
  return `${s.llmModel} at ${endpointDisplay(s.llmUrl)}`;
}

/** Lines for the server instructions (src/mcp/instructions.ts); none without a backend. */
export function llmInstructionLines(deps: ServerDeps): string[] {
  if (!llmConfigured(deps)) return [];
  const s = llmSettings(deps.settings());
  return [
    `summarize(paths, focus?, mode) sends the selected notes' text to the vault owner's language model (${destination(deps)}) and covers at most ${s.summarizeMaxNotes} notes per call: check notes_omitted and hint, and split large folders into subfolders.`,
    'Slow calls answer status "working" with a job_id: poll get_job_result(job_id) after retry_after_s seconds.',
  ];
}
