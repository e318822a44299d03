// Typed REST calls (spec "Endpoints"). Each attempt is signed afresh (the server refuses a
// repeated POST/DELETE signature, and a timestamp must be within 5 s). A 429 is retried after its
// Retry-After, a bounded number of times: a refused call changed nothing, so retrying is safe.
import { apiErrorOf, ApiError } from './errors.js';
import { authHeaders } from './signing.js';
import type {
  AccountDetail, AccountItem, AccountType, CloseResult, ListParams, Order, Page, PlaceOrderRequest, Position, RateLimitState,
} from './types.js';

export interface RestOptions {
  /** Up to and including /v1, e.g. `http://127.0.0.1:8080/v1`. */
  readonly baseUrl: string;
  readonly keyId: string;
  readonly secret: string;
  /** Retries of a 429 before it is thrown (default 3). */
  readonly maxRetries?: number;
  /** Longest wait honoured for one Retry-After (default 10 s); a longer one is thrown at once. */
  readonly maxRetryWaitMs?: number;
  /** Clock for the timestamps (default Date.now). */
  readonly nowMs?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly fetch?: typeof fetch;
}

type Query = { readonly [name: string]: string | number | undefined };

const sleepMs = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class RestClient {
  private readonly origin: string;
  private readonly prefix: string;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly nowMs: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetchFn: typeof fetch;
  private limits: RateLimitState | null = null;
  /** Last timestamp signed with: the next is later, so two identical calls never share a signature. */
  private lastTimestampMs = 0;

  constructor(private readonly opts: RestOptions) {
    const u = new URL(opts.baseUrl);
    this.origin = u.origin;
    this.prefix = u.pathname.replace(/\/+$/, '');
    this.maxRetries = opts.maxRetries ?? 3;
    this.maxRetryWaitMs = opts.maxRetryWaitMs ?? 10_000;
    this.nowMs = opts.nowMs ?? Date.now;
    this.sleep = opts.sleep ?? sleepMs;
    this.fetchFn = opts.fetch ?? fetch;
  }

  /** The X-RateLimit headers of the last response (null before the first). */
  get rateLimit(): RateLimitState | null { return this.limits; }

  accounts(params: ListParams & { readonly type?: AccountType } = {}): Promise<Page<AccountItem>> {
    return this.call('GET', '/accounts', { ...params });
  }

  account(login: string): Promise<AccountDetail> {
    return this.call('GET', `/accounts/${encodeURIComponent(login)}`);
  }

  placeOrder(order: PlaceOrderRequest): Promise<Order> {
    return this.call('POST', '/orders', {}, order);
  }

  /** Cancels a pending order; answers the cancelled order. */
  cancelOrder(id: string): Promise<Order> {
    return this.call('DELETE', `/orders/${encodeURIComponent(id)}`);
  }

  positions(params: ListParams & { readonly login?: string; readonly symbol?: string } = {}): Promise<Page<Position>> {
    return this.call('GET', '/positions', { ...params });
  }

  /** Closes the position, or `volume` lots of it. */
  closePosition(ticket: number, volume?: number): Promise<CloseResult> {
    return this.call('DELETE', `/positions/${ticket}`, { volume });
  }

  private async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, query: Query = {}, body?: object): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const qs = search.toString();
    const pathWithQuery = `${this.prefix}${path}${qs ? `?${qs}` : ''}`;
    const text = body === undefined ? '' : JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      // The server refuses a POST/DELETE signature it has already accepted (replay): identical
      // calls within one millisecond get distinct timestamps (a burst runs a few ms ahead at most).
      this.lastTimestampMs = Math.max(this.nowMs(), this.lastTimestampMs + 1);
      const headers = authHeaders(this.opts.keyId, this.opts.secret, this.lastTimestampMs, method, pathWithQuery, text);
      if (text) headers['content-type'] = 'application/json';
      const res = await this.fetchFn(`${this.origin}${pathWithQuery}`, { method, headers, ...(text ? { body: text } : {}) });
      this.noteLimits(res.headers);
      const answer = await res.text();
      if (res.ok) return JSON.parse(answer) as T;
      const err = apiErrorOf(res.status, answer, res.headers);
      if (!this.retryable(err, attempt)) throw err;
      await this.sleep(err.retryAfterMs ?? 1000);
    }
  }

  private retryable(err: ApiError, attempt: number): boolean {
    return err.status === 429 && attempt < this.maxRetries && (err.retryAfterMs ?? 1000) <= this.maxRetryWaitMs;
  }

  private noteLimits(headers: Headers): void {
    const limit = headers.get('x-ratelimit-limit');
    const remaining = headers.get('x-ratelimit-remaining');
    const reset = headers.get('x-ratelimit-reset');
    if (limit !== null && remaining !== null && reset !== null) {
      this.limits = { limit: Number(limit), remaining: Number(remaining), resetMs: Number(reset) };
    }
  }
}
