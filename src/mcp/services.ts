// The typed service registry: everything a host or a feature hangs off `deps.services`, by name.
// A field is optional where the feature may be off (or the host does not provide it); tools check
// for presence (`if (!deps.services.keyword) …`) and never cast. Adding a service = adding a field
// here, setting it in the feature's setup (src/<feature>/feature.ts) and reading it where needed.
// Only types are imported, from modules that do not import the dispatcher's types, so no cycle forms.
import type express from 'express';
import type { KeyStore } from '../services/keyStore.js';
import type { IndexStatusProvider } from '../services/status.js';
import type { LimitServices } from '../limits/services.js';
import type { AuthThrottle } from '../limits/authThrottle.js';
import type { AuditLog } from '../audit/log.js';
import type { KeywordService } from '../search/service.js';
import type { SemanticDeps, SemanticService } from '../semantic/service.js';
import type { WorkerChannel } from '../semantic/workerEmbedder.js';
import type { EmbeddedWasm } from '../semantic/ortWasm.js';
import type { JobStore } from '../jobs/store.js';
import type { GraphService } from '../graph/service.js';
import type { TaskService } from '../tasks/service.js';
import type { ChangeService } from '../changes/service.js';
import type { TransferService } from '../transfer/tokens.js';
import type { GitRunner } from '../git/git.js';
import type { NetTestHooks } from '../net/safeFetch.js';
import type { Transport } from '../llm/transport.js';

/** What features add to the HTTP app (spread into createHttpApp by runtime.ts). */
export interface HttpExtras {
  /** Per-address failed sign-in budget (src/limits/authThrottle.ts). */
  authThrottle?: AuthThrottle;
  /** Routes mounted after the Host/Origin guard and before /mcp (the /transfer pages). */
  extraRoutes?: (app: express.Express) => void;
}

export interface Services {
  // ---- provided by the host (main.ts, cli.ts) or by tests ----
  /** One line to the host's log (console headless, the developer console in Obsidian). */
  log?: (message: string) => void;
  /** The LLM endpoint key, read when a call needs it (Obsidian SecretStorage in the plugin). */
  llmKey?: () => string | null | undefined;
  /** How LLM requests go out (Obsidian's requestUrl in the plugin, fetch headless). */
  llmTransport?: Transport;
  /** Tests: the onnxruntime WASM bytes from elsewhere. */
  ortWasmSource?: () => Promise<EmbeddedWasm>;
  /** The plugin's brotli-compressed onnxruntime WASM (ort-wasm-simd.wasm.br beside main.js). */
  ortWasmFile?: string;
  /** Starts the embedding worker (the plugin: a Blob-URL Web Worker; tests: a Node worker). */
  embedWorker?: () => WorkerChannel | Promise<WorkerChannel>;
  /** Tests: a stand-in model loader. */
  loadEmbedder?: SemanticDeps['loadEmbedder'];
  /** The git executable (tests point it elsewhere). */
  gitBinary?: string;
  /** Tests only, set from code: loopback addresses import_from_url may reach. */
  testOnlyNetAllow?: NetTestHooks;

  // ---- set by the composition root (runtime.ts) ----
  keys?: KeyStore;
  /** The URL the server listens on (the real port also with --port 0). */
  serverUrl?: string;
  http?: HttpExtras;

  // ---- set by features (src/features.ts lists them in order) ----
  limits?: LimitServices;
  audit?: AuditLog;
  keyword?: KeywordService;
  semantic?: SemanticService;
  jobs?: JobStore;
  graph?: GraphService;
  tasks?: TaskService;
  changes?: ChangeService;
  transfer?: TransferService;
  git?: GitRunner;
  /** Index status providers after the metadata index, in registration order (keyword, semantic, graph…). */
  indexes?: IndexStatusProvider[];
}
