// The WebSocket stream at /v1 (spec "WebSocket", "Events"; DECISIONS "WebSocket messages"): the
// connections, their ops, and the three feeds they draw from (quotes, order/position events,
// account states), plus the heartbeat. Everything runs on the main thread's event loop.
import type { TemplatedApp, WebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { keyRefusal } from '../auth/verify.js';
import type { GatewayContext } from '../context.js';
import { AccountStream } from './account.js';
import { CLOSE_POLICY, FlushQueue, StreamConnection, type Session } from './connection.js';
import { StreamDeadMan } from './dead-man.js';
import { LiveFeed } from './live.js';
import { EventStream } from './events.js';
import { ackText, errorText, heartbeatText, internalErrorText, pongText, StreamError } from './messages.js';
import { EVENT_CHANNELS, parseOp, type ClientOp, type EventChannel, type OpId, type SubscribeOp, type UnsubscribeOp } from './ops.js';
import { QuoteFanout } from './quotes.js';
import { STREAM_TUNING } from './tuning.js';
import { ConnectionCounter, upgradeHandler } from './upgrade.js';
import type { UnixMs } from '../../engine/types.js';

const HEARTBEAT_TOPIC = 'heartbeat';
const CLOSE_GOING_AWAY = 1001;
const CLOSE_TOO_BIG = 1009;

const isEventChannel = (c: string): c is EventChannel => (EVENT_CHANNELS as readonly string[]).includes(c);

export class StreamHub {
  private readonly queue = new FlushQueue();
  private readonly conns = new Set<StreamConnection>();
  private readonly counter = new ConnectionCounter();
  private readonly refusals = new WeakMap<StreamConnection, number>();
  private readonly fanout: QuoteFanout;
  private readonly events: EventStream;
  private readonly accounts: AccountStream;
  private readonly live: LiveFeed;
  private readonly deadMan: StreamDeadMan;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly stopQuotes: () => void;
  private closed = false;

  constructor(private readonly app: TemplatedApp, private readonly ctx: GatewayContext) {
    const s = ctx.config.stream;
    const t = STREAM_TUNING;
    this.fanout = new QuoteFanout(app, ctx.symbols.values(), (symbol) => ctx.market.last(symbol), {
      conflateAtBytes: Math.min(t.conflateAtBytes, Math.floor(s.max_buffer_bytes / 2)),
      resumeAtBytes: Math.min(t.resumeAtBytes, Math.floor(s.max_buffer_bytes / 8)),
      hardLimitBytes: s.max_buffer_bytes,
      sweepMs: t.sweepMs,
      onSkipped: (quotes) => ctx.metrics.quotesConflated(quotes),
      onConflation: (outlet, conflating, bufferedBytes) => {
        (outlet as StreamConnection).log.debug({ bufferedBytes }, conflating ? 'stream consumer slow: quotes conflated' : 'stream consumer caught up: quotes live');
      },
    });
    this.events = new EventStream(
      { history: ctx.history, readModel: ctx.readModel, symbols: ctx.symbols, clock: ctx.clock },
      {
        chunkEvents: t.replayChunkEvents,
        pageBytes: Math.min(t.snapshotPageBytes, Math.floor(s.max_buffer_bytes / 4)),
        pauseAtBytes: Math.floor(s.max_buffer_bytes / 4),
        retryMs: t.replayRetryMs,
        maxHeldEvents: t.maxHeldEvents,
      },
    );
    this.accounts = new AccountStream(ctx.readModel, ctx.clock, t.accountThrottleMs, (group) => ctx.config.margin.groups[group] ?? ctx.config.margin);
    this.live = new LiveFeed((login, on) => ctx.pool.client.live(login, on), ctx.symbols, Math.min(t.conflateAtBytes, Math.floor(s.max_buffer_bytes / 2)));
    this.deadMan = new StreamDeadMan(ctx);
    this.stopQuotes = ctx.market.subscribe((quote) => {
      this.fanout.onQuote(quote);
      this.accounts.onQuote();
    });
    ctx.pool.client.listen({
      events: (events) => { if (!this.closed) this.events.onEvents(events); },
      accounts: (accounts) => { if (!this.closed) this.accounts.onAccounts(accounts); },
      live: (accounts, ts) => { if (!this.closed) this.live.onLive(accounts, ts); },
    });
    this.heartbeat = setInterval(() => {
      const nowMs = ctx.clock.nowMs();
      this.app.publish(HEARTBEAT_TOPIC, heartbeatText(nowMs), false, false);
      this.endRefusedKeys(nowMs);
    }, s.heartbeat_ms);
  }

  behavior(): WebSocketBehavior<Session> {
    const s = this.ctx.config.stream;
    return {
      maxPayloadLength: STREAM_TUNING.maxPayloadBytes,
      idleTimeout: STREAM_TUNING.idleTimeoutS,
      sendPingsAutomatically: true,
      // uWS must never drop a message on its own (events are never dropped): its limit sits above
      // ours, and we close a connection past stream.max_buffer_bytes ourselves, with 1008.
      maxBackpressure: s.max_buffer_bytes * 2 + STREAM_TUNING.maxPayloadBytes,
      closeOnBackpressureLimit: false,
      upgrade: upgradeHandler(this.ctx, this.counter),
      open: (ws) => this.open(ws),
      message: (ws, data, isBinary) => this.message(ws, data, isBinary),
      drain: (ws) => this.drain(ws),
      close: (ws) => this.close(ws),
    };
  }

  /** Stops the feeds and closes every connection (1001). */
  shutdown(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    this.stopQuotes();
    this.fanout.close();
    this.events.close();
    this.accounts.close();
    for (const conn of [...this.conns]) conn.end(CLOSE_GOING_AWAY, 'server shutting down');
  }

  /** A key paused, revoked or expired (or stripped of `read`) since its upgrade loses its streams. */
  private endRefusedKeys(nowMs: UnixMs): void {
    for (const conn of [...this.conns]) {
      const key = this.ctx.auth.keys.get(conn.session.keyId);
      const refusal = keyRefusal(key, nowMs) ?? (key?.record.scopes.includes('read') ? null : 'key lacks the read scope');
      if (refusal !== null) conn.end(CLOSE_POLICY, refusal);
    }
  }

  private open(ws: WebSocket<Session>): void {
    const session = ws.getUserData();
    const conn = new StreamConnection(ws, session, this.queue, {
      maxBufferBytes: this.ctx.config.stream.max_buffer_bytes,
      opsPerSecond: STREAM_TUNING.opsPerSecond,
      opsBurst: STREAM_TUNING.opsBurst,
    }, this.ctx.clock.nowMs(), this.ctx.log);
    session.conn = conn;
    this.conns.add(conn);
    this.ctx.metrics.wsOpen();
    ws.subscribe(HEARTBEAT_TOPIC);
    conn.log.debug({ login: session.login, ip: session.ip }, 'stream open');
  }

  private close(ws: WebSocket<Session>): void {
    const session = ws.getUserData();
    this.counter.release(session.keyId);
    const conn = session.conn;
    if (!conn) return;
    conn.markClosed();
    this.conns.delete(conn);
    this.ctx.metrics.wsClose();
    this.fanout.drop(conn);
    this.events.drop(conn);
    this.accounts.drop(conn);
    this.live.drop(conn);
    this.deadMan.dropped(conn, this.closed);
    conn.log.debug('stream closed');
  }

  private drain(ws: WebSocket<Session>): void {
    const conn = ws.getUserData().conn;
    if (!conn?.isOpen) return;
    this.fanout.onDrain(conn);
    this.events.onDrain(conn);
    this.live.onDrain(conn);
  }

  private message(ws: WebSocket<Session>, data: ArrayBuffer, isBinary: boolean): void {
    const conn = ws.getUserData().conn;
    if (!conn?.isOpen) return;
    if (!conn.ops.take(this.ctx.clock.nowMs())) {
      const refused = (this.refusals.get(conn) ?? 0) + 1;
      this.refusals.set(conn, refused);
      if (refused >= STREAM_TUNING.abusiveRefusals) {
        conn.log.warn({ refused }, 'stream client flooding: closed');
        conn.end(CLOSE_POLICY, `too many messages: more than ${STREAM_TUNING.opsPerSecond} per second`);
        return;
      }
      conn.push(errorText(null, new StreamError('rate_limited', `at most ${STREAM_TUNING.opsPerSecond} messages per second (burst ${STREAM_TUNING.opsBurst})`)));
      return;
    }
    this.refusals.delete(conn);
    if (data.byteLength > STREAM_TUNING.maxMessageBytes) {
      conn.log.warn({ bytes: data.byteLength }, 'stream client sent an oversized message: closed');
      conn.end(CLOSE_TOO_BIG, `message too big: at most ${STREAM_TUNING.maxMessageBytes} bytes`);
      return;
    }
    if (isBinary) {
      conn.push(errorText(null, new StreamError('bad_request', 'binary frames are not accepted: send JSON text frames')));
      return;
    }
    let id: OpId = null;
    try {
      const parsed = parseOp(Buffer.from(data).toString('utf8'));
      if (!parsed.ok) {
        const p = parsed.problem;
        conn.push(errorText(p.id, new StreamError('bad_request', p.message, p.field)));
        return;
      }
      id = parsed.op.id;
      this.handle(conn, parsed.op);
    } catch (err) {
      if (err instanceof StreamError) {
        conn.push(errorText(id, err));
        return;
      }
      // A bug, never the client's doing: logged, answered, and the connection goes on.
      conn.log.error({ err }, 'stream op failed');
      conn.push(internalErrorText(id));
    }
  }

  private handle(conn: StreamConnection, op: ClientOp): void {
    switch (op.op) {
      case 'ping': conn.push(pongText(op.id, this.ctx.clock.nowMs())); return;
      case 'subscribe': this.subscribe(conn, op); return;
      case 'unsubscribe': this.unsubscribe(conn, op); return;
      case 'cancel_all_after': this.deadMan.cancelAllAfter(conn, op, errorText); return;
      case 'cancel_on_disconnect': conn.push(this.deadMan.cancelOnDisconnect(conn, op)); return;
    }
  }

  /** Checks the whole op first: a refused subscribe changes nothing. */
  private subscribe(conn: StreamConnection, op: SubscribeOp): void {
    const login = this.loginOf(conn, op);
    const eventChannels = op.channels.filter(isEventChannel);
    const wantsAccount = op.channels.includes('account');
    if (op.symbols.length > 0) {
      const unknown = op.symbols.filter((s) => !this.fanout.has(s));
      if (unknown.length > 0) throw new StreamError('not_found', `unknown symbol${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 10).map((s) => JSON.stringify(s)).join(', ')}`, 'symbols');
      const current = this.fanout.symbolsOf(conn);
      const total = current.size + op.symbols.filter((s) => !current.has(s)).length;
      const max = this.ctx.config.stream.max_symbols_per_connection;
      if (total > max) throw new StreamError('rate_limited', `a connection may subscribe to at most ${max} symbols; this would make ${total}`, 'symbols');
    }
    if (eventChannels.length > 0 || wantsAccount) {
      const problem = this.events.check(conn, login, eventChannels.length > 0 ? op.sinceSeq : null);
      if (problem) throw problem;
    }
    conn.push(ackText('subscribed', { id: op.id, channels: op.channels, symbols: op.symbols, login: op.channels.some((c) => c !== 'quotes') ? login : null }));
    if (op.symbols.length > 0) this.fanout.add(conn, op.symbols);
    if (eventChannels.length > 0) this.events.subscribe(conn, login, eventChannels, op.sinceSeq);
    if (eventChannels.includes('positions')) this.live.add(conn, login);
    if (wantsAccount) this.accounts.subscribe(conn, login);
  }

  private unsubscribe(conn: StreamConnection, op: UnsubscribeOp): void {
    const login = this.loginOf(conn, op);
    const eventChannels = op.channels.filter(isEventChannel);
    const current = this.fanout.symbolsOf(conn);
    const symbols = !op.channels.includes('quotes') ? [] : op.symbols === null ? [...current] : op.symbols.filter((s) => current.has(s));
    conn.push(ackText('unsubscribed', { id: op.id, channels: op.channels, symbols, login: op.channels.some((c) => c !== 'quotes') ? login : null }));
    if (symbols.length > 0) this.fanout.remove(conn, symbols);
    if (eventChannels.length > 0) this.events.unsubscribe(conn, login, eventChannels);
    if (eventChannels.includes('positions')) this.live.remove(conn, login);
    if (op.channels.includes('account')) this.accounts.unsubscribe(conn, login);
  }

  /** The key's account; any other login is not visible to it (DECISIONS: not_found). */
  private loginOf(conn: StreamConnection, op: SubscribeOp | UnsubscribeOp): string {
    const own = conn.session.login;
    if (op.login !== null && op.login !== own) throw new StreamError('not_found', `account ${op.login} is not visible to this key`, 'login');
    return own;
  }
}
