// The smallest shared vocabulary of tools: who calls (Caller), tool families, annotations and results.
// It imports nothing, so services (limits, jobs, sessions) can use it without depending on the
// dispatcher's types (src/mcp/tool.ts), which in turn name those services in the typed registry.

/** Tool families a key can have switched off (issue 7); 'write' is also hidden from read-scope keys. */
export type Family = 'read' | 'search' | 'write' | 'graph' | 'files' | 'admin' | 'llm' | 'transfer' | 'git';
/** Every tool family, in the order the settings tab and the CLI show them. */
export const FAMILIES: readonly Family[] = ['read', 'search', 'write', 'graph', 'files', 'admin', 'llm', 'transfer', 'git'];

export interface Caller {
  keyId: string;
  keyName: string;
  scope: 'read' | 'readwrite';
  /** Folder the key is confined to; '' = the whole vault. */
  root: string;
  disabledFamilies: Family[];
}

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export const READ_ONLY: Annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export type ExtraContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'text'; text: string };

export interface ToolResult<O> {
  structured: O;
  /** Readable copy for clients that ignore structuredContent; defaults to the JSON. */
  text?: string;
  extra?: ExtraContent[];
  meta?: Record<string, unknown>;
}

/**
 * Progress of a long call, sent to the client as notifications/progress when it passed a progress
 * token (src/mcp/progress.ts). `progress` omitted = one step past the last one; values that would not
 * increase are dropped (the protocol requires them to grow).
 */
export type ProgressSink = (update: { progress?: number; total?: number; message?: string }) => void;
