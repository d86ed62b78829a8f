// `serve` flags that map onto settings. Features add rows here so every limit is also a CLI flag.
import type { SettingFlag } from '../core/settings.js';
import { LIMIT_FLAGS } from '../limits/settings.js';
import { IMPORT_FLAGS } from '../net/settings.js';

export type { SettingFlag } from '../core/settings.js';

export const settingFlags: SettingFlag[] = [
  { flag: 'host', key: 'bindAddress', kind: 'string', help: 'address to bind (default 127.0.0.1; anything else is reachable from other machines)' },
  { flag: 'port', key: 'port', kind: 'int', help: 'port (default 27200; 0 picks a free one)' },
  { flag: 'allowed-hosts', key: 'allowedHosts', kind: 'list', help: 'extra Host header names to accept, comma separated' },
  { flag: 'read-cap', key: 'readCapChars', kind: 'int', help: 'characters one read returns at most (default 40000)' },
  { flag: 'max-file-read', key: 'maxFileReadBytes', kind: 'int', help: 'largest file read_file returns, bytes' },
  { flag: 'max-request', key: 'maxRequestBytes', kind: 'int', help: 'largest request body, bytes' },
  { flag: 'session-idle-minutes', key: 'sessionIdleMinutes', kind: 'int', help: 'close idle MCP sessions after this many minutes' },
  { flag: 'read-only', key: 'readOnly', kind: 'bool', help: 'global read-only mode: no write tools are listed' },
  { flag: 'require-hash', key: 'requireHashForDestructive', kind: 'bool', help: 'destructive writes (replace, frontmatter, delete, overwrite) must pass expected_hash' },
  { flag: 'symlink-allow', key: 'symlinkAllowedFolders', kind: 'list', help: 'outside folders (absolute, comma separated) that symlinks in the vault may lead into, read-only; off by default' },
  { flag: 'max-write', key: 'maxWriteBytes', kind: 'int', help: 'largest file a write tool produces, bytes (default 10485760)' },
  { flag: 'embedding-backend', key: 'embeddingBackend', kind: 'string', help: 'onnxruntime backend: auto (default), node or wasm' },
  { flag: 'embedding-query-prefix', key: 'embeddingQueryPrefix', kind: 'string', help: 'text put before every semantic query (e.g. for bge models)' },
  { flag: 'embedding-chunk-tokens', key: 'embeddingChunkTokens', kind: 'int', help: 'token budget of one embedded chunk (default 256)' },
  { flag: 'embedding-chunk-overlap', key: 'embeddingChunkOverlap', kind: 'int', help: 'tokens repeated between split chunks (default 32)' },
  { flag: 'embedding-skip', key: 'embeddingSkipGlobs', kind: 'list', help: 'vault-path globs never embedded, comma separated' },
  { flag: 'hybrid-rrf-k', key: 'hybridRrfK', kind: 'int', help: 'reciprocal rank fusion constant of hybrid_search (default 60)' },
  { flag: 'llm-url', key: 'llmUrl', kind: 'string', help: 'OpenAI-compatible endpoint for summarize, e.g. http://localhost:11434/v1 (API key from OPENAI_API_KEY); note text is sent there' },
  { flag: 'llm-model', key: 'llmModel', kind: 'string', help: 'model name at that endpoint (summarize is listed only with --llm-url and --llm-model)' },
  { flag: 'llm-timeout-s', key: 'llmTimeoutS', kind: 'int', help: 'time limit of one language model call, seconds (default 120)' },
  { flag: 'llm-max-output-tokens', key: 'llmMaxOutputTokens', kind: 'int', help: 'max_tokens of one language model answer (default 1024)' },
  { flag: 'llm-concurrency', key: 'llmConcurrency', kind: 'int', help: 'language model calls in flight per summarize call (default 2)' },
  { flag: 'summarize-max-notes', key: 'summarizeMaxNotes', kind: 'int', help: 'most notes one summarize call covers (default 50)' },
  { flag: 'summarize-batch-chars', key: 'summarizeBatchChars', kind: 'int', help: 'input characters per language model request; longer notes are cut (default 16000)' },
  { flag: 'keyword-stemming', key: 'keywordStemming', kind: 'list', help: 'keyword search: languages to stem, comma separated (default english; "none" = no stemming; changing it rebuilds the index)' },
  { flag: 'keyword-stop-words', key: 'keywordStopWords', kind: 'string', help: 'keyword search: on (default) or off: drop those languages\' stop words (changing it rebuilds the index)' },
  { flag: 'job-soft-deadline-ms', key: 'jobSoftDeadlineMs', kind: 'int', help: 'calls still running after this answer "working" with a job_id (default 25000)' },
  { flag: 'changes-retention-days', key: 'changesRetentionDays', kind: 'int', help: 'change feed: drop lines older than this many days (default 30)' },
  { flag: 'changes-max-events', key: 'changesMaxEvents', kind: 'int', help: 'change feed: keep at most this many lines (default 20000)' },
  ...IMPORT_FLAGS, // import_from_url: plain http, time limit (src/net/settings.ts)
  ...LIMIT_FLAGS, // rate limits, quotas, auth budget, concurrency, write size, audit (src/limits/settings.ts)
];
