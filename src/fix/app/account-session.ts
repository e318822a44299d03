// The application side of one logged-on session: routes D, F, G, H, q, V and AN to their handlers,
// answers other application messages with j (380=3 unsupported, 380=99 throttled), and turns the
// account's events that were not answers to this session's own requests into unsolicited
// ExecutionReports: orders placed elsewhere (REST, console, webhooks) and their fills, pending
// orders triggered or cancelled (kill switch), positions closed by SL/TP, kill switch, REST or
// webhooks (see docs/fix.md for the mapping). With cancel-on-disconnect (config
// fix.cancel_on_disconnect, or Logon tag 8013), a session that ends without a Logout handshake
// fires the key's dead-man's switch: the account's pending orders placed through the key are
// cancelled; a clean Logout never does.
import type { FixHeader } from '../codec/inbound/header.js';
import type { FixReader } from '../codec/reader.js';
import { ExecType, MsgType } from '../dictionary.js';
import type { KeyScope } from '../../config/types.js';
import type { OrderEvent, PositionEvent, UnixMs } from '../../engine/types.js';
import type { FixSession } from '../session/session.js';
import type { SessionApp } from '../session/types.js';
import { onOrderCancelReplaceRequest, onOrderCancelRequest } from './cancel-replace.js';
import { RATE_LIMITED_TEXT, sendBusinessReject, sendReport, type Desk } from './desk.js';
import { type ExecIds, execTypeOf, orderReport, positionCloseReport } from './execution.js';
import type { AccountLogon } from './logon-check.js';
import { MarketDataDesk, type MarketDataFanout } from './market-data.js';
import { onOrderMassCancelRequest } from './mass-cancel.js';
import { onNewOrderSingle } from './new-order.js';
import { onOrderStatusRequest } from './order-status.js';
import { OrderTracker } from './order-tracker.js';
import type { AppDeps } from './ports.js';
import { onRequestForPositions, PositionFeed, type ProfitBook } from './positions.js';
import type { SessionEnd } from '../session/types.js';

const DISCONNECT_RETRY_MS = 5;
const DISCONNECT_RETRIES = 2000;

/** What every account session of a thread shares. */
export interface SharedDesks {
  readonly deps: AppDeps;
  readonly execIds: ExecIds;
  readonly fanout: MarketDataFanout;
  readonly profits: ProfitBook;
  nowMs(): UnixMs;
}

export class AccountSession implements SessionApp, Desk {
  readonly login: string;
  readonly keyId: string;
  readonly scopes: readonly KeyScope[];
  readonly tracker = new OrderTracker();
  readonly deps: AppDeps;
  readonly execIds: ExecIds;
  private readonly marketData: MarketDataDesk;
  private readonly positionFeed: PositionFeed;
  /** Fire the key's dead-man's switch when the session drops without a Logout. */
  private readonly cancelOnDisconnect: boolean;

  constructor(
    readonly session: FixSession,
    logon: Extract<AccountLogon, { ok: true }>,
    private readonly shared: SharedDesks,
    private readonly ended: (account: AccountSession) => void,
  ) {
    this.login = logon.login;
    this.keyId = logon.keyId;
    this.scopes = logon.scopes;
    this.deps = shared.deps;
    this.execIds = shared.execIds;
    this.marketData = new MarketDataDesk(session, shared.deps, shared.fanout);
    this.positionFeed = new PositionFeed(this, shared.profits);
    this.cancelOnDisconnect = logon.cancelOnDisconnect;
    // The account's pending orders become known to the session, so F and G find them at once.
    shared.deps.shards.query(this.login, (snapshot) => { for (const o of snapshot?.pendingOrders ?? []) this.tracker.see(o); });
  }

  nowMs(): UnixMs {
    return this.shared.nowMs();
  }

  onMessage(msgType: string, r: FixReader, h: FixHeader, throttled: boolean): void {
    switch (msgType) {
      case MsgType.NewOrderSingle: onNewOrderSingle(this, r, throttled); return;
      case MsgType.OrderCancelRequest: onOrderCancelRequest(this, r, throttled); return;
      case MsgType.OrderCancelReplaceRequest: onOrderCancelReplaceRequest(this, r, throttled); return;
      case MsgType.OrderMassCancelRequest: onOrderMassCancelRequest(this, r, throttled); return;
      default:
        if (throttled) {
          sendBusinessReject(this, msgType, h.msgSeqNum, null, true, RATE_LIMITED_TEXT);
          return;
        }
        if (msgType === MsgType.MarketDataRequest) this.marketData.onRequest(r);
        else if (msgType === MsgType.RequestForPositions) onRequestForPositions(this, r, this.shared.profits, this.positionFeed);
        else if (msgType === MsgType.OrderStatusRequest) onOrderStatusRequest(this, r);
        else sendBusinessReject(this, msgType, h.msgSeqNum, null, false, `Unsupported Message Type ${msgType}: this gateway takes D, F, G, H, q, V and AN`);
    }
  }

  /** An order event of this account that answered no request of this session. */
  onOrderEvent(e: OrderEvent): void {
    const order = e.order;
    const sym = this.deps.symbols.get(order.symbol);
    const known = this.tracker.status(order.id);
    this.tracker.see(order);
    if (sym === undefined) return;
    const execType = order.status === 'pending' && known === 'pending' ? ExecType.Replaced : execTypeOf(order, false);
    sendReport(this, orderReport(order, sym, { clOrdId: this.tracker.clOrdIdOf(order), origClOrdId: null, execId: this.execIds.ofEvent(this.login, e.seq) },
      execType, e.ts, null));
  }

  /** A position event: closes (full or partial) are reported; an opening is its order's fill. */
  onPositionEvent(e: PositionEvent): void {
    this.positionFeed.onPositionEvent(e);
    if (e.status === 'open') return;
    const sym = this.deps.symbols.get(e.position.symbol);
    if (sym === undefined) return;
    sendReport(this, positionCloseReport(e, sym, this.execIds.ofEvent(this.login, e.seq)));
  }

  onWritable(): void {
    this.marketData.onWritable();
  }

  onEnd(end: SessionEnd): void {
    this.marketData.end();
    this.positionFeed.stop();
    this.ended(this);
    if (end === 'dropped' && this.cancelOnDisconnect) this.fireOnDisconnect(0);
  }

  /** A shard whose ring is full refuses at once: the firing must not be lost, so it is retried. */
  private fireOnDisconnect(attempt: number): void {
    const cmd = { kind: 'fireDeadMan', login: this.login, keyId: this.keyId, cause: 'disconnect', closePositions: false } as const;
    if (this.deps.shards.command(this.login, cmd, () => undefined)) return;
    if (attempt < DISCONNECT_RETRIES) setTimeout(() => this.fireOnDisconnect(attempt + 1), DISCONNECT_RETRY_MS).unref();
  }
}
