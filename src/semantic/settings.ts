// Semantic-search settings, read with defaults so a settings object from an older version works.
// Defaults are also listed in core/settings.ts DEFAULT_SETTINGS (the plugin persists them).
import type { Settings } from '../core/settings.js';

export interface SemanticSettings {
  /** A model folder (absolute path) or a model id downloaded into <data>/models/<id>; '' = none. */
  embeddingModel: string;
  /** 'auto' = WASM inside Obsidian, onnxruntime-node headless. */
  embeddingBackend: 'auto' | 'node' | 'wasm';
  /** Prepended to queries only (e.g. bge: "Represent this sentence for searching relevant passages: "). */
  embeddingQueryPrefix: string;
  embeddingChunkTokens: number;
  embeddingChunkOverlap: number;
  embeddingBatchSize: number;
  /** Vault-path globs never embedded (e.g. "Archive/*", "*.excalidraw.md"). */
  embeddingSkipGlobs: string[];
  /** Embed new and changed notes in the background. */
  embeddingAutoIndex: boolean;
  /** Save the vector file at most this often while indexing (seconds). */
  embeddingSaveIntervalS: number;
  /** Reciprocal rank fusion constant. */
  hybridRrfK: number;
  /** Below this best similarity (and with no note matching every keyword) a page is confidence "low". */
  semanticLowSimilarity: number;
}

export const SEMANTIC_DEFAULTS: SemanticSettings = {
  embeddingModel: '',
  embeddingBackend: 'auto',
  embeddingQueryPrefix: '',
  embeddingChunkTokens: 256,
  embeddingChunkOverlap: 32,
  embeddingBatchSize: 16,
  embeddingSkipGlobs: [],
  embeddingAutoIndex: true,
  embeddingSaveIntervalS: 30,
  hybridRrfK: 60,
  semanticLowSimilarity: 0.35,
};

export function semanticSettings(s: Settings): SemanticSettings {
  const out = { ...SEMANTIC_DEFAULTS } as Record<string, unknown>;
  for (const k of Object.keys(SEMANTIC_DEFAULTS)) if (s[k] !== undefined && s[k] !== null) out[k] = s[k];
  const r = out as unknown as SemanticSettings;
  if (typeof r.embeddingSkipGlobs === 'string') r.embeddingSkipGlobs = (r.embeddingSkipGlobs as string).split(',').map((g) => g.trim()).filter(Boolean);
  return r;
}
