// The session's view of its account's orders: which ClOrdID currently names each order (a D's
// ClOrdID, replaced by the ClOrdID of each accepted F or G, as FIX chains them) and which ClOrdIDs
// this session has used. Orders the session never saw (REST, before this Logon) are named by their
// client id or, without one, their order id. Bounded: the oldest names are forgotten first; the
// engine's durable client-id memory still resolves those (OrderLookup).
import type { OrderRecord, OrderStatus } from '../../engine/types.js';

export const TRACKED_CLORDIDS = 50_000;

interface Tracked {
  clOrdId: string;
  status: OrderStatus;
}

export class OrderTracker {
  private readonly byOrderId = new Map<string, Tracked>();
  private readonly byClOrdId = new Map<string, string>();

  constructor(private readonly capacity = TRACKED_CLORDIDS) {}

  /** The ClOrdID that currently names the order. */
  clOrdIdOf(order: OrderRecord): string {
    return this.byOrderId.get(order.id)?.clOrdId ?? order.clientId ?? order.id;
  }

  orderIdOf(clOrdId: string): string | undefined {
    return this.byClOrdId.get(clOrdId);
  }

  status(orderId: string): OrderStatus | undefined {
    return this.byOrderId.get(orderId)?.status;
  }

  /** Whether this session already used the ClOrdID (D, F or G). */
  used(clOrdId: string): boolean {
    return this.byClOrdId.has(clOrdId);
  }

  /** `clOrdId` now names the order (a D accepted, or an F or G chaining a new name). */
  name(order: OrderRecord, clOrdId: string): void {
    const tracked = this.byOrderId.get(order.id);
    if (tracked === undefined) this.byOrderId.set(order.id, { clOrdId, status: order.status });
    else {
      tracked.clOrdId = clOrdId;
      tracked.status = order.status;
    }
    this.byClOrdId.set(clOrdId, order.id);
    if (this.byClOrdId.size > this.capacity) this.forgetOldest();
  }

  /** An order event: the latest status of an order this session knows. */
  update(order: OrderRecord): void {
    const tracked = this.byOrderId.get(order.id);
    if (tracked !== undefined) tracked.status = order.status;
  }

  private forgetOldest(): void {
    const oldest = this.byClOrdId.entries().next();
    if (oldest.done === true) return;
    const [clOrdId, orderId] = oldest.value;
    this.byClOrdId.delete(clOrdId);
    if (this.byOrderId.get(orderId)?.clOrdId === clOrdId) this.byOrderId.delete(orderId);
  }
}
