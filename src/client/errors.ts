// Every refusal the service sends, REST or stream, as one typed error: `name` is the spec's stable
// machine-readable name, so callers branch on it (`err.name === 'rate_limited'`).
import type { ErrorName, Order } from './types.js';

export interface ApiErrorInit {
  readonly name: ErrorName;
  readonly message: string;
  /** HTTP status; null for a stream op's error message. */
  readonly status: number | null;
  readonly field?: string;
  readonly requestId?: string;
  /** Retry-After of a 429, in ms. */
  readonly retryAfterMs?: number;
  /** duplicate_client_id: the order first accepted with that client_id. */
  readonly order?: Order;
  /** since_seq too old: the oldest event seq still kept. */
  readonly oldestSeq?: number;
  /** The raw error body or message. */
  readonly body?: unknown;
}

export class ApiError extends Error {
  override readonly name: ErrorName;
  readonly status: number | null;
  readonly field: string | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly order: Order | undefined;
  readonly oldestSeq: number | undefined;
  readonly body: unknown;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = init.name;
    this.status = init.status;
    this.field = init.field;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.order = init.order;
    this.oldestSeq = init.oldestSeq;
    this.body = init.body;
  }
}

interface ErrorBodyShape {
  readonly error?: { readonly name?: unknown; readonly message?: unknown; readonly field?: unknown; readonly request_id?: unknown };
  readonly order?: Order;
}

/** An error response (REST, or a refused stream upgrade) as an ApiError, whatever its body holds. */
export function apiErrorOf(status: number, bodyText: string, headers: { get(name: string): string | null }): ApiError {
  let body: ErrorBodyShape | undefined;
  try { body = JSON.parse(bodyText) as ErrorBodyShape; } catch { body = undefined; }
  const e = body?.error;
  const retryAfter = Number(headers.get('retry-after'));
  return new ApiError({
    name: typeof e?.name === 'string' ? e.name as ErrorName : status === 429 ? 'rate_limited' : 'internal_error',
    message: typeof e?.message === 'string' ? e.message : `HTTP ${status}${bodyText ? `: ${bodyText.slice(0, 200)}` : ''}`,
    status,
    ...(typeof e?.field === 'string' ? { field: e.field } : {}),
    requestId: typeof e?.request_id === 'string' ? e.request_id : headers.get('x-request-id') ?? undefined,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
    ...(body?.order ? { order: body.order } : {}),
    body: body ?? bodyText,
  });
}
