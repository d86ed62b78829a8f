// One exception type for every refusal. Tools throw it; the dispatcher turns it into an
// `isError: true` result whose last line is `MCP-REFUSAL {"code":...}` (see ../shared/DESIGN.md).

export type RefusalCode =
  | 'not_found' | 'invalid_argument' | 'invalid_path' | 'already_exists' | 'permission_denied'
  | 'payload_too_large' | 'index_not_ready' | 'stale_precondition' | 'malformed_precondition'
  | 'no_incumbent' | 'precondition_required' | 'concurrent_write' | 'unsupported' | 'rate_limited'
  | 'over_quota' | 'unavailable' | 'internal_error' | (string & {});

export class Refusal extends Error {
  readonly code: RefusalCode;
  readonly details: Record<string, unknown>;
  constructor(code: RefusalCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'Refusal';
    this.code = code;
    this.details = details;
  }
}

export function refuse(code: RefusalCode, message: string, details: Record<string, unknown> = {}): never {
  throw new Refusal(code, message, details);
}

export function isRefusal(e: unknown): e is Refusal {
  return e instanceof Refusal;
}

/** The text block of a refusal: the sentence(s), then one line-initial machine-readable line. */
export function refusalText(r: Refusal): string {
  return `${r.message}\nMCP-REFUSAL ${JSON.stringify({ code: r.code, ...r.details })}`;
}
