// NewOrderSingle (D) → PlaceOrder (source `api` with the key id) → ExecutionReport: 150=F Trade for
// a market order (filled at once or not at all: 59=3 IOC), 150=0 New for a pending limit (44) or
// stop (99) order (59=1 GTC), 150=8 Rejected with OrdRejReason (103) and a Text (58) saying why.
// ClOrdID is the engine's client id, so a repeat is a duplicate (103=6) across sessions and
// restarts for as long as the engine remembers client ids (at least 24 h).
import { type NewOrderSingle, readNewOrderSingle } from '../codec/inbound/orders.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { OrdRejReason, type OrdRejReasonValue, OrdType, Side, TimeInForce } from '../dictionary.js';
import { MAX_CLIENT_ID_CHARS } from '../../engine/checks.js';
import type { OrderEvent, OrderType, PlaceOrder, Reject, Side as EngineSide } from '../../engine/types.js';
import type { Answer } from '../../shard/protocol.js';
import { RATE_LIMITED_TEXT, busyText, lacksScope, rejectText, reportAccepted, sendReport, symbolOf, type Desk } from './desk.js';
import { execTypeOf, rejectedOrderReport } from './execution.js';
import { centilotsOf, decimalText, ticksOf } from './units.js';

/** Why a D is refused before any shard is asked; `kind` tells it from the PlaceOrder it could have been. */
type Refusal = { readonly kind: 'refusal'; readonly reason: OrdRejReasonValue; readonly text: string };

const SIDES: Readonly<Record<string, EngineSide>> = { [Side.Buy]: 'buy', [Side.Sell]: 'sell' };
const TYPES: Readonly<Record<string, OrderType>> = { [OrdType.Market]: 'market', [OrdType.Limit]: 'limit', [OrdType.Stop]: 'stop' };

function refusal(reason: OrdRejReasonValue, text: string): Refusal {
  return { kind: 'refusal', reason, text };
}

/** The engine's reject as OrdRejReason (103). */
function ordRejReasonOf(r: Reject): OrdRejReasonValue {
  switch (r.name) {
    case 'invalid_order': return r.field === 'volume' ? OrdRejReason.IncorrectQuantity : OrdRejReason.Other;
    case 'market_closed': return OrdRejReason.ExchangeClosed;
    case 'duplicate_client_id': return OrdRejReason.DuplicateOrder;
    case 'not_found': return OrdRejReason.UnknownAccount;
    case 'bad_request': return r.field === 'symbol' ? OrdRejReason.UnknownSymbol : OrdRejReason.Other;
    case 'kill_switch_active': return OrdRejReason.Other;
  }
}

/** The PlaceOrder a D asks for, or why it cannot be placed (checked before any shard is asked). */
function placeCommand(desk: Desk, m: NewOrderSingle): PlaceOrder | Refusal {
  if (m.account !== null && m.account !== desk.login) {
    return refusal(OrdRejReason.UnknownAccount, `Account (1) ${m.account} is not the account of this session (${desk.login})`);
  }
  const forbidden = lacksScope(desk, 'trade');
  if (forbidden !== null) return refusal(OrdRejReason.Other, forbidden);
  if (m.clOrdId.length > MAX_CLIENT_ID_CHARS) return refusal(OrdRejReason.Other, `ClOrdID (11) is longer than ${MAX_CLIENT_ID_CHARS} characters`);
  if (desk.tracker.used(m.clOrdId)) return refusal(OrdRejReason.DuplicateOrder, `duplicate_client_id: ClOrdID (11) ${m.clOrdId} was already used on this session`);
  const sym = symbolOf(desk, m.symbol);
  if (sym === undefined) return refusal(OrdRejReason.UnknownSymbol, `unknown symbol ${m.symbol}`);
  const side = SIDES[m.side];
  if (side === undefined) return refusal(OrdRejReason.UnsupportedOrderCharacteristic, `Side (54) ${m.side} is not supported: 1 (buy) or 2 (sell)`);
  const type = TYPES[m.ordType];
  if (type === undefined) {
    return refusal(OrdRejReason.UnsupportedOrderCharacteristic, `OrdType (40) ${m.ordType} is not supported: 1 (market), 2 (limit) or 3 (stop)`);
  }
  const tif = type === 'market' ? TimeInForce.ImmediateOrCancel : TimeInForce.GoodTillCancel;
  if (m.timeInForce !== null && m.timeInForce !== tif) {
    return refusal(OrdRejReason.UnsupportedOrderCharacteristic, `TimeInForce (59) ${m.timeInForce} is not supported for ${type} orders: use ${tif} or leave it out`);
  }
  if (type !== 'limit' && m.price !== null) return refusal(OrdRejReason.UnsupportedOrderCharacteristic, `Price (44) is not allowed on a ${type} order`);
  if (type !== 'stop' && m.stopPx !== null) return refusal(OrdRejReason.UnsupportedOrderCharacteristic, `StopPx (99) is not allowed on a ${type} order`);
  const priceField = type === 'limit' ? m.price : m.stopPx;
  const price = priceField === null ? null : ticksOf(priceField, sym.spec);
  if (priceField !== null && price === null) {
    const name = type === 'limit' ? 'Price (44)' : 'StopPx (99)';
    return refusal(OrdRejReason.Other, `invalid_order: ${name} ${decimalText(priceField)} must be positive with at most ${sym.spec.digits} decimals for ${sym.spec.name}`);
  }
  const volume = centilotsOf(m.orderQty, sym.contract);
  if (volume === null) {
    return refusal(OrdRejReason.IncorrectQuantity, `invalid_order: OrderQty (38) ${decimalText(m.orderQty)} is not a positive whole number of 0.01 lots (1 lot = ${decimalText(sym.contract)} units of ${sym.spec.name})`);
  }
  // The codec already answered a limit without 44 or a stop without 99 (j 380=5).
  if (price === null && type !== 'market') return refusal(OrdRejReason.Other, `a ${type} order needs a price`);
  return {
    kind: 'place', login: desk.login, symbol: sym.spec.name, side, type, volume, sizing: null, price, sl: null, tp: null,
    clientId: m.clOrdId, source: 'api', keyId: desk.keyId, webhookId: null,
  };
}

function refuse(desk: Desk, m: NewOrderSingle, r: Refusal): void {
  sendReport(desk, rejectedOrderReport(m, desk.login, desk.execIds.next(desk.login), r.reason, r.text, desk.nowMs()));
}

function onPlaced(desk: Desk, m: NewOrderSingle, answer: Answer, event: OrderEvent | null): void {
  if (answer.t === 'rejected') {
    refuse(desk, m, refusal(ordRejReasonOf(answer.reject), rejectText(answer.reject)));
    return;
  }
  if (answer.t === 'unavailable') {
    refuse(desk, m, refusal(OrdRejReason.Other, `unavailable: ${answer.message}`));
    return;
  }
  if (answer.t !== 'done' || answer.result.kind !== 'place') {
    refuse(desk, m, refusal(OrdRejReason.Other, 'internal error: unexpected shard reply'));
    return;
  }
  const order = answer.result.order;
  reportAccepted(desk, order, { clOrdId: m.clOrdId, origClOrdId: null }, event, execTypeOf(order, false), order.filledAt ?? order.createdAt);
}

export function onNewOrderSingle(desk: Desk, r: FixReader, throttled: boolean): void {
  const m = readNewOrderSingle(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  if (throttled) {
    refuse(desk, m, refusal(OrdRejReason.Other, RATE_LIMITED_TEXT));
    return;
  }
  const cmd = placeCommand(desk, m);
  if (cmd.kind === 'refusal') {
    refuse(desk, m, cmd);
    return;
  }
  const sent = desk.deps.shards.command(desk.login, cmd, (answer, event) => onPlaced(desk, m, answer, event));
  if (!sent) refuse(desk, m, refusal(OrdRejReason.Other, busyText(desk.login)));
}
