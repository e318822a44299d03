// uWebSockets.js request/response plumbing shared by every listener. uWS hands out a request
// object that is valid only during the synchronous handler and a response that may be aborted at
// any time; `Exchange` captures what later code needs and guards every write.
//
// Framing (request smuggling): uWS frames a body by the first Content-Length header, a proxy in
// front may take another one, and the bytes between the two would be a second request to one of
// them. `Exchange.open` refuses a request whose Content-Length headers disagree, before any route
// sees it: 400 and the connection closed. Identical repeats are one length (RFC 9110, 8.6).
import { isUtf8 } from 'node:buffer';
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { ApiError, errorBody, statusLine } from './errors.js';
import { nextRequestId } from './request-id.js';

export type Headers = ReadonlyArray<readonly [string, string]>;

export class Exchange {
  readonly requestId = nextRequestId();
  readonly method: string;
  /** Path with query string, exactly as sent (the signed path). */
  readonly url: string;
  readonly path: string;
  readonly query: string;
  readonly startedNs = process.hrtime.bigint();
  private aborted = false;
  private done = false;
  private onSent: ((status: number) => void) | null = null;

  /** The request's exchange, or null when its framing is refused (the refusal is on its way). */
  static open(res: HttpResponse, req: HttpRequest): Exchange | null {
    const ex = new Exchange(res, req);
    if (!conflictingLengths(req)) return ex;
    // Answered on the next turn: uWS drops a connection that sends more bytes behind a request
    // still unanswered, so whatever follows this one in the same read is never parsed as a request.
    setImmediate(() => {
      ex.respond(400, JSON.stringify(errorBody(new ApiError('bad_request', 'conflicting Content-Length headers'), ex.requestId)), 'application/json', [], true);
    });
    return null;
  }

  private constructor(readonly res: HttpResponse, req: HttpRequest) {
    this.method = req.getCaseSensitiveMethod();
    this.path = req.getUrl();
    const query = req.getQuery();
    this.query = query ?? '';
    // A bare trailing '?' was sent, so it is part of the signed path too.
    this.url = query === undefined ? this.path : `${this.path}?${query}`;
    res.onAborted(() => { this.aborted = true; });
  }

  get open(): boolean { return !this.aborted && !this.done; }

  /** Called once the answer is written, with its status (request metrics). */
  whenSent(listener: (status: number) => void): void { this.onSent = listener; }

  /** Remote address as text, IPv4 plainly, IPv6 in full form. */
  remoteAddress(): string {
    return Buffer.from(this.res.getRemoteAddressAsText()).toString();
  }

  json(status: number, body: unknown, headers: Headers = []): void {
    this.send(status, JSON.stringify(body), 'application/json', headers);
  }

  send(status: number, text: string, contentType: string, headers: Headers = []): void {
    this.respond(status, text, contentType, headers, false);
  }

  private respond(status: number, text: string, contentType: string, headers: Headers, closeConnection: boolean): void {
    if (!this.open) return;
    this.done = true;
    this.res.cork(() => {
      this.res.writeStatus(statusLine(status));
      this.res.writeHeader('content-type', contentType);
      this.res.writeHeader('x-request-id', this.requestId);
      for (const [name, value] of headers) this.res.writeHeader(name, value);
      this.res.end(text, closeConnection);
    });
    this.onSent?.(status);
  }

  fail(err: ApiError, headers: Headers = []): void {
    this.json(err.status, errorBody(err, this.requestId), headers);
  }

  /** Collects the raw body; bodies over `maxBytes` are refused as bad_request without reading on. */
  readBody(maxBytes: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let refused = false;
      this.res.onData((chunk, isLast) => {
        if (refused) return;
        size += chunk.byteLength;
        if (size > maxBytes) {
          refused = true;
          reject(new ApiError('bad_request', `request body larger than ${maxBytes} bytes`));
          return;
        }
        // uWS reuses the chunk's memory after this callback returns: copy it.
        chunks.push(Buffer.from(new Uint8Array(chunk)));
        if (isLast) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      });
    });
  }
}

/** Two Content-Length headers with different values (an empty one included). */
function conflictingLengths(req: HttpRequest): boolean {
  // Every header is looked at: getHeader cannot tell an empty first length from none.
  let first: string | null = null;
  let conflict = false;
  req.forEach((name, value) => {
    if (name !== 'content-length') return;
    if (first === null) first = value;
    else if (value !== first) conflict = true;
  });
  return conflict;
}

/**
 * Parses a JSON object body; anything else is bad_request naming the problem. JSON is UTF-8 (RFC
 * 8259): other bytes are refused rather than read as U+FFFD, which would make different texts one.
 */
export function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) throw new ApiError('bad_request', 'request body is empty; a JSON object is required');
  if (!isUtf8(body)) throw new ApiError('bad_request', 'request body is not valid UTF-8');
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (e) {
    throw new ApiError('bad_request', `malformed JSON: ${(e as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('bad_request', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/**
 * Runs a route's work and turns what it throws into the documented error shape: ApiError as
 * itself, anything else as a logged 500 (a bug, never a client's fault, and never a crash).
 * `headers` adds to every error response (REST sends its rate-limit headers on errors too).
 */
export function serve(
  ex: Exchange,
  onBug: (err: unknown, ex: Exchange) => void,
  work: () => Promise<void> | void,
  headers: () => Headers = () => [],
): void {
  const fail = (err: unknown): void => {
    if (err instanceof ApiError) { ex.fail(err, [...err.headers, ...headers()]); return; }
    onBug(err, ex);
    ex.json(500, { error: { code: 500, name: 'internal_error', message: 'internal error', request_id: ex.requestId } }, headers());
  };
  try {
    const pending = work();
    if (pending) pending.catch(fail);
  } catch (err) {
    fail(err);
  }
}
