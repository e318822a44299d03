// The error table of the spec ("Errors"): one stable name per HTTP status, one body shape for
// REST, webhooks, the console and refused WebSocket upgrades.
export type ErrorName =
  | 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'duplicate_client_id'
  | 'invalid_order' | 'kill_switch_active' | 'rate_limited' | 'market_closed'
  /** The service cannot make orders durable now (its journal's disk is full or failing). */
  | 'unavailable';

export const HTTP_STATUS: Readonly<Record<ErrorName, number>> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  duplicate_client_id: 409,
  invalid_order: 422,
  kill_switch_active: 423,
  rate_limited: 429,
  market_closed: 503,
  unavailable: 503,
};

const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: '200 OK', 201: '201 Created', 204: '204 No Content', 400: '400 Bad Request', 401: '401 Unauthorized',
  403: '403 Forbidden', 404: '404 Not Found', 405: '405 Method Not Allowed', 409: '409 Conflict',
  413: '413 Payload Too Large', 415: '415 Unsupported Media Type', 422: '422 Unprocessable Entity',
  423: '423 Locked', 429: '429 Too Many Requests', 500: '500 Internal Server Error', 503: '503 Service Unavailable',
};

export function statusLine(code: number): string {
  return STATUS_TEXT[code] ?? `${code} Status`;
}

/** A refusal on its way to the client; thrown only inside request parsing, caught at the route. */
export class ApiError extends Error {
  constructor(
    readonly errorName: ErrorName,
    message: string,
    readonly field?: string,
    /** Extra top-level members of the body (duplicate_client_id carries `order`). */
    readonly extra?: Readonly<Record<string, unknown>>,
    /** Extra response headers (Retry-After on 429). */
    readonly headers: ReadonlyArray<readonly [string, string]> = [],
  ) {
    super(message);
  }

  get status(): number { return HTTP_STATUS[this.errorName]; }
}

export interface ErrorBody {
  readonly error: { code: number; name: ErrorName; message: string; field?: string; request_id: string };
  readonly [extra: string]: unknown;
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  const error: ErrorBody['error'] = { code: err.status, name: err.errorName, message: err.message, request_id: requestId };
  if (err.field !== undefined) error.field = err.field;
  return { error, ...err.extra };
}
