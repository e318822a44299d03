// Typed REST calls (spec "Endpoints"). Each attempt is signed afresh (the server refuses a
// repeated POST/DELETE signature, and a timestamp must be within 5 s). A 429 is retried after its
// Retry-After, a bounded number of times: a refused call changed nothing, so retrying is safe. A
// 401 saying the timestamp is off the server's clock (field X-SVC-TIMESTAMP) makes the client
// measure its offset from GET /v1/time and sign again, once: a drifting host clock heals itself.
// Given several base URLs (the nodes of a cluster, any of which serves every account), the client
// uses one until it cannot be reached, then the next: a read is sent again there, and so is an
// order carrying a client_id (a repeat is answered 409 with the original order, never filled twice);
// any other call that met a dead node is thrown, as its outcome is unknown.
import { apiErrorOf, ApiError } from './errors.js';
import { authHeaders } from './signing.js';
import type {
  AccountDetail, AccountItem, AccountType, AmendOrderRequest, AmendPositionRequest, CancelAllResult, CloseAllResult, CloseResult, DeadMan,
  ListParams, Order, OrderFilter, Page, PlaceOrderRequest, Position, RateLimitState, ServerTime, SymbolInfo,
} from './types.js';

/** The field of the 401 that refuses a timestamp off the server's clock. */
const CLOCK_FIELD = 'X-SVC-TIMESTAMP';

export interface RestOptions {
  /** Up to and including /v1, e.g. `http://127.0.0.1:8080/v1`; or the same of each node of a cluster. */
  readonly baseUrl: string | readonly string[];
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

/** Where calls go: an origin and the path prefix signed with it. */
interface Base { readonly origin: string; readonly prefix: string }

export class RestClient {
  private readonly bases: readonly Base[];
  private current = 0;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly nowMs: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly fetchFn: typeof fetch;
  private limits: RateLimitState | null = null;
  /** Last timestamp signed with: the next is later, so two identical calls never share a signature. */
  private lastTimestampMs = 0;
  /** Server clock minus this host's, as last measured (syncClock). */
  private offsetMs = 0;

  constructor(private readonly opts: RestOptions) {
    const urls = typeof opts.baseUrl === 'string' ? [opts.baseUrl] : opts.baseUrl;
    if (urls.length === 0) throw new RangeError('RestClient needs at least one base URL');
    this.bases = urls.map((url) => {
      const u = new URL(url);
      return { origin: u.origin, prefix: u.pathname.replace(/\/+$/, '') };
    });
    this.maxRetries = opts.maxRetries ?? 3;
    this.maxRetryWaitMs = opts.maxRetryWaitMs ?? 10_000;
    this.nowMs = opts.nowMs ?? Date.now;
    this.sleep = opts.sleep ?? sleepMs;
    this.fetchFn = opts.fetch ?? fetch;
  }

  /** The X-RateLimit headers of the last response (null before the first). */
  get rateLimit(): RateLimitState | null { return this.limits; }

  /** Server clock minus this host's clock, in ms, as last measured (0 before any measurement). */
  get clockOffsetMs(): number { return this.offsetMs; }

  /** The server's time by this host's clock and the measured offset (a StreamClient's `nowMs`). */
  serverNowMs(): number { return this.nowMs() + this.offsetMs; }

  /** The base URL calls go to now (the next one after a node could not be reached). */
  get baseUrl(): string {
    const { origin, prefix } = this.bases[this.current]!;
    return `${origin}${prefix}`;
  }

  /** GET /v1/time: the server's clock (no credentials needed). */
  async serverTime(): Promise<ServerTime> {
    const res = await this.fetchFn(`${this.baseUrl}/time`);
    this.noteLimits(res.headers);
    const text = await res.text();
    if (!res.ok) throw apiErrorOf(res.status, text, res.headers);
    return JSON.parse(text) as ServerTime;
  }

  /** Measures the server clock's offset (half the round trip counted as the one-way delay) and signs with it from now on. */
  async syncClock(): Promise<number> {
    const sentMs = this.nowMs();
    const { time_ms: serverMs } = await this.serverTime();
    const receivedMs = this.nowMs();
    this.offsetMs = Math.round(serverMs - (sentMs + receivedMs) / 2);
    return this.offsetMs;
  }
  accounts(params: ListParams & { readonly type?: AccountType } = {}): Promise<Page<AccountItem>> {
    return this.call('GET', '/accounts', { ...params });
  }

  account(login: string): Promise<AccountDetail> {
    return this.call('GET', `/accounts/${encodeURIComponent(login)}`);
  }

  placeOrder(order: PlaceOrderRequest): Promise<Order> {
    // A client_id makes a repeat safe: it is answered 409 with the original order.
    return this.call('POST', '/orders', {}, order, order.client_id !== undefined);
  }

  /** The account's orders, pending and settled, by id ascending; filters combine. */
  listOrders(filter: OrderFilter = {}): Promise<Page<Order>> {
    return this.call('GET', '/orders', { ...filter });
  }

  /** One order of the account by its id (not_found for another account's). */
  getOrder(id: string): Promise<Order> {
    return this.call('GET', `/orders/${encodeURIComponent(id)}`);
  }

  /** The order a client_id created (not_found when none did). */
  getOrderByClientId(clientId: string): Promise<Order> {
    return this.call('GET', '/orders', { client_id: clientId });
  }

  /** Tradable symbols by name: digits, contract size, volume range, session and whether it is open now. */
  symbols(params: ListParams = {}): Promise<Page<SymbolInfo>> {
    return this.call('GET', '/symbols', { ...params });
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

  /** Amends a pending order's price, volume, sl or tp; answers the order with `amended` (what changed). */
  amendOrder(id: string, changes: AmendOrderRequest): Promise<Order> {
    return this.call('PATCH', `/orders/${encodeURIComponent(id)}`, {}, changes);
  }

  /** Amends an open position's sl or tp; answers the position with `amended`. */
  amendPosition(ticket: number, changes: AmendPositionRequest): Promise<Position> {
    return this.call('PATCH', `/positions/${ticket}`, {}, changes);
  }

  /** Cancels every pending order of the key's account (of one symbol, when given). */
  cancelAllOrders(params: { readonly symbol?: string } = {}): Promise<CancelAllResult> {
    return this.call('DELETE', '/orders', { ...params });
  }

  /** Closes every open position of the key's account (of one symbol, when given); each result or error. */
  closeAllPositions(params: { readonly symbol?: string } = {}): Promise<CloseAllResult> {
    return this.call('DELETE', '/positions', { ...params });
  }

  /**
   * Dead-man's switch: unless called again within `timeoutMs`, the key's pending orders on `login`
   * are cancelled (and its API positions closed with closePositions); 0 disarms.
   */
  cancelAllAfter(login: string, timeoutMs: number, opts: { readonly closePositions?: boolean } = {}): Promise<DeadMan> {
    return this.call('POST', '/cancel-all-after', {}, { login, timeout_ms: timeoutMs, ...(opts.closePositions === undefined ? {} : { close_positions: opts.closePositions }) });
  }

  /** `idempotent`: may be sent again to another node after one could not be reached (GETs always). */
  private async call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, query: Query = {}, body?: object, idempotent = method === 'GET'): Promise<T> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const qs = search.toString();
    const text = body === undefined ? '' : JSON.stringify(body);
    let clockSynced = false;
    let unreachable = 0;
    for (let attempt = 0; ; attempt++) {
      const { origin, prefix } = this.bases[this.current]!;
      const pathWithQuery = `${prefix}${path}${qs ? `?${qs}` : ''}`;
      // The server refuses a POST/DELETE signature it has already accepted (replay): identical
      // calls within one millisecond get distinct timestamps (a burst runs a few ms ahead at most).
      this.lastTimestampMs = Math.max(this.serverNowMs(), this.lastTimestampMs + 1);
      const headers = authHeaders(this.opts.keyId, this.opts.secret, this.lastTimestampMs, method, pathWithQuery, text);
      if (text) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await this.fetchFn(`${origin}${pathWithQuery}`, { method, headers, ...(text ? { body: text } : {}) });
      } catch (err) {
        // This node is unreachable (or died under the call): the next one serves the same accounts.
        this.current = (this.current + 1) % this.bases.length;
        if (!idempotent || ++unreachable >= this.bases.length) throw err;
        continue;
      }
      this.noteLimits(res.headers);
      const answer = await res.text();
      if (res.ok) return JSON.parse(answer) as T;
      const err = apiErrorOf(res.status, answer, res.headers);
      if (err.status === 401 && err.field === CLOCK_FIELD && !clockSynced) {
        clockSynced = true;
        await this.syncClock();
        // A timestamp already used may lie ahead of the corrected clock; the next one must not repeat it.
        this.lastTimestampMs = Math.min(this.lastTimestampMs, this.serverNowMs() - 1);
        continue;
      }
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
