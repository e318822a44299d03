// The OrderLookup over the shards' history as the main thread reads it (src/shard/history.ts): their
// checkpoint tables merged with every order event they reported since, so an order is found the
// moment its acknowledgement has left, whether or not a checkpoint holds it yet.
import type { OrderRecord } from '../../engine/types.js';
import type { ShardHistory } from '../../shard/history.js';
import { matches, type OrderFilter, type OrderLookup, type OrderPage } from './order-lookup.js';

export class HistoryOrderLookup implements OrderLookup {
  constructor(private readonly history: ShardHistory) {}

  order(login: string, orderId: number): Promise<OrderRecord | null> {
    return Promise.resolve(this.history.order(login, String(orderId)));
  }

  byClientId(login: string, clientId: string): Promise<OrderRecord | null> {
    const kept = this.history.orderByClientId(login, clientId);
    if (kept !== null) return Promise.resolve(kept);
    // Past the dedup retention the id is still on its order: the latest order that carried it.
    let last: OrderRecord | null = null;
    for (const o of this.history.orders(login)) if (o.clientId === clientId) last = o;
    return Promise.resolve(last);
  }

  list(login: string, filter: OrderFilter): Promise<OrderPage> {
    const items: OrderRecord[] = [];
    for (const o of this.history.orders(login, filter.afterId)) {
      if (!matches(o, filter)) continue;
      if (items.length === filter.limit) return Promise.resolve({ items, nextCursor: items[items.length - 1]!.id });
      items.push(o);
    }
    return Promise.resolve({ items, nextCursor: null });
  }
}
