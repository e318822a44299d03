// OrderStatusRequest (H) → ExecutionReport with ExecType I (OrderStatus) describing the order as
// it is now, OrdStatusReqID (790) echoed. The order is named by OrderID (37) when given, else by
// ClOrdID (11): a name this session gave it, or its client id; one the session does not know is
// asked of its shard (any order it ever accepted). An unknown order is answered as FIX 4.4 says:
// an 8 with 150=I, 39=8 Rejected and 103=5 UnknownOrder. Needs the read scope, as GET /orders.
import { readOrderStatusRequest, type OrderStatusRequest } from '../codec/inbound/orders.js';
import { FixProblem } from '../codec/problem.js';
import type { FixReader } from '../codec/reader.js';
import { ExecType, OrdRejReason, OrdStatus } from '../dictionary.js';
import type { OrderRecord } from '../../engine/types.js';
import type { OrderRef } from '../../shard/protocol.js';
import { busyText, lacksScope, sendReport, symbolOf, type Desk } from './desk.js';
import { orderReport } from './execution.js';
import { ZERO } from './units.js';

function unknown(desk: Desk, m: OrderStatusRequest, text: string): void {
  sendReport(desk, {
    orderId: m.orderId ?? 'NONE', clOrdId: m.clOrdId, origClOrdId: null, ordStatusReqId: m.ordStatusReqId, execId: desk.execIds.next(desk.login),
    execType: ExecType.OrderStatus, ordStatus: OrdStatus.Rejected, ordRejReason: OrdRejReason.UnknownOrder, account: desk.login,
    symbol: m.symbol, side: m.side, orderQty: ZERO, ordType: null, price: null, stopPx: null, timeInForce: null, fill: null,
    leavesQty: ZERO, cumQty: ZERO, avgPx: ZERO, transactTimeMs: desk.nowMs(), text,
  });
}

function answer(desk: Desk, m: OrderStatusRequest, order: OrderRecord | null): void {
  const sym = order === null ? undefined : symbolOf(desk, order.symbol);
  if (order === null || sym === undefined) {
    unknown(desk, m, `not_found: no order of account ${desk.login} is named ${m.orderId === null ? `ClOrdID ${m.clOrdId}` : `OrderID ${m.orderId}`}`);
    return;
  }
  desk.tracker.see(order);
  const names = { clOrdId: desk.tracker.clOrdIdOf(order), origClOrdId: null, execId: desk.execIds.next(desk.login) };
  sendReport(desk, { ...orderReport(order, sym, names, ExecType.OrderStatus, desk.nowMs(), null), ordStatusReqId: m.ordStatusReqId });
}

export function onOrderStatusRequest(desk: Desk, r: FixReader): void {
  const m = readOrderStatusRequest(r);
  if (m instanceof FixProblem) {
    desk.session.reject(m);
    return;
  }
  const forbidden = lacksScope(desk, 'read');
  if (forbidden !== null) {
    unknown(desk, m, forbidden);
    return;
  }
  if (m.account !== null && m.account !== desk.login) {
    unknown(desk, m, `Account (1) ${m.account} is not the account of this session (${desk.login})`);
    return;
  }
  const orderId = m.orderId ?? desk.tracker.orderIdOf(m.clOrdId) ?? null;
  const ref: OrderRef = orderId === null ? { by: 'clientId', clientId: m.clOrdId } : { by: 'id', orderId };
  // The shard answers with the order's latest state; the session's copy may be a batch behind.
  const sent = desk.deps.shards.findOrder(desk.login, ref, (order) => answer(desk, m, order));
  if (!sent) unknown(desk, m, busyText(desk.login));
}
