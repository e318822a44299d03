// Inbound order messages: NewOrderSingle (D), OrderCancelRequest (F), OrderCancelReplaceRequest
// (G), OrderStatusRequest (H), OrderMassCancelRequest (q). Quantities and prices stay exact decimals: the gateway converts them with the symbol's
// contract size and digits (decimalToScale detects a price with too many decimals).
import {
  HandlInst, type HandlInstValue, MassCancelRequestType, type MassCancelRequestTypeValue, OrdType, Side, type SideValue, Tag, TimeInForce,
} from '../../dictionary.js';
import type { FixDecimal } from '../decimal.js';
import type { OrderTerms } from '../order-terms.js';
import { CONDITIONALLY_REQUIRED, type FixProblem } from '../problem.js';
import { charEnum } from '../char-enum.js';
import type { FixReader } from '../reader.js';

const SIDES = charEnum(Side);
const ORD_TYPES = charEnum(OrdType);
const TIME_IN_FORCES = charEnum(TimeInForce);
const HANDL_INSTS = charEnum(HandlInst);
const MASS_CANCEL_REQUEST_TYPES = charEnum(MassCancelRequestType);
/** FIX44: Price (44) is required for limit order types, StopPx (99) for stop order types. */
const NEEDS_PRICE: ReadonlySet<string> = new Set([OrdType.Limit, OrdType.StopLimit, OrdType.LimitOrBetter, OrdType.LimitWithOrWithout]);
const NEEDS_STOP_PX: ReadonlySet<string> = new Set([OrdType.Stop, OrdType.StopLimit]);

export interface NewOrderSingle extends OrderTerms {
  readonly clOrdId: string;
  readonly account: string | null;
  readonly transactTimeMs: number;
  readonly handlInst: HandlInstValue | null;
  readonly locateReqd: boolean | null;
  readonly expireTimeMs: number | null;
  readonly text: string | null;
}

/**
 * A missing conditionally required price is a BusinessMessageReject (380=5), as QuickFIX/J
 * answers; checked after every other field so a session-level problem takes precedence.
 */
function requirePrices(r: FixReader, m: OrderTerms): void {
  if (m.price === null && NEEDS_PRICE.has(m.ordType)) r.fail(CONDITIONALLY_REQUIRED, Tag.Price);
  if (m.stopPx === null && NEEDS_STOP_PX.has(m.ordType)) r.fail(CONDITIONALLY_REQUIRED, Tag.StopPx);
}

function readOrderTerms(r: FixReader): OrderTerms {
  return {
    symbol: r.reqStr(Tag.Symbol),
    side: r.reqEnumChar(Tag.Side, SIDES),
    orderQty: r.reqDecimal(Tag.OrderQty),
    ordType: r.reqEnumChar(Tag.OrdType, ORD_TYPES),
    price: r.decimal(Tag.Price),
    stopPx: r.decimal(Tag.StopPx),
    timeInForce: r.enumChar(Tag.TimeInForce, TIME_IN_FORCES),
  };
}

export function readNewOrderSingle(r: FixReader): NewOrderSingle | FixProblem {
  r.beginRead();
  const m: NewOrderSingle = {
    clOrdId: r.reqStr(Tag.ClOrdID),
    account: r.str(Tag.Account),
    ...readOrderTerms(r),
    transactTimeMs: r.reqUtcTimestamp(Tag.TransactTime),
    handlInst: r.enumChar(Tag.HandlInst, HANDL_INSTS),
    locateReqd: r.bool(Tag.LocateReqd),
    expireTimeMs: r.utcTimestamp(Tag.ExpireTime),
    text: r.str(Tag.Text),
  };
  requirePrices(r, m);
  return r.problem() ?? m;
}

export interface OrderCancelRequest {
  readonly origClOrdId: string;
  readonly clOrdId: string;
  readonly orderId: string | null;
  readonly account: string | null;
  readonly symbol: string;
  readonly side: SideValue;
  readonly orderQty: FixDecimal | null;
  readonly transactTimeMs: number;
  readonly text: string | null;
}

export function readOrderCancelRequest(r: FixReader): OrderCancelRequest | FixProblem {
  r.beginRead();
  const m: OrderCancelRequest = {
    origClOrdId: r.reqStr(Tag.OrigClOrdID),
    clOrdId: r.reqStr(Tag.ClOrdID),
    orderId: r.str(Tag.OrderID),
    account: r.str(Tag.Account),
    symbol: r.reqStr(Tag.Symbol),
    side: r.reqEnumChar(Tag.Side, SIDES),
    orderQty: r.decimal(Tag.OrderQty),
    transactTimeMs: r.reqUtcTimestamp(Tag.TransactTime),
    text: r.str(Tag.Text),
  };
  return r.problem() ?? m;
}

export interface OrderCancelReplaceRequest extends OrderTerms {
  readonly origClOrdId: string;
  readonly clOrdId: string;
  readonly orderId: string | null;
  readonly account: string | null;
  readonly transactTimeMs: number;
  readonly text: string | null;
}

export function readOrderCancelReplaceRequest(r: FixReader): OrderCancelReplaceRequest | FixProblem {
  r.beginRead();
  const m: OrderCancelReplaceRequest = {
    origClOrdId: r.reqStr(Tag.OrigClOrdID),
    clOrdId: r.reqStr(Tag.ClOrdID),
    orderId: r.str(Tag.OrderID),
    account: r.str(Tag.Account),
    ...readOrderTerms(r),
    transactTimeMs: r.reqUtcTimestamp(Tag.TransactTime),
    text: r.str(Tag.Text),
  };
  requirePrices(r, m);
  return r.problem() ?? m;
}

/** OrderStatusRequest (H): the order by OrderID (37) when given, else by ClOrdID (11). */
export interface OrderStatusRequest {
  readonly clOrdId: string;
  readonly orderId: string | null;
  readonly ordStatusReqId: string | null;
  readonly account: string | null;
  readonly symbol: string;
  readonly side: SideValue;
}

export function readOrderStatusRequest(r: FixReader): OrderStatusRequest | FixProblem {
  r.beginRead();
  const m: OrderStatusRequest = {
    clOrdId: r.reqStr(Tag.ClOrdID),
    orderId: r.str(Tag.OrderID),
    ordStatusReqId: r.str(Tag.OrdStatusReqID),
    account: r.str(Tag.Account),
    symbol: r.reqStr(Tag.Symbol),
    side: r.reqEnumChar(Tag.Side, SIDES),
  };
  return r.problem() ?? m;
}

/** OrderMassCancelRequest (q): 530 says the scope (1 one symbol, 7 all; the others are refused with an r). */
export interface OrderMassCancelRequest {
  readonly clOrdId: string;
  readonly massCancelRequestType: MassCancelRequestTypeValue;
  readonly symbol: string | null;
  readonly side: SideValue | null;
  readonly transactTimeMs: number;
}

export function readOrderMassCancelRequest(r: FixReader): OrderMassCancelRequest | FixProblem {
  r.beginRead();
  const m: OrderMassCancelRequest = {
    clOrdId: r.reqStr(Tag.ClOrdID),
    massCancelRequestType: r.reqEnumChar(Tag.MassCancelRequestType, MASS_CANCEL_REQUEST_TYPES),
    symbol: r.str(Tag.Symbol),
    side: r.enumChar(Tag.Side, SIDES),
    transactTimeMs: r.reqUtcTimestamp(Tag.TransactTime),
  };
  return r.problem() ?? m;
}
