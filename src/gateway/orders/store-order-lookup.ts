// Today's OrderLookup: the shards commit every order to their `orders` table before they answer,
// so the table is complete for history; the main thread's read model holds every pending order as
// of the latest event batch it applied, and its record wins where both have one.
import type { OrderRecord } from '../../engine/types.js';
import type { ReadModel } from '../../shard/read-model.js';
import type { Store } from '../../store/store.js';
import { matches, type OrderFilter, type OrderLookup, type OrderPage } from './order-lookup.js';

const LAST_ID = Number.MAX_SAFE_INTEGER;

const byId = (a: OrderRecord, b: OrderRecord): number => Number(a.id) - Number(b.id);

/** Two id-ascending streams as one; on equal ids `preferred`'s record is taken. */
function* mergeById(stored: Iterable<OrderRecord>, preferred: readonly OrderRecord[]): Generator<OrderRecord> {
  let i = 0;
  for (const o of stored) {
    const id = Number(o.id);
    while (i < preferred.length && Number(preferred[i]!.id) < id) yield preferred[i++]!;
    if (i < preferred.length && Number(preferred[i]!.id) === id) yield preferred[i++]!;
    else yield o;
  }
  while (i < preferred.length) yield preferred[i++]!;
}

export class StoreOrderLookup implements OrderLookup {
  constructor(private readonly store: Pick<Store, 'accountDbs'>, private readonly readModel: Pick<ReadModel, 'pendingOrders'>) {}

  order(login: string, orderId: number): Promise<OrderRecord | null> {
    const id = String(orderId);
    for (const p of this.readModel.pendingOrders(login)) if (p.id === id) return Promise.resolve(p);
    return Promise.resolve(this.store.accountDbs(login).orders.get([login, orderId]) ?? null);
  }

  byClientId(login: string, clientId: string): Promise<OrderRecord | null> {
    const dbs = this.store.accountDbs(login);
    const entry = dbs.clientIds.get([login, clientId]);
    if (entry) return this.order(login, Number(entry.orderId));
    // Past the dedup retention the id is still on its order: newest first, as recent ids are asked most.
    for (const { value } of dbs.orders.getRange({ start: [login, LAST_ID], end: [login, 0], reverse: true })) {
      if (value.clientId === clientId) return this.order(login, Number(value.id));
    }
    return Promise.resolve(null);
  }

  list(login: string, filter: OrderFilter): Promise<OrderPage> {
    const pending = [...this.readModel.pendingOrders(login)].sort(byId);
    const stored = filter.status === 'pending'
      ? []
      : this.store.accountDbs(login).orders.getRange({ start: [login, filter.afterId + 1], end: [login, LAST_ID] }).map((e) => e.value);
    const items: OrderRecord[] = [];
    for (const o of mergeById(stored, pending)) {
      if (!matches(o, filter)) continue;
      if (items.length === filter.limit) return Promise.resolve({ items, nextCursor: items[items.length - 1]!.id });
      items.push(o);
    }
    return Promise.resolve({ items, nextCursor: null });
  }
}
