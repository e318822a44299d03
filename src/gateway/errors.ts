// The error table of the spec ("Errors", docs/rest.md): one stable name per HTTP status, one body
// shape for REST, webhooks, the console and refused WebSocket upgrades. test/api/error-names.test.ts
// holds this table, the docs' table and the API schema's enum to the same names.
export const HTTP_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  duplicate_client_id: 409,
  invalid_order: 422,
  kill_switch_active: 423,
  rate_limited: 429,
  market_closed: 503,
  /** The service cannot make orders durable now (its journal's disk is full or failing). */
  unavailable: 503,
  /** A fault of the service itself, logged with the request id. */
  internal_error: 500,
} as const satisfies Readonly<Record<string, number>>;

/** A name an error answered with an HTTP status carries. */
export type HttpErrorName = keyof typeof HTTP_STATUS;

/**
 * Every error name a client can meet: the HTTP ones, and `timeout`, a signal fan-out target not done
 * by the deadline (inside a 200 answer, so it has no status of its own).
 */
export type ErrorName = HttpErrorName | 'timeout';

export const ERROR_NAMES: readonly ErrorName[] = [...Object.keys(HTTP_STATUS) as HttpErrorName[], 'timeout'];

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
export interface ApiErrorOptions {
  /** The request field at fault, echoed as `error.field`. */
  readonly field?: string;
  /** Extra top-level members of the body (duplicate_client_id carries `order`). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Extra response headers (Retry-After on 429). */
  readonly headers?: ReadonlyArray<readonly [string, string]>;
}

export class ApiError extends Error {
  readonly field: string | undefined;
  readonly extra: Readonly<Record<string, unknown>> | undefined;
  readonly headers: ReadonlyArray<readonly [string, string]>;

  constructor(readonly errorName: HttpErrorName, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.field = options.field;
    this.extra = options.extra;
    this.headers = options.headers ?? [];
  }

  get status(): number { return HTTP_STATUS[this.errorName]; }
}

export interface ErrorBody {
  readonly error: { code: number; name: HttpErrorName; message: string; field?: string; request_id: string };
  readonly [extra: string]: unknown;
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  const error: ErrorBody['error'] = { code: err.status, name: err.errorName, message: err.message, request_id: requestId };
  if (err.field !== undefined) error.field = err.field;
  return { error, ...err.extra };
}
