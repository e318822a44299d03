// What the handlers of one logged-on account share: its session, key, order names, ids, the
// thread's dependencies and the few ways they answer (8, 9, j).
import { encodeBusinessMessageReject } from '../codec/outbound/business-reject.js';
import { encodeExecutionReport, encodeOrderCancelReject, type ExecutionReportFields } from '../codec/outbound/orders.js';
import type { OrderCancelRequest, OrderCancelReplaceRequest } from '../codec/inbound/orders.js';
import {
  BusinessRejectReason, type CxlRejReasonValue, type CxlRejResponseToValue, type ExecTypeValue, MsgType, OrdStatus, type OrdStatusValue,
} from '../dictionary.js';
import type { KeyScope } from '../../config/types.js';
import type { OrderEvent, OrderRecord, Reject, UnixMs } from '../../engine/types.js';
import type { FixSession } from '../session/session.js';
import { ORD_STATUS_OF, orderReport, type ExecIds } from './execution.js';
import type { OrderTracker } from './order-tracker.js';
import type { AppDeps, FixSymbol } from './ports.js';

/** The Text (58) of a throttled message (DECISIONS: 58=rate_limited). */
export const RATE_LIMITED_TEXT = 'rate_limited: more than 50 messages per second (burst 100) on this session';

export interface Desk {
  readonly session: FixSession;
  readonly login: string;
  readonly keyId: string;
  readonly scopes: readonly KeyScope[];
  readonly deps: AppDeps;
  readonly tracker: OrderTracker;
  readonly execIds: ExecIds;
  nowMs(): UnixMs;
}

export function sendReport(desk: Desk, fields: ExecutionReportFields): void {
  desk.session.send(MsgType.ExecutionReport, (w, h) => encodeExecutionReport(w, h, fields));
}

export function lacksScope(desk: Desk, scope: KeyScope): string | null {
  return desk.scopes.includes(scope) ? null : `forbidden: API key ${desk.keyId} lacks the ${scope} scope`;
}

/** `<name>: <message>` of an engine reject, the 58 of the 8 or 9 it causes. */
export function rejectText(r: Reject): string {
  return `${r.name}: ${r.message}`;
}

export function busyText(login: string): string {
  return `busy: the shard of account ${login} is saturated; retry shortly`;
}

/** OrdStatus (39) of an order for a 9: what the shard's answer or this session knows, Rejected when unknown. */
export function ordStatusOf(desk: Desk, orderId: string | null, known: OrderRecord | null): OrdStatusValue {
  if (orderId === null) return OrdStatus.Rejected;
  const status = known?.status ?? desk.tracker.status(orderId);
  return status === undefined ? OrdStatus.Rejected : ORD_STATUS_OF[status];
}

export function sendCancelReject(
  desk: Desk, m: OrderCancelRequest | OrderCancelReplaceRequest, orderId: string | null, responseTo: CxlRejResponseToValue,
  reason: CxlRejReasonValue, text: string, known: OrderRecord | null = null,
): void {
  const ordStatus = ordStatusOf(desk, orderId, known);
  desk.session.send(MsgType.OrderCancelReject, (w, h) => encodeOrderCancelReject(w, h, {
    orderId: orderId ?? 'NONE', clOrdId: m.clOrdId, origClOrdId: m.origClOrdId, ordStatus, account: desk.login,
    transactTimeMs: desk.nowMs(), cxlRejResponseTo: responseTo, cxlRejReason: reason, text,
  }));
}

/** j for an application message this gateway will not process (throttle, unsupported type). */
export function sendBusinessReject(desk: Desk, msgType: string, refSeqNum: number, refId: string | null, throttled: boolean, text: string): void {
  const reason = throttled ? BusinessRejectReason.ThrottleLimitExceeded : BusinessRejectReason.UnsupportedMessageType;
  desk.session.send(MsgType.BusinessMessageReject, (w, h) => encodeBusinessMessageReject(w, h, {
    refSeqNum, refMsgType: msgType, businessRejectRefId: refId, reason, text,
  }));
}

export function symbolOf(desk: Desk, name: string): FixSymbol | undefined {
  return desk.deps.symbols.get(name);
}

/**
 * The report answering this session's own accepted D, F or G: the order takes the request's
 * ClOrdID, and the ExecID is the one its event will carry, so the unsolicited copy is recognised.
 */
export function reportAccepted(
  desk: Desk, order: OrderRecord, names: { readonly clOrdId: string; readonly origClOrdId: string | null },
  event: OrderEvent | null, execType: ExecTypeValue, transactTimeMs: number,
): void {
  const sym = symbolOf(desk, order.symbol);
  if (sym === undefined) return;
  desk.tracker.name(order, names.clOrdId);
  const execId = event === null ? desk.execIds.next(desk.login) : desk.execIds.ofEvent(desk.login, event.seq);
  // Spelled out: a spread that adds a key costs ~1 µs in V8, more than the rest of the report.
  sendReport(desk, orderReport(order, sym, { clOrdId: names.clOrdId, origClOrdId: names.origClOrdId, execId }, execType, transactTimeMs, null));
}
