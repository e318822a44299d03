// Outbound ExecutionReport (8), OrderCancelReject (9) and OrderMassCancelReport (r), fields in
// FIX44 dictionary order.
import {
  type CxlRejReasonValue, type CxlRejResponseToValue, type ExecTypeValue, type MassCancelRejectReasonValue, type MassCancelRequestTypeValue,
  type MassCancelResponseValue, MsgType, type OrdRejReasonValue, type OrdStatusValue, type OrdTypeValue, Tag,
} from '../../dictionary.js';
import type { FixDecimal } from '../decimal.js';
import type { OrderTerms } from '../order-terms.js';
import type { FixWriter, OutboundHeader } from '../writer.js';

export interface Fill {
  readonly lastQty: FixDecimal;
  readonly lastPx: FixDecimal;
}

export interface ExecutionReportFields extends Omit<OrderTerms, 'ordType'> {
  /** Null only on the report of an OrderStatusRequest for an order nobody knows. */
  readonly ordType: OrdTypeValue | null;
  /** "NONE" when the order was rejected before it got an id (FIX convention). */
  readonly orderId: string;
  readonly clOrdId: string;
  /** The order's previous ClOrdID, on reports answering F or G. */
  readonly origClOrdId: string | null;
  /** Echoed on the report answering an OrderStatusRequest (H) that carried one (790). */
  readonly ordStatusReqId: string | null;
  readonly execId: string;
  readonly execType: ExecTypeValue;
  readonly ordStatus: OrdStatusValue;
  /** With execType Rejected. */
  readonly ordRejReason: OrdRejReasonValue | null;
  readonly account: string;
  /** With execType Trade. */
  readonly fill: Fill | null;
  readonly leavesQty: FixDecimal;
  readonly cumQty: FixDecimal;
  readonly avgPx: FixDecimal;
  readonly transactTimeMs: number;
  readonly text: string | null;
}

export function encodeExecutionReport(w: FixWriter, h: OutboundHeader, m: ExecutionReportFields): void {
  w.begin(MsgType.ExecutionReport, h);
  w.str(Tag.OrderID, m.orderId);
  w.str(Tag.ClOrdID, m.clOrdId);
  if (m.origClOrdId !== null) w.str(Tag.OrigClOrdID, m.origClOrdId);
  if (m.ordStatusReqId !== null) w.str(Tag.OrdStatusReqID, m.ordStatusReqId);
  w.str(Tag.ExecID, m.execId);
  w.char(Tag.ExecType, m.execType);
  w.char(Tag.OrdStatus, m.ordStatus);
  if (m.ordRejReason !== null) w.int(Tag.OrdRejReason, m.ordRejReason);
  w.str(Tag.Account, m.account);
  w.str(Tag.Symbol, m.symbol);
  w.char(Tag.Side, m.side);
  w.decimal(Tag.OrderQty, m.orderQty);
  if (m.ordType !== null) w.char(Tag.OrdType, m.ordType);
  if (m.price !== null) w.decimal(Tag.Price, m.price);
  if (m.stopPx !== null) w.decimal(Tag.StopPx, m.stopPx);
  if (m.timeInForce !== null) w.char(Tag.TimeInForce, m.timeInForce);
  if (m.fill !== null) {
    w.decimal(Tag.LastQty, m.fill.lastQty);
    w.decimal(Tag.LastPx, m.fill.lastPx);
  }
  w.decimal(Tag.LeavesQty, m.leavesQty);
  w.decimal(Tag.CumQty, m.cumQty);
  w.decimal(Tag.AvgPx, m.avgPx);
  w.utcTimestamp(Tag.TransactTime, m.transactTimeMs);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}

export interface OrderCancelRejectFields {
  /** "NONE" when the order is unknown (FIX convention). */
  readonly orderId: string;
  readonly clOrdId: string;
  readonly origClOrdId: string;
  /** Status of the order the request was about (8 Rejected when it is unknown). */
  readonly ordStatus: OrdStatusValue;
  readonly account: string | null;
  readonly transactTimeMs: number | null;
  readonly cxlRejResponseTo: CxlRejResponseToValue;
  readonly cxlRejReason: CxlRejReasonValue | null;
  readonly text: string | null;
}

export function encodeOrderCancelReject(w: FixWriter, h: OutboundHeader, m: OrderCancelRejectFields): void {
  w.begin(MsgType.OrderCancelReject, h);
  w.str(Tag.OrderID, m.orderId);
  w.str(Tag.ClOrdID, m.clOrdId);
  w.str(Tag.OrigClOrdID, m.origClOrdId);
  w.char(Tag.OrdStatus, m.ordStatus);
  if (m.account !== null) w.str(Tag.Account, m.account);
  if (m.transactTimeMs !== null) w.utcTimestamp(Tag.TransactTime, m.transactTimeMs);
  w.char(Tag.CxlRejResponseTo, m.cxlRejResponseTo);
  if (m.cxlRejReason !== null) w.int(Tag.CxlRejReason, m.cxlRejReason);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}

export interface OrderMassCancelReportFields {
  /** An id of the report itself (FIX: required even when the request is rejected). */
  readonly orderId: string;
  readonly clOrdId: string;
  readonly massCancelRequestType: MassCancelRequestTypeValue;
  /** 0 rejected, else the scope that was cancelled. */
  readonly massCancelResponse: MassCancelResponseValue;
  readonly massCancelRejectReason: MassCancelRejectReasonValue | null;
  readonly totalAffectedOrders: number;
  /** Each cancelled order: the ClOrdID naming it and its OrderID. */
  readonly affected: readonly { readonly origClOrdId: string; readonly orderId: string }[];
  readonly symbol: string | null;
  readonly transactTimeMs: number;
  readonly text: string | null;
}

export function encodeOrderMassCancelReport(w: FixWriter, h: OutboundHeader, m: OrderMassCancelReportFields): void {
  w.begin(MsgType.OrderMassCancelReport, h);
  w.str(Tag.ClOrdID, m.clOrdId);
  w.str(Tag.OrderID, m.orderId);
  w.char(Tag.MassCancelRequestType, m.massCancelRequestType);
  w.char(Tag.MassCancelResponse, m.massCancelResponse);
  if (m.massCancelRejectReason !== null) w.str(Tag.MassCancelRejectReason, m.massCancelRejectReason);
  w.int(Tag.TotalAffectedOrders, m.totalAffectedOrders);
  if (m.affected.length > 0) {
    w.int(Tag.NoAffectedOrders, m.affected.length);
    for (const a of m.affected) {
      w.str(Tag.OrigClOrdID, a.origClOrdId);
      w.str(Tag.AffectedOrderID, a.orderId);
    }
  }
  if (m.symbol !== null) w.str(Tag.Symbol, m.symbol);
  w.utcTimestamp(Tag.TransactTime, m.transactTimeMs);
  if (m.text !== null && m.text !== '') w.str(Tag.Text, m.text);
  w.finish();
}
