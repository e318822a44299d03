// Loads what a shard owns at start: the durable state the engine is rebuilt from. Only accounts
// hashed to the shard are taken, so a change of shard count moves accounts without migration.
import type { AccountRecord, OrderRecord, PositionRecord, UnixMs } from '../engine/types.js';
import { shardOf } from '../shard/protocol.js';
import type { Store } from './store.js';

/** Settled orders kept per account for repeated client ids and cancels of filled orders. */
export const RECENT_ORDERS_PER_ACCOUNT = 16;

export interface ShardState {
  readonly idCounter: number;
  readonly journalSeq: number;
  readonly accounts: AccountRecord[];
  readonly pendingOrders: OrderRecord[];
  /** Each account's last settled orders, oldest first. */
  readonly recentOrders: OrderRecord[];
  readonly positions: PositionRecord[];
  readonly clientIds: { login: string; clientId: string; orderId: string; atMs: UnixMs }[];
}

export function loadShardState(store: Store, shard: number, shards: number, clientIdsSinceMs: UnixMs): ShardState {
  const mine = (login: string): boolean => shardOf(login, shards) === shard;
  const accounts: AccountRecord[] = [];
  for (const { value } of store.accounts.getRange()) if (mine(value.login)) accounts.push(value);
  const pendingOrders: OrderRecord[] = [];
  for (const { value } of store.pending.getRange()) if (mine(value.login)) pendingOrders.push(value);
  const positions: PositionRecord[] = [];
  for (const { value } of store.positions.getRange()) if (mine(value.login)) positions.push(value);
  const clientIds: ShardState['clientIds'] = [];
  for (const a of accounts) {
    for (const { key, value } of store.clientIds.getRange({ start: [a.login], end: [a.login, '\uffff'] })) {
      if (value.atMs >= clientIdsSinceMs) clientIds.push({ login: a.login, clientId: key[1], orderId: value.orderId, atMs: value.atMs });
    }
  }
  const recentOrders: OrderRecord[] = [];
  for (const a of accounts) {
    const settled: OrderRecord[] = [];
    for (const { value } of store.orders.getRange({ start: [a.login, Number.MAX_SAFE_INTEGER], end: [a.login, -1], reverse: true })) {
      if (value.status === 'pending') continue;
      settled.push(value);
      if (settled.length === RECENT_ORDERS_PER_ACCOUNT) break;
    }
    recentOrders.push(...settled.reverse());
  }
  const [last] = [...store.journal.getKeys({ start: [shard, Number.MAX_SAFE_INTEGER], end: [shard, -1], reverse: true, limit: 1 })];
  return {
    idCounter: store.meta.get(`idCounter:${shard}`) ?? 0,
    journalSeq: last ? last[1] + 1 : 0,
    accounts,
    pendingOrders,
    recentOrders,
    positions,
    clientIds,
  };
}
