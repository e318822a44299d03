// Retention of a shard's history: events older than the stream's retention (DECISIONS: at least
// 24 h) and client ids older than their dedup window leave the shard's environment. Events of an
// account are keyed by seq, which grows with time, so each account's range is cut from its start.
import type { UnixMs } from '../engine/types.js';
import type { ShardStore } from './store.js';

export interface Pruned { readonly events: number; readonly clientIds: number }

export function pruneHistory(store: ShardStore, eventsBeforeMs: UnixMs, clientIdsBeforeMs: UnixMs): Pruned {
  let events = 0;
  let clientIds = 0;
  store.root.transactionSync(() => {
    for (const login of store.accounts.getKeys()) {
      for (const { key, value } of store.events.getRange({ start: [login, 0], end: [login, Number.MAX_SAFE_INTEGER] })) {
        if (value.ts >= eventsBeforeMs) break;
        store.events.removeSync(key);
        events++;
      }
      for (const { key, value } of store.clientIds.getRange({ start: [login], end: [login, '\uffff'] })) {
        if (value.atMs < clientIdsBeforeMs) { store.clientIds.removeSync(key); clientIds++; }
      }
    }
  });
  return { events, clientIds };
}
