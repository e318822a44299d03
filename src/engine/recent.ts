// The last few orders of an account that stopped being pending, so that cancelling or replacing
// one answers invalid_order ("filled", "cancelled") instead of not_found, and a repeated client id
// can return its order. A fixed ring per account: settling costs one array write, no hashing, and
// memory stays bounded however fast orders flow (the full history lives in the host's store).
import type { OrderRecord } from './types.js';

export const RECENT_ORDERS_PER_ACCOUNT = 16;

export class RecentOrders {
  private readonly ring: (OrderRecord | undefined)[] = [];
  /** Next slot to write once the ring is full. */
  private next = 0;

  push(order: OrderRecord): void {
    if (this.ring.length < RECENT_ORDERS_PER_ACCOUNT) {
      this.ring.push(order);
      return;
    }
    this.ring[this.next] = order;
    this.next = (this.next + 1) % RECENT_ORDERS_PER_ACCOUNT;
  }

  find(id: string): OrderRecord | undefined {
    for (const order of this.ring) if (order?.id === id) return order;
    return undefined;
  }

  /** Oldest first: pushing them in this order into an empty ring rebuilds this one. */
  list(): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (let i = 0; i < this.ring.length; i++) {
      const order = this.ring[(this.next + i) % this.ring.length];
      if (order !== undefined) out.push(order);
    }
    return out;
  }
}
