// ExecutionReports (8) from engine records (DECISIONS "FIX 4.4"): 150=0 New for a pending order,
// F Trade (39=2) for a fill, 4 Canceled, 5 Replaced, 8 Rejected (39=8 with 103 and 58). Quantities
// in units, prices in the symbol's digits. A position closed elsewhere (SL/TP, kill switch, REST,
// webhook) has no order in the engine; it is reported as a filled market order on the opposite
// side whose OrderID and ClOrdID name the position (docs/fix.md, "Unsolicited reports").
import type { NewOrderSingle } from '../codec/inbound/orders.js';
import type { ExecutionReportFields } from '../codec/outbound/orders.js';
import {
  ExecType, type ExecTypeValue, OrdStatus, type OrdStatusValue, OrdType, type OrdTypeValue, type OrdRejReasonValue, Side,
  type SideValue, TimeInForce,
} from '../dictionary.js';
import type { OrderRecord, OrderStatus, OrderType, PositionEvent, Side as EngineSide, UnixMs } from '../../engine/types.js';
import type { FixSymbol } from './ports.js';
import { ZERO, moneyOf, priceOf, unitsOf, decimalText } from './units.js';

export const ORD_TYPE_OF: Readonly<Record<OrderType, OrdTypeValue>> = { market: OrdType.Market, limit: OrdType.Limit, stop: OrdType.Stop };
export const SIDE_OF: Readonly<Record<EngineSide, SideValue>> = { buy: Side.Buy, sell: Side.Sell };
export const ORD_STATUS_OF: Readonly<Record<OrderStatus, OrdStatusValue>> = {
  pending: OrdStatus.New, filled: OrdStatus.Filled, cancelled: OrdStatus.Canceled, rejected: OrdStatus.Rejected,
};
const EXEC_TYPE_OF: Readonly<Record<OrderStatus, ExecTypeValue>> = {
  pending: ExecType.New, filled: ExecType.Trade, cancelled: ExecType.Canceled, rejected: ExecType.Rejected,
};

/** ExecID: per account event (`<login>-<seq>`, unique for ever), else a number unique to this thread's run. */
export class ExecIds {
  private n = 0;
  private readonly run: string;

  constructor(startedMs: number) {
    this.run = startedMs.toString(36);
  }

  ofEvent(login: string, seq: number): string {
    return `${login}-${seq}`;
  }

  next(login: string): string {
    return `${login}-R${this.run}.${++this.n}`;
  }
}

export interface ReportNames {
  readonly clOrdId: string;
  readonly origClOrdId: string | null;
  readonly execId: string;
}

/** The ExecType an order's present status reports; `replaced` for an accepted G. */
export function execTypeOf(order: OrderRecord, replaced: boolean): ExecTypeValue {
  return replaced && order.status === 'pending' ? ExecType.Replaced : EXEC_TYPE_OF[order.status];
}

/** An ExecutionReport describing `order` as it is now. */
export function orderReport(
  order: OrderRecord, sym: FixSymbol, names: ReportNames, execType: ExecTypeValue, transactTimeMs: number,
  text: string | null, ordRejReason: OrdRejReasonValue | null = null,
): ExecutionReportFields {
  const qty = unitsOf(order.volume, sym.contract);
  const filled = order.status === 'filled';
  const requested = order.requestedPrice === null ? null : priceOf(order.requestedPrice, sym.spec);
  const fillPx = filled ? priceOf(order.price, sym.spec) : null;
  return {
    orderId: order.id,
    clOrdId: names.clOrdId,
    origClOrdId: names.origClOrdId,
    ordStatusReqId: null,
    execId: names.execId,
    execType,
    ordStatus: ORD_STATUS_OF[order.status],
    ordRejReason: order.status === 'rejected' ? (ordRejReason ?? 99) : null,
    account: order.login,
    symbol: order.symbol,
    side: SIDE_OF[order.side],
    orderQty: qty,
    ordType: ORD_TYPE_OF[order.type],
    price: order.type === 'limit' ? requested : null,
    stopPx: order.type === 'stop' ? requested : null,
    timeInForce: order.type === 'market' ? TimeInForce.ImmediateOrCancel : TimeInForce.GoodTillCancel,
    fill: fillPx === null ? null : { lastQty: qty, lastPx: fillPx },
    leavesQty: order.status === 'pending' ? qty : ZERO,
    cumQty: filled ? qty : ZERO,
    avgPx: fillPx ?? ZERO,
    transactTimeMs,
    text: text ?? order.reason,
  };
}

/** 8 Rejected for a NewOrderSingle that never became an order: its own fields echoed. */
export function rejectedOrderReport(
  m: NewOrderSingle, login: string, execId: string, reason: OrdRejReasonValue, text: string, nowMs: UnixMs,
): ExecutionReportFields {
  return {
    orderId: 'NONE', clOrdId: m.clOrdId, origClOrdId: null, ordStatusReqId: null, execId, execType: ExecType.Rejected, ordStatus: OrdStatus.Rejected,
    ordRejReason: reason, account: login, symbol: m.symbol, side: m.side, orderQty: m.orderQty, ordType: m.ordType,
    price: m.price, stopPx: m.stopPx, timeInForce: m.timeInForce, fill: null, leavesQty: ZERO, cumQty: ZERO, avgPx: ZERO,
    transactTimeMs: nowMs, text,
  };
}

/** The OrderID and ClOrdID of a position close report. */
function closeOrderId(e: PositionEvent): string {
  return `P${e.position.ticket}-${e.seq}`;
}

/** A (partial) close of a position as a filled market order on the opposite side. */
export function positionCloseReport(e: PositionEvent, sym: FixSymbol, execId: string): ExecutionReportFields {
  const p = e.position;
  const qty = unitsOf(e.closedVolume ?? p.volume, sym.contract);
  const px = priceOf(e.closePrice ?? p.openPrice, sym.spec);
  const id = closeOrderId(e);
  const profit = e.profit === null ? '' : `, profit ${decimalText(moneyOf(e.profit))}`;
  const rest = e.status === 'partially_closed' ? `, ${decimalText(unitsOf(p.volume, sym.contract))} left open` : '';
  return {
    orderId: id, clOrdId: id, origClOrdId: null, ordStatusReqId: null, execId, execType: ExecType.Trade, ordStatus: OrdStatus.Filled, ordRejReason: null,
    account: p.login, symbol: p.symbol, side: p.side === 'buy' ? Side.Sell : Side.Buy, orderQty: qty, ordType: OrdType.Market,
    price: null, stopPx: null, timeInForce: TimeInForce.ImmediateOrCancel, fill: { lastQty: qty, lastPx: px },
    leavesQty: ZERO, cumQty: qty, avgPx: px, transactTimeMs: e.ts,
    text: `position ${p.ticket} ${e.status === 'closed' ? 'closed' : 'partially closed'} (${e.reason ?? 'client'})${profit}${rest}`,
  };
}
