// Loads what a shard's checkpoint holds: the durable state the engine starts from before the
// journal after it is replayed. Resharding (reshard.ts) has already moved every account to the
// environment of the shard it hashes to.
//
// The tables may hold writes that went ahead of the checkpoint (checkpoint.ts): orders and positions
// allocated after the checkpoint's id counter, their client ids, and the settled form of an order
// still pending at the checkpoint are left out, and the replay makes them again.
import { allocatedAfter } from '../engine/ids.js';
import { RECENT_ORDERS_PER_ACCOUNT } from '../engine/recent.js';
import type { AccountRecord, DeadManRecord, OrderRecord, PositionRecord, UnixMs } from '../engine/types.js';
import { loginRange, type ShardMeta, type ShardStore } from './store.js';

export interface ShardState {
  readonly meta: ShardMeta;
  readonly accounts: AccountRecord[];
  readonly pendingOrders: OrderRecord[];
  /** Each account's last settled orders, oldest first. */
  readonly recentOrders: OrderRecord[];
  readonly positions: PositionRecord[];
  readonly clientIds: { login: string; clientId: string; orderId: string; atMs: UnixMs }[];
  readonly deadMen: DeadManRecord[];
}

export function loadShardState(store: ShardStore, shard: number, meta: ShardMeta, clientIdsSinceMs: UnixMs): ShardState {
  const later = (id: string | number): boolean => allocatedAfter(Number(id), shard, meta.idCounter);
  const accounts = [...store.accounts.getRange()].map((e) => e.value);
  const pendingOrders = [...store.pending.getRange()].map((e) => e.value).filter((o) => !later(o.id));
  const pendingIds = new Set(pendingOrders.map((o) => o.id));
  const positions = [...store.positions.getRange()].map((e) => e.value).filter((p) => !later(p.ticket));
  const recentOrders: OrderRecord[] = [];
  const clientIds: ShardState['clientIds'] = [];
  for (const a of accounts) {
    const settled: OrderRecord[] = [];
    for (const { value } of store.orders.getRange({ start: [a.login, Number.MAX_SAFE_INTEGER], end: [a.login, -1], reverse: true })) {
      if (value.status === 'pending' || pendingIds.has(value.id) || later(value.id)) continue;
      settled.push(value);
      if (settled.length === RECENT_ORDERS_PER_ACCOUNT) break;
    }
    recentOrders.push(...settled.reverse());
    for (const { key, value } of loginRange(store.clientIds, a.login)) {
      if (value.atMs >= clientIdsSinceMs && !later(value.orderId)) clientIds.push({ login: a.login, clientId: key[1], orderId: value.orderId, atMs: value.atMs });
    }
  }
  const deadMen = [...store.deadMen.getRange()].map((e) => e.value);
  return { meta, accounts, pendingOrders, recentOrders, positions, clientIds, deadMen };
}
