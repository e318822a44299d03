// The read side of orders as the REST routes see it (GET /v1/orders, /v1/orders/{id},
// /v1/orders?client_id=). Routes depend on this port only, never on the tables behind it, because
// those tables may lag the answers the shards have already given (a write-behind checkpoint): an
// implementation must return every order whose acknowledgement has left the service.
//
// Contract of every implementation:
// - Orders are one account's (`login`); another account's order is never returned.
// - `order` and `byClientId` give the order's latest known state, or null when the account has
//   no such order (a client id is found at least for its dedup retention, 24 h).
// - `list` orders by numeric order id, ascending (ids of an account grow with time). `filter.afterId`
//   is the cursor: only orders with a larger id are listed. A page holds at most `filter.limit`
//   orders; `nextCursor` is the id of its last order when more orders match, null at the end.
//   Filters combine with AND: `status` equal, `symbol` equal, `sinceMs` created at or after.
import type { OrderRecord, OrderStatus, UnixMs } from '../../engine/types.js';

export interface OrderFilter {
  readonly status: OrderStatus | null;
  readonly symbol: string | null;
  readonly sinceMs: UnixMs | null;
  readonly afterId: number;
  readonly limit: number;
}

export interface OrderPage {
  readonly items: readonly OrderRecord[];
  readonly nextCursor: string | null;
}

export interface OrderLookup {
  order(login: string, orderId: number): Promise<OrderRecord | null>;
  byClientId(login: string, clientId: string): Promise<OrderRecord | null>;
  list(login: string, filter: OrderFilter): Promise<OrderPage>;
}

export function matches(o: OrderRecord, f: OrderFilter): boolean {
  return Number(o.id) > f.afterId
    && (f.status === null || o.status === f.status)
    && (f.symbol === null || o.symbol === f.symbol)
    && (f.sinceMs === null || o.createdAt >= f.sinceMs);
}
