// Retention of a shard's history: events older than the stream's retention (DECISIONS: at least
// 24 h) and client ids older than their dedup window leave the shard's environment. Events of an
// account are keyed by seq, which grows with time, so each account's range is cut from its start.
// Removals are asynchronous writes issued a chunk at a time, with `pause` between chunks, so an
// hour's worth of expired history never holds the shard's thread for long.
import type { UnixMs } from '../engine/types.js';
import { loginRange, type ShardStore } from './store.js';

export interface Pruned { readonly events: number; readonly clientIds: number }

const REMOVALS_PER_CHUNK = 512;

export async function pruneHistory(store: ShardStore, eventsBeforeMs: UnixMs, clientIdsBeforeMs: UnixMs, pause: () => Promise<void>): Promise<Pruned> {
  let events = 0;
  let clientIds = 0;
  const removed: Promise<boolean>[] = [];
  const remove = async (done: Promise<boolean>): Promise<void> => {
    removed.push(done);
    if (removed.length % REMOVALS_PER_CHUNK === 0) await pause();
  };
  for (const login of [...store.accounts.getKeys()]) {
    for (const { key, value } of store.events.getRange({ start: [login, 0], end: [login, Number.MAX_SAFE_INTEGER], snapshot: false })) {
      if (value.ts >= eventsBeforeMs) break;
      events++;
      await remove(store.events.remove(key));
    }
    for (const { key, value } of loginRange(store.clientIds, login)) {
      if (value.atMs >= clientIdsBeforeMs) continue;
      clientIds++;
      await remove(store.clientIds.remove(key));
    }
  }
  await Promise.all(removed);
  return { events, clientIds };
}
