// OrderCancelRequest (F) → 8 Canceled (150=4) and OrderCancelReplaceRequest (G) → 8 Replaced
// (150=5), or OrderCancelReject (9, 434=1 for F, 2 for G) with CxlRejReason (102) and a Text. The
// order is named by OrderID (37) when given, else by OrigClOrdID (41): the ClOrdID that names it
// now on this session (a D's, or the last accepted F/G's), or the client id of an order the session
// has seen; an order the session does not know (placed before a reconnect or a restart, or
// forgotten) is asked of its shard first. An accepted F or G makes its ClOrdID the order's new
// name, as FIX chains them. G changes price and quantity, never type, side or symbol.
import {
  type OrderCancelReplaceRequest, type OrderCancelRequest, readOrderCancelReplaceRequest, readOrderCancelRequest,
} from '../codec/inbound/orders.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { CxlRejReason, type CxlRejReasonValue, CxlRejResponseTo, type CxlRejResponseToValue, OrdType } from '../dictionary.js';
import type { Command, OrderEvent, OrderRecord, Reject } from '../../engine/types.js';
import type { Answer, OrderRef } from '../../shard/protocol.js';
import { RATE_LIMITED_TEXT, busyText, lacksScope, rejectText, reportAccepted, sendCancelReject, symbolOf, type Desk } from './desk.js';
import { ORD_TYPE_OF, SIDE_OF, execTypeOf } from './execution.js';
import { centilotsOf, decimalText, ticksOf } from './units.js';

type Request = OrderCancelRequest | OrderCancelReplaceRequest;

interface Target {
  readonly t: 'target';
  readonly orderId: string;
  /** The order as last known (null: the shard knows no such order id and decides). */
  readonly order: OrderRecord | null;
}

interface Refusal { readonly t: 'refusal'; readonly reason: CxlRejReasonValue; readonly text: string; readonly orderId: string | null; readonly order: OrderRecord | null }

const refusal = (reason: CxlRejReasonValue, text: string, order: OrderRecord | null = null, orderId = order?.id ?? null): Refusal =>
  ({ t: 'refusal', reason, text, orderId, order });

function cxlRejReasonOf(r: Reject): CxlRejReasonValue {
  if (r.name === 'not_found') return CxlRejReason.UnknownOrder;
  if (r.name === 'invalid_order' && r.field === 'id') return CxlRejReason.TooLateToCancel;
  return CxlRejReason.Other;
}

/** Checks shared by F and G that need no order. */
function precheck(desk: Desk, m: Request, throttled: boolean): Refusal | null {
  if (throttled) return refusal(CxlRejReason.Other, RATE_LIMITED_TEXT);
  if (m.account !== null && m.account !== desk.login) {
    return refusal(CxlRejReason.Other, `Account (1) ${m.account} is not the account of this session (${desk.login})`);
  }
  const forbidden = lacksScope(desk, 'trade');
  if (forbidden !== null) return refusal(CxlRejReason.Other, forbidden);
  if (desk.tracker.used(m.clOrdId)) return refusal(CxlRejReason.DuplicateClOrdID, `ClOrdID (11) ${m.clOrdId} was already used on this session`);
  return null;
}

/** Checks of the order found (or not) for the request. */
function checkOrder(desk: Desk, m: Request, orderId: string | null, order: OrderRecord | null): Target | Refusal {
  if (order === null) {
    if (orderId === null) return refusal(CxlRejReason.UnknownOrder, `not_found: no order of account ${desk.login} has ClOrdID ${m.origClOrdId}`);
    return { t: 'target', orderId, order: null };
  }
  if (order.status !== 'pending') {
    return refusal(CxlRejReason.TooLateToCancel, `invalid_order: order ${order.id} is ${order.status}: only pending orders can be cancelled or replaced`, order);
  }
  if (order.symbol !== m.symbol || SIDE_OF[order.side] !== m.side) {
    return refusal(CxlRejReason.Other, `order ${order.id} is ${order.side} ${order.symbol}: Symbol (55) and Side (54) must match it`, order);
  }
  return { t: 'target', orderId: order.id, order };
}

/**
 * Runs `then` with the order the request names, at once when this session knows it, else once its
 * shard answered; or answers the request with a 9 when it cannot go on.
 */
function withTarget(desk: Desk, m: Request, throttled: boolean, responseTo: CxlRejResponseToValue, then: (t: Target) => void): void {
  const go = (t: Target | Refusal): void => {
    if (t.t === 'refusal') sendCancelReject(desk, m, t.orderId, responseTo, t.reason, t.text, t.order);
    else then(t);
  };
  const early = precheck(desk, m, throttled);
  if (early !== null) {
    go(early);
    return;
  }
  const orderId = m.orderId ?? desk.tracker.orderIdOf(m.origClOrdId) ?? null;
  const known = orderId === null ? undefined : desk.tracker.order(orderId);
  if (known !== undefined) {
    go(checkOrder(desk, m, orderId, known));
    return;
  }
  const ref: OrderRef = orderId === null ? { by: 'clientId', clientId: m.origClOrdId } : { by: 'id', orderId };
  const sent = desk.deps.shards.findOrder(desk.login, ref, (order) => {
    if (order !== null) desk.tracker.see(order);
    go(checkOrder(desk, m, orderId, order));
  });
  if (!sent) go(refusal(CxlRejReason.Other, busyText(desk.login), null, orderId));
}

function send(desk: Desk, m: Request, responseTo: CxlRejResponseToValue, t: Target, cmd: Command): void {
  const sent = desk.deps.shards.command(desk.login, cmd, (answer, event) => answered(desk, m, responseTo, t, answer, event));
  if (!sent) sendCancelReject(desk, m, t.orderId, responseTo, CxlRejReason.Other, busyText(desk.login), t.order);
}

function answered(desk: Desk, m: Request, responseTo: CxlRejResponseToValue, t: Target, answer: Answer, event: OrderEvent | null): void {
  if (answer.t === 'rejected') {
    sendCancelReject(desk, m, t.orderId, responseTo, cxlRejReasonOf(answer.reject), rejectText(answer.reject), answer.reject.order ?? t.order);
    return;
  }
  if (answer.t === 'unavailable') {
    sendCancelReject(desk, m, t.orderId, responseTo, CxlRejReason.Other, `unavailable: ${answer.message}`, t.order);
    return;
  }
  if (answer.t !== 'done' || (answer.result.kind !== 'cancel' && answer.result.kind !== 'replace')) {
    sendCancelReject(desk, m, t.orderId, responseTo, CxlRejReason.Other, 'internal error: unexpected shard reply', t.order);
    return;
  }
  const order = answer.result.order;
  reportAccepted(desk, order, m, event, execTypeOf(order, answer.result.kind === 'replace'), event?.ts ?? desk.nowMs());
}

export function onOrderCancelRequest(desk: Desk, r: FixReader, throttled: boolean): void {
  const m = readOrderCancelRequest(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  withTarget(desk, m, throttled, CxlRejResponseTo.OrderCancelRequest, (t) => {
    send(desk, m, CxlRejResponseTo.OrderCancelRequest, t, { kind: 'cancel', login: desk.login, orderId: t.orderId, source: 'api', keyId: desk.keyId });
  });
}

export function onOrderCancelReplaceRequest(desk: Desk, r: FixReader, throttled: boolean): void {
  const m = readOrderCancelReplaceRequest(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  withTarget(desk, m, throttled, CxlRejResponseTo.OrderCancelReplaceRequest, (t) => replaceTarget(desk, m, t));
}

function replaceTarget(desk: Desk, m: OrderCancelReplaceRequest, t: Target): void {
  const refuse = (reason: CxlRejReasonValue, text: string, orderId: string | null): void =>
    sendCancelReject(desk, m, orderId, CxlRejResponseTo.OrderCancelReplaceRequest, reason, text, t.order);
  if (m.ordType !== OrdType.Limit && m.ordType !== OrdType.Stop) {
    refuse(CxlRejReason.Other, `OrdType (40) ${m.ordType}: only pending limit (2) and stop (3) orders can be replaced`, t.orderId);
    return;
  }
  if (t.order !== null && ORD_TYPE_OF[t.order.type] !== m.ordType) {
    refuse(CxlRejReason.Other, `order ${t.orderId} is a ${t.order.type} order: OrdType (40) cannot change`, t.orderId);
    return;
  }
  const sym = symbolOf(desk, m.symbol);
  if (sym === undefined) {
    refuse(CxlRejReason.Other, `unknown symbol ${m.symbol}`, t.orderId);
    return;
  }
  const priceField = m.ordType === OrdType.Limit ? m.price : m.stopPx;
  const price = priceField === null ? null : ticksOf(priceField, sym.spec);
  if (priceField === null || price === null) {
    const name = m.ordType === OrdType.Limit ? 'Price (44)' : 'StopPx (99)';
    refuse(CxlRejReason.Other, `invalid_order: ${name} must be positive with at most ${sym.spec.digits} decimals for ${sym.spec.name}`, t.orderId);
    return;
  }
  const volume = centilotsOf(m.orderQty, sym.contract);
  if (volume === null) {
    refuse(CxlRejReason.Other, `invalid_order: OrderQty (38) ${decimalText(m.orderQty)} is not a positive whole number of 0.01 lots (1 lot = ${decimalText(sym.contract)} units of ${sym.spec.name})`, t.orderId);
    return;
  }
  send(desk, m, CxlRejResponseTo.OrderCancelReplaceRequest, t, {
    kind: 'replace', login: desk.login, orderId: t.orderId, price, volume, source: 'api', keyId: desk.keyId,
  });
}
