// Writing the engine state out as an EngineInit in canonical order, so that
// snapshot → new Engine → snapshot is the identity and two engines compare with one toEqual.
import type { Core } from './core.js';
import type { ClientIdRecord, EngineInit, HaltedKey, OrderRecord, PositionRecord, Quote } from './types.js';

export function byString(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Our ids are decimal numbers; anything else sorts after them by text. */
export function byNumericId(a: string, b: string): number {
  return Number(a) - Number(b) || byString(a, b);
}

export function byClientIdAge(a: ClientIdRecord, b: ClientIdRecord): number {
  return a.atMs - b.atMs || byString(a.login, b.login) || byString(a.clientId, b.clientId);
}

export function snapshotCore(core: Core): EngineInit {
  const accounts = [...core.accounts.values()].sort((a, b) => byString(a.login, b.login));
  const pendingOrders: OrderRecord[] = [];
  const recentOrders: OrderRecord[] = [];
  const positions: PositionRecord[] = [];
  const clientIds: ClientIdRecord[] = [];
  const haltedKeys: HaltedKey[] = [];
  for (const a of accounts) {
    pendingOrders.push(...a.pending.values());
    recentOrders.push(...a.recent.list());
    positions.push(...a.positions.values());
    clientIds.push(...a.clientIds.values());
    for (const keyId of [...a.haltedKeys].sort(byString)) haltedKeys.push({ login: a.login, keyId });
  }
  const deadMen = [...core.deadMen.all()].sort((a, b) => byString(a.login, b.login) || byString(a.keyId, b.keyId));
  const quotes: Quote[] = [];
  for (const slot of core.slots.values()) if (slot.sym.quote !== null) quotes.push(slot.sym.quote);
  return {
    shardId: core.ids.shardId,
    idCounter: core.ids.allocated,
    symbols: core.market.specs,
    accounts: accounts.map((a) => a.record()),
    pendingOrders: pendingOrders.sort((a, b) => byNumericId(a.id, b.id)),
    recentOrders,
    positions: positions.sort((a, b) => a.ticket - b.ticket),
    clientIds: clientIds.sort(byClientIdAge),
    haltedKeys,
    quotes,
    clientIdRetentionMs: core.clientIds.retentionMs,
    deadMen,
    ...(core.margins.policy === null ? {} : { marginPolicy: core.margins.policy }),
  };
}
