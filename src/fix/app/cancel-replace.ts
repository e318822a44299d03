// OrderCancelRequest (F) → 8 Canceled (150=4) and OrderCancelReplaceRequest (G) → 8 Replaced
// (150=5), or OrderCancelReject (9, 434=1 for F, 2 for G) with CxlRejReason (102) and a Text. The
// order is named by OrderID (37) when given, else by OrigClOrdID (41): the ClOrdID that names it
// now on this session (a D's, or the last accepted F/G's), else the engine's durable client-id
// memory (an order placed before a reconnect or a restart). An accepted F or G makes its ClOrdID
// the order's new name, as FIX chains them. G changes price and quantity, never type, side or symbol.
import {
  type OrderCancelReplaceRequest, type OrderCancelRequest, readOrderCancelReplaceRequest, readOrderCancelRequest,
} from '../codec/inbound/orders.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { CxlRejReason, type CxlRejReasonValue, CxlRejResponseTo, type CxlRejResponseToValue, OrdType } from '../dictionary.js';
import type { Command, OrderEvent, OrderRecord, Reject } from '../../engine/types.js';
import type { ReplyBody } from '../../shard/protocol.js';
import { RATE_LIMITED_TEXT, busyText, lacksScope, rejectText, reportAccepted, sendCancelReject, symbolOf, type Desk } from './desk.js';
import { ORD_TYPE_OF, SIDE_OF, execTypeOf } from './execution.js';
import { centilotsOf, decimalText, ticksOf } from './units.js';

type Request = OrderCancelRequest | OrderCancelReplaceRequest;

interface Target {
  readonly orderId: string;
  /** The stored order when the store already has it (null: the shard decides). */
  readonly order: OrderRecord | null;
}

function cxlRejReasonOf(r: Reject): CxlRejReasonValue {
  if (r.name === 'not_found') return CxlRejReason.UnknownOrder;
  if (r.name === 'invalid_order' && r.field === 'id') return CxlRejReason.TooLateToCancel;
  return CxlRejReason.Other;
}

function resolve(desk: Desk, m: Request): Target | null {
  const orderId = m.orderId ?? desk.tracker.orderIdOf(m.origClOrdId) ?? desk.deps.orders.orderIdOfClientId(desk.login, m.origClOrdId);
  if (orderId === null) return null;
  return { orderId, order: desk.deps.orders.order(desk.login, orderId) };
}

/** Checks shared by F and G; the refusal text, or the order they are about. */
function target(desk: Desk, m: Request, throttled: boolean): Target | { readonly reason: CxlRejReasonValue; readonly text: string; readonly orderId: string | null } {
  if (throttled) return { reason: CxlRejReason.Other, text: RATE_LIMITED_TEXT, orderId: null };
  if (m.account !== null && m.account !== desk.login) {
    return { reason: CxlRejReason.Other, text: `Account (1) ${m.account} is not the account of this session (${desk.login})`, orderId: null };
  }
  const forbidden = lacksScope(desk, 'trade');
  if (forbidden !== null) return { reason: CxlRejReason.Other, text: forbidden, orderId: null };
  if (desk.tracker.used(m.clOrdId)) {
    return { reason: CxlRejReason.DuplicateClOrdID, text: `ClOrdID (11) ${m.clOrdId} was already used on this session`, orderId: null };
  }
  const t = resolve(desk, m);
  if (t === null) {
    return { reason: CxlRejReason.UnknownOrder, text: `not_found: no order of account ${desk.login} has ClOrdID ${m.origClOrdId}`, orderId: null };
  }
  const o = t.order;
  if (o !== null && o.status !== 'pending') {
    return { reason: CxlRejReason.TooLateToCancel, text: `invalid_order: order ${o.id} is ${o.status}: only pending orders can be cancelled or replaced`, orderId: o.id };
  }
  if (o !== null && (o.symbol !== m.symbol || SIDE_OF[o.side] !== m.side)) {
    return { reason: CxlRejReason.Other, text: `order ${o.id} is ${o.side} ${o.symbol}: Symbol (55) and Side (54) must match it`, orderId: o.id };
  }
  return t;
}

function send(desk: Desk, m: Request, responseTo: CxlRejResponseToValue, t: Target, cmd: Command): void {
  const sent = desk.deps.shards.command(desk.login, cmd, (body, event) => answered(desk, m, responseTo, t, body, event));
  if (!sent) sendCancelReject(desk, m, t.orderId, responseTo, CxlRejReason.Other, busyText(desk.login));
}

function answered(desk: Desk, m: Request, responseTo: CxlRejResponseToValue, t: Target, body: ReplyBody, event: OrderEvent | null): void {
  if (!body.ok) {
    sendCancelReject(desk, m, t.orderId, responseTo, cxlRejReasonOf(body.reject), rejectText(body.reject));
    return;
  }
  if (!('result' in body) || (body.result.kind !== 'cancel' && body.result.kind !== 'replace')) {
    sendCancelReject(desk, m, t.orderId, responseTo, CxlRejReason.Other, 'internal error: unexpected shard reply');
    return;
  }
  const order = body.result.order;
  reportAccepted(desk, order, m, event, execTypeOf(order, body.result.kind === 'replace'), event?.ts ?? desk.nowMs());
}

export function onOrderCancelRequest(desk: Desk, r: FixReader, throttled: boolean): void {
  const m = readOrderCancelRequest(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  const t = target(desk, m, throttled);
  if ('reason' in t) {
    sendCancelReject(desk, m, t.orderId, CxlRejResponseTo.OrderCancelRequest, t.reason, t.text);
    return;
  }
  send(desk, m, CxlRejResponseTo.OrderCancelRequest, t, { kind: 'cancel', login: desk.login, orderId: t.orderId, source: 'api', keyId: desk.keyId });
}

export function onOrderCancelReplaceRequest(desk: Desk, r: FixReader, throttled: boolean): void {
  const m = readOrderCancelReplaceRequest(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  const t = target(desk, m, throttled);
  const refuse = (reason: CxlRejReasonValue, text: string, orderId: string | null): void =>
    sendCancelReject(desk, m, orderId, CxlRejResponseTo.OrderCancelReplaceRequest, reason, text);
  if ('reason' in t) {
    refuse(t.reason, t.text, t.orderId);
    return;
  }
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
