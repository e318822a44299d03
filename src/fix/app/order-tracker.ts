// The session's view of its account's orders: the latest record of every order it has seen (its
// own D, F and G answers, the account's order events while it is logged on, the pending orders of
// the account at Logon), which ClOrdID currently names each order (a D's ClOrdID, replaced by the
// ClOrdID of each accepted F or G, as FIX chains them), and which ClOrdIDs this session has used.
// Orders placed elsewhere are named by their client id or, without one, their order id. Bounded:
// the oldest orders are forgotten first; the shard still finds those (ShardLink.findOrder).
import type { OrderRecord, OrderStatus } from '../../engine/types.js';

export const TRACKED_ORDERS = 50_000;

export class OrderTracker {
  /** Latest record by order id, oldest first. */
  private readonly orders = new Map<string, OrderRecord>();
  /** The ClOrdID naming each order now, for orders this session named. */
  private readonly names = new Map<string, string>();
  /** Every ClOrdID this session used → its order. */
  private readonly byClOrdId = new Map<string, string>();
  /** Client id → order, for the orders seen. */
  private readonly byClientId = new Map<string, string>();

  constructor(private readonly capacity = TRACKED_ORDERS) {}

  /** The ClOrdID that currently names the order. */
  clOrdIdOf(order: OrderRecord): string {
    return this.names.get(order.id) ?? order.clientId ?? order.id;
  }

  /** The order a ClOrdID names: one this session used, or the client id of an order it has seen. */
  orderIdOf(clOrdId: string): string | undefined {
    return this.byClOrdId.get(clOrdId) ?? this.byClientId.get(clOrdId);
  }

  order(orderId: string): OrderRecord | undefined {
    return this.orders.get(orderId);
  }

  status(orderId: string): OrderStatus | undefined {
    return this.orders.get(orderId)?.status;
  }

  /** Whether this session already used the ClOrdID (D, F or G). */
  used(clOrdId: string): boolean {
    return this.byClOrdId.has(clOrdId);
  }

  /** `clOrdId` now names the order (a D accepted, or an F or G chaining a new name). */
  name(order: OrderRecord, clOrdId: string): void {
    this.names.set(order.id, clOrdId);
    this.byClOrdId.set(clOrdId, order.id);
    // Names an F or G replaced stay used; the oldest go once twice the capacity is reached.
    if (this.byClOrdId.size > 2 * this.capacity) this.byClOrdId.delete(this.byClOrdId.keys().next().value!);
    this.see(order);
  }

  /** The order's latest record. */
  see(order: OrderRecord): void {
    this.orders.set(order.id, order);
    if (order.clientId !== null) this.byClientId.set(order.clientId, order.id);
    if (this.orders.size > this.capacity) this.forgetOldest();
  }

  private forgetOldest(): void {
    const oldest = this.orders.values().next();
    if (oldest.done === true) return;
    const order = oldest.value;
    this.orders.delete(order.id);
    if (order.clientId !== null && this.byClientId.get(order.clientId) === order.id) this.byClientId.delete(order.clientId);
    const name = this.names.get(order.id);
    this.names.delete(order.id);
    if (name !== undefined && this.byClOrdId.get(name) === order.id) this.byClOrdId.delete(name);
  }
}
