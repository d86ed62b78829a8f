// A minimal OpenAI-compatible chat client (POST <base>/chat/completions, non-streaming): OpenAI,
// Ollama, LM Studio, vLLM, llama.cpp server… Every call has a time limit; errors carry the HTTP
// status and a short, redacted excerpt of the backend's message, never the API key or the URL's
// credentials/query. The transport is injected (fetch headless, Obsidian's requestUrl in the app).
// Node's timers: this runs headless too, where there is no window (in the app Electron has both).
import { clearTimeout, setTimeout } from 'node:timers';
import type { Transport } from './transport.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmConfig {
  /** Base URL ("http://localhost:11434/v1") or the full …/chat/completions URL. */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  maxOutputTokens: number;
  temperature?: number;
}

export type LlmErrorKind = 'timeout' | 'http' | 'network' | 'bad_response' | 'aborted' | 'config';

export class LlmError extends Error {
  constructor(readonly kind: LlmErrorKind, message: string, readonly status: number | null = null) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface ChatReply {
  text: string;
  /** The backend's finish_reason ("stop", "length" = cut at the output limit…), null when absent. */
  finishReason: string | null;
}

/** The chat-completions URL for a configured endpoint. */
export function chatCompletionsUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    throw new LlmError('config', `The language model endpoint "${safeDisplay(raw)}" is not a URL; use e.g. http://localhost:11434/v1.`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new LlmError('config', `The language model endpoint must be http:// or https://, not ${u.protocol}.`);
  const path = u.pathname.replace(/\/+$/, '');
  if (!/\/chat\/completions$/.test(path)) u.pathname = `${path === '' ? '/v1' : path}/chat/completions`;
  return u.toString();
}

/** The endpoint as it may be shown: origin and path only (no user:password@, no ?query). */
export function endpointDisplay(raw: string): string {
  try {
    const u = new URL(raw.trim());
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(invalid URL)';
  }
}

function safeDisplay(raw: string): string {
  return raw.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '').slice(0, 200);
}

/** Removes the key and anything that looks like a credential from text shown to callers. */
export function redact(text: string, apiKey?: string): string {
  let t = text;
  if (apiKey && apiKey.length >= 4) t = t.split(apiKey).join('[redacted]');
  return t
    .replace(/Bearer\s+[^\s"']+/gi, 'Bearer [redacted]')
    .replace(/\b(sk|pk|rk|key|gsk|xai)-[A-Za-z0-9_\-*.]{6,}/g, '[redacted]')
    .replace(/\/\/[^/\s@]+:[^/\s@]+@/g, '//');
}

function backendMessage(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const e = j.error;
    const m = typeof e === 'string' ? e : e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : typeof j.message === 'string' ? j.message : typeof j.detail === 'string' ? j.detail : '';
    if (m) return m;
  } catch { /* not JSON */ }
  return body.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
}

function replyText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (p && typeof p === 'object' && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('');
  return '';
}

/** Reasoning models (deepseek-r1, qwq via Ollama) put their thinking in <think>…</think>. */
function stripThinking(s: string): string {
  return s.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
}

export async function chat(cfg: LlmConfig, messages: ChatMessage[], opts: { signal?: AbortSignal; transport: Transport }): Promise<ChatReply> {
  const url = chatCompletionsUrl(cfg.url);
  const shown = endpointDisplay(cfg.url);
  const transport = opts.transport;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, Math.max(1, cfg.timeoutMs));
  const outer = opts.signal;
  const onOuter = () => controller.abort();
  if (outer?.aborted) controller.abort();
  outer?.addEventListener('abort', onOuter, { once: true });
  // Transports that cannot abort (requestUrl) are raced instead: the answer is ignored when it comes.
  const aborted = new Promise<never>((_, reject) => {
    const fire = () => reject(timedOut
      ? new LlmError('timeout', `The language model at ${shown} did not answer within ${Math.round(cfg.timeoutMs / 100) / 10} s.`)
      : new LlmError('aborted', 'The request to the language model was cancelled.'));
    if (controller.signal.aborted) fire(); else controller.signal.addEventListener('abort', fire, { once: true });
  });
  aborted.catch(() => undefined);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (cfg.apiKey) headers.authorization = `Bearer ${cfg.apiKey}`;
  const body = JSON.stringify({
    model: cfg.model, messages, stream: false, max_tokens: cfg.maxOutputTokens, temperature: cfg.temperature ?? 0.2,
  });
  try {
    let res: { status: number; text: string };
    try {
      res = await Promise.race([transport({ url, method: 'POST', headers, body, signal: controller.signal }), aborted]);
    } catch (e) {
      if (e instanceof LlmError) throw e;
      if (controller.signal.aborted) await aborted;
      const why = redact(String((e as { cause?: { code?: string } })?.cause?.code ?? (e as Error)?.message ?? e), cfg.apiKey).slice(0, 200);
      throw new LlmError('network', `Could not reach the language model at ${shown} (${why}). Check that it is running and the endpoint URL is right.`);
    }
    if (res.status < 200 || res.status >= 300) {
      const msg = redact(backendMessage(res.text), cfg.apiKey).slice(0, 300);
      const advice = res.status === 401 || res.status === 403 ? ' Check the API key.' : res.status === 404 ? ' Check the endpoint URL and the model name.' : res.status === 429 ? ' The backend is rate limiting; retry later.' : '';
      throw new LlmError('http', `The language model at ${shown} answered HTTP ${res.status}${msg ? `: ${msg}` : ''}.${advice}`, res.status);
    }
    let j: { choices?: { message?: { content?: unknown }; finish_reason?: unknown }[] };
    try {
      j = JSON.parse(res.text) as typeof j;
    } catch {
      throw new LlmError('bad_response', `The language model at ${shown} did not answer with JSON; is this an OpenAI-compatible endpoint (…/v1)?`, res.status);
    }
    const choice = j.choices?.[0];
    const text = stripThinking(replyText(choice?.message?.content));
    if (!text) throw new LlmError('bad_response', `The language model at ${shown} returned an empty answer.`, res.status);
    return { text, finishReason: typeof choice?.finish_reason === 'string' ? choice.finish_reason : null };
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
}
