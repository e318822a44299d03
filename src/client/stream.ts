// The stream client: one WebSocket (the `ws` package) that reconnects with exponential backoff and
// jitter, restores every subscription, and resumes each account's events with `since_seq` from the
// last seq it handed to the user, so a reconnect loses no order or position event and repeats none:
// the server replays what was missed in seq order, and anything at or below the account's cursor
// (an overlap) is dropped here. Quotes and account states are latest-value data and simply resume.
import WebSocket from 'ws';
import { Backoff, type BackoffOptions } from './backoff.js';
import { ApiError, apiErrorOf } from './errors.js';
import { signedStreamUrl } from './signing.js';
import { SubscriptionBook, type WireOp } from './subscriptions.js';
import type {
  AccountMessage, AckMessage, CancelAllAfterMessage, CancelOnDisconnectMessage, LivePositionMessage, OrderMessage, PositionMessage, QuoteMessage,
  ServerMessage, SnapshotEndMessage, SnapshotMessage, StreamChannel, StreamErrorMessage,
} from './types.js';

export interface StreamClientOptions {
  /**
   * The stream address, e.g. `ws://127.0.0.1:8080/v1`; or the same of each node of a cluster,
   * tried in turn after a lost or refused connection (each resumes where the last one stopped).
   */
  readonly url: string | readonly string[];
  readonly keyId: string;
  readonly secret: string;
  readonly backoff?: BackoffOptions;
  /** A connection that stayed up this long resets the backoff (default 10 s). */
  readonly stableMs?: number;
  /** No frame at all for this long (heartbeats come every 5 s) counts as a dead connection (default 15 s). */
  readonly staleMs?: number;
  readonly nowMs?: () => number;
  readonly random?: () => number;
}

export interface SubscribeRequest {
  readonly channels: readonly StreamChannel[];
  /** With `quotes`. */
  readonly symbols?: readonly string[];
  /** With orders, positions, account; default: the key's account. */
  readonly login?: string;
  /** Resume events after this seq (e.g. saved by an earlier run) instead of starting with a snapshot. */
  readonly sinceSeq?: number;
}

export interface DisconnectInfo { readonly code: number; readonly reason: string; readonly attempt: number; readonly retryInMs: number }
/** Events after `sinceSeq` were no longer kept; the client re-subscribed with a snapshot. */
export interface GapInfo { readonly login: string; readonly sinceSeq: number; readonly oldestSeq: number | undefined }

export interface StreamHandlers {
  quote: (m: QuoteMessage) => void;
  order: (m: OrderMessage) => void;
  position: (m: PositionMessage) => void;
  /** Live P&L of a subscribed account's open positions (no seq; at most every 100 ms per position). */
  pnl: (m: LivePositionMessage) => void;
  account: (m: AccountMessage) => void;
  /** Once per page of a snapshot... */
  snapshot: (m: SnapshotMessage) => void;
  /** ...and once after its last page. */
  snapshotEnd: (m: SnapshotEndMessage) => void;
  heartbeat: (ts: number) => void;
  open: () => void;
  disconnect: (info: DisconnectInfo) => void;
  gap: (info: GapInfo) => void;
  /** Refused upgrades (ApiError with the HTTP status), refused restores, socket errors. */
  error: (err: Error) => void;
}

type Handlers = { [K in keyof StreamHandlers]: StreamHandlers[K][] };

type Answer = AckMessage | CancelAllAfterMessage | CancelOnDisconnectMessage | number;

interface PendingOp {
  readonly wire: WireOp;
  /** The caller waiting for the answer; absent for the client's own restores. */
  readonly caller?: { resolve(m: Answer): void; reject(err: Error): void };
  /** The connection it went out on (re-sent on the next one while unanswered). */
  sentOn: WebSocket | null;
  readonly sentAtMs: number;
}

export class StreamClient {
  private readonly handlers: Handlers = {
    quote: [], order: [], position: [], pnl: [], account: [], snapshot: [], snapshotEnd: [], heartbeat: [], open: [], disconnect: [], gap: [], error: [],
  };
  private readonly backoff: Backoff;
  private readonly nowMs: () => number;
  private ws: WebSocket | null = null;
  private openedAtMs = 0;
  private lastFrameMs = 0;
  private nextId = 0;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly staleTimer: NodeJS.Timeout;
  private readonly pending = new Map<number, PendingOp>();
  /** Connections tried so far: which of the URLs the next one uses. */
  private dials = 0;
  private firstOpen: { readonly promise: Promise<void>; resolve(): void; reject(err: Error): void } | null = null;
  /** Confirmed subscriptions (restored on every new connection) and the per-account cursors. */
  private readonly book = new SubscriptionBook();
  /** cancel_on_disconnect as last confirmed: every new connection asks for it again. */
  private cancelOnDrop: WireOp | null = null;

  constructor(private readonly opts: StreamClientOptions) {
    this.backoff = new Backoff(opts.backoff, opts.random);
    this.nowMs = opts.nowMs ?? Date.now;
    const staleMs = opts.staleMs ?? 15_000;
    this.staleTimer = setInterval(() => {
      if (this.ws?.readyState === WebSocket.OPEN && this.nowMs() - this.lastFrameMs > staleMs) this.ws.terminate();
    }, Math.max(50, Math.floor(staleMs / 3)));
    this.staleTimer.unref();
  }

  on<K extends keyof StreamHandlers>(event: K, handler: StreamHandlers[K]): this {
    this.handlers[event].push(handler);
    return this;
  }

  /** Starts connecting (and reconnecting); resolves once the first connection is open. */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('stream client is closed'));
    if (this.ws?.readyState === WebSocket.OPEN) return Promise.resolve();
    if (!this.firstOpen) {
      let settle: { resolve(): void; reject(err: Error): void } | undefined;
      const promise = new Promise<void>((resolve, reject) => { settle = { resolve, reject }; });
      this.firstOpen = { promise, ...settle! };
    }
    if (!this.ws && !this.retryTimer) this.dial();
    return this.firstOpen.promise;
  }

  /** Resolves with the ack once the server confirmed; the subscription then survives reconnects. */
  subscribe(req: SubscribeRequest): Promise<AckMessage> {
    const wire: WireOp = {
      op: 'subscribe', channels: req.channels,
      ...(req.symbols ? { symbols: req.symbols } : {}),
      ...(req.login !== undefined ? { login: req.login } : {}),
      ...(req.sinceSeq !== undefined ? { since_seq: req.sinceSeq } : {}),
    };
    return this.request(wire) as Promise<AckMessage>;
  }

  unsubscribe(req: Omit<SubscribeRequest, 'sinceSeq'>): Promise<AckMessage> {
    const wire: WireOp = {
      op: 'unsubscribe', channels: req.channels,
      ...(req.symbols ? { symbols: req.symbols } : {}),
      ...(req.login !== undefined ? { login: req.login } : {}),
    };
    return this.request(wire) as Promise<AckMessage>;
  }

  /** Round trip in ms. */
  ping(): Promise<number> {
    return this.request({ op: 'ping' }) as Promise<number>;
  }

  /**
   * The key's dead-man's switch, as RestClient.cancelAllAfter: unless called again within
   * `timeoutMs`, the key's pending orders are cancelled; 0 disarms.
   */
  cancelAllAfter(timeoutMs: number, opts: { readonly closePositions?: boolean } = {}): Promise<CancelAllAfterMessage> {
    const wire: WireOp = { op: 'cancel_all_after', timeout_ms: timeoutMs, ...(opts.closePositions === undefined ? {} : { close_positions: opts.closePositions }) };
    return this.request(wire) as Promise<CancelAllAfterMessage>;
  }

  /**
   * While enabled, the server cancels the key's pending orders (and closes its API positions with
   * closePositions) the moment this connection drops. Kept across reconnects: each new connection
   * asks for it again (orders placed meanwhile are the client's to check).
   */
  async cancelOnDisconnect(enabled: boolean, opts: { readonly closePositions?: boolean } = {}): Promise<CancelOnDisconnectMessage> {
    const wire: WireOp = { op: 'cancel_on_disconnect', enabled, close_positions: opts.closePositions ?? false };
    const answer = await this.request(wire) as CancelOnDisconnectMessage;
    this.cancelOnDrop = enabled ? wire : null;
    return answer;
  }

  /** The last order/position seq handed to the user for `login` (save it to resume a later run). */
  lastSeq(login: string): number | undefined { return this.book.lastSeq(login); }

  get connected(): boolean { return this.ws?.readyState === WebSocket.OPEN; }

  close(): void {
    this.closed = true;
    clearInterval(this.staleTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const err = new Error('stream client closed');
    for (const op of this.pending.values()) op.caller?.reject(err);
    this.pending.clear();
    this.firstOpen?.reject(err);
    this.firstOpen = null;
    this.ws?.close(1000, 'client closing');
    this.ws = null;
  }

  private request(wire: WireOp): Promise<Answer> {
    if (this.closed) return Promise.reject(new Error('stream client is closed'));
    return new Promise((resolve, reject) => {
      const id = ++this.nextId;
      this.pending.set(id, { wire, caller: { resolve, reject }, sentOn: null, sentAtMs: this.nowMs() });
      if (this.ws?.readyState === WebSocket.OPEN) this.send(id);
    });
  }

  private send(id: number): void {
    const op = this.pending.get(id);
    const ws = this.ws;
    if (!op || !ws) return;
    op.sentOn = ws;
    ws.send(JSON.stringify({ ...op.wire, id }));
  }

  private dial(): void {
    this.retryTimer = null;
    if (this.closed) return;
    const urls = typeof this.opts.url === 'string' ? [this.opts.url] : this.opts.url;
    const url = urls[this.dials++ % urls.length]!;
    const ws = new WebSocket(signedStreamUrl(url, this.opts.keyId, this.opts.secret, this.nowMs()), { perMessageDeflate: false });
    this.ws = ws;
    let refusal: ApiError | null = null;
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => { body += chunk.toString(); });
      res.on('end', () => {
        refusal = apiErrorOf(res.statusCode ?? 0, body, { get: (name) => { const v = res.headers[name]; return typeof v === 'string' ? v : null; } });
        this.emit('error', refusal);
        this.lost(ws, res.statusCode ?? 0, refusal.message);
      });
    });
    ws.on('open', () => this.opened());
    ws.on('message', (data: WebSocket.RawData, isBinary: boolean) => { if (!isBinary) this.frame(String(data)); });
    ws.on('error', (err) => { if (!refusal) this.emit('error', err); });
    ws.on('close', (code, reason) => this.lost(ws, code, reason.toString()));
  }

  private opened(): void {
    this.openedAtMs = this.nowMs();
    this.lastFrameMs = this.openedAtMs;
    // Restores first (they carry the since_seq cursors), then the callers' unanswered ops.
    const callers = [...this.pending.keys()];
    for (const wire of [...this.book.restoreOps(), ...(this.cancelOnDrop === null ? [] : [this.cancelOnDrop])]) {
      const id = ++this.nextId;
      this.pending.set(id, { wire, sentOn: null, sentAtMs: this.nowMs() });
      this.send(id);
    }
    for (const id of callers) this.send(id);
    this.firstOpen?.resolve();
    this.firstOpen = null;
    this.emit('open');
  }

  private lost(ws: WebSocket, code: number, reason: string): void {
    if (this.ws !== ws) return;
    this.ws = null;
    ws.removeAllListeners('close');
    ws.terminate();
    // Restores are rebuilt from the confirmed state on the next connection.
    for (const [id, op] of this.pending) if (!op.caller) this.pending.delete(id);
    if (this.closed) return;
    if (this.openedAtMs > 0 && this.nowMs() - this.openedAtMs >= (this.opts.stableMs ?? 10_000)) this.backoff.reset();
    this.openedAtMs = 0;
    const retryInMs = this.backoff.next();
    this.emit('disconnect', { code, reason, attempt: this.backoff.attempts, retryInMs });
    this.retryTimer = setTimeout(() => this.dial(), retryInMs);
  }

  private frame(text: string): void {
    this.lastFrameMs = this.nowMs();
    for (const line of text.split('\n')) {
      let m: ServerMessage;
      try { m = JSON.parse(line) as ServerMessage; } catch { this.emit('error', new Error(`unreadable message: ${line.slice(0, 100)}`)); continue; }
      this.dispatch(m);
    }
  }

  private dispatch(m: ServerMessage): void {
    switch (m.channel) {
      case 'quote': this.emit('quote', m); return;
      case 'order': if (this.book.fresh(m.login, m.seq)) this.emit('order', m); return;
      case 'position':
        if ('live' in m) this.emit('pnl', m);
        else if (this.book.fresh(m.login, m.seq)) this.emit('position', m);
        return;
      case 'account': this.emit('account', m); return;
      case 'snapshot': this.book.snapshot(m.login, m.seq); this.emit('snapshot', m); return;
      case 'snapshot_end': this.emit('snapshotEnd', m); return;
      case 'heartbeat': this.emit('heartbeat', m.ts); return;
      case 'subscribed': case 'unsubscribed': this.acked(m); return;
      case 'pong': {
        const op = this.answered(m.id);
        op?.caller?.resolve(this.nowMs() - op.sentAtMs);
        return;
      }
      case 'cancel_all_after': case 'cancel_on_disconnect': this.answered(m.id)?.caller?.resolve(m); return;
      case 'error': this.refused(m); return;
    }
  }

  private answered(id: number | string | null): PendingOp | undefined {
    if (typeof id !== 'number') return undefined;
    const op = this.pending.get(id);
    if (op && op.sentOn === this.ws) {
      this.pending.delete(id);
      return op;
    }
    return undefined;
  }

  private acked(m: AckMessage): void {
    const op = this.answered(m.id);
    if (!op) return;
    this.book.confirm(m, op.wire);
    op.caller?.resolve(m);
  }

  private refused(m: StreamErrorMessage): void {
    const err = new ApiError({
      name: m.name, message: m.message, status: null,
      ...(m.field !== undefined ? { field: m.field } : {}),
      ...(m.oldest_seq !== undefined ? { oldestSeq: m.oldest_seq } : {}),
      body: m,
    });
    const op = this.answered(m.id);
    if (!op) { this.emit('error', err); return; }
    if (op.caller) { op.caller.reject(err); return; }
    // A restore whose since_seq is no longer kept: say so, and start over from a snapshot.
    const login = op.wire.login;
    if (m.field === 'since_seq' && login !== undefined && op.wire.since_seq !== undefined) {
      this.book.forgetCursor(login);
      this.emit('gap', { login, sinceSeq: op.wire.since_seq, oldestSeq: m.oldest_seq });
      const { since_seq: _dropped, ...plain } = op.wire;
      const id = ++this.nextId;
      this.pending.set(id, { wire: plain, sentOn: null, sentAtMs: this.nowMs() });
      this.send(id);
      return;
    }
    this.emit('error', err);
  }

  private emit<K extends keyof StreamHandlers>(event: K, ...args: Parameters<StreamHandlers[K]>): void {
    for (const handler of this.handlers[event]) {
      try {
        (handler as (...a: Parameters<StreamHandlers[K]>) => void)(...args);
      } catch (err) {
        if (event !== 'error') this.emit('error', err instanceof Error ? err : new Error(String(err)));
      }
    }
  }
}
