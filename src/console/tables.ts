// The main-environment LMDB tables the console's charts own, declared and opened in one place.
import type { Database } from 'lmdb';
import { forEachSliced } from '../base/event-loop-turn.js';
import type { Store } from '../store/store.js';
import { table, type Key } from '../store/table.js';
import type { EquityRow } from './equity/equity-history.js';
import type { SeriesRow } from './key-series/tally.js';

/** [id, ms]: a key id or login, and a bucket or minute start. */
export type TimeKey = [string, number];

/** [key id, bucket start ms] → the key's 10-second bucket; kept one hour. */
export const KEY_SERIES_10S = table<TimeKey, SeriesRow>('key_series_10s');
/** [key id, bucket start ms] → the key's one-minute bucket; kept one day. */
export const KEY_SERIES_1M = table<TimeKey, SeriesRow>('key_series_1m');
/** [login, minute start ms] → balance and equity; kept 30 days. */
export const EQUITY_HISTORY = table<TimeKey, EquityRow>('equity_history');

export interface ChartTables {
  readonly keySeries10s: Database<SeriesRow, TimeKey>;
  readonly keySeries1m: Database<SeriesRow, TimeKey>;
  readonly equityHistory: Database<EquityRow, TimeKey>;
}

export function chartTables(store: Store): ChartTables {
  return { keySeries10s: store.table(KEY_SERIES_10S), keySeries1m: store.table(KEY_SERIES_1M), equityHistory: store.table(EQUITY_HISTORY) };
}

const WRITE_CHUNK = 32;

/**
 * Puts rows a few dozen per event-loop turn: encoding costs tens of µs each on the main thread,
 * and requests are served in between. Resolves once every put is committed.
 */
export async function putInChunks<K extends Key, V>(db: Database<V, K>, rows: readonly (readonly [K, V])[]): Promise<void> {
  const writes: Promise<boolean>[] = [];
  await forEachSliced(rows, WRITE_CHUNK, ([key, value]) => { writes.push(db.put(key, value)); });
  await Promise.all(writes);
}

/** Removes the keys of `prefix` older than `beforeMs` ([prefix, ms] keys), sparing the newest `keep`. */
export async function pruneOlder<V>(db: Database<V, TimeKey>, prefix: string, beforeMs: number, keep = 0): Promise<number> {
  const old = [...db.getKeys({ start: [prefix, Number.MIN_SAFE_INTEGER], end: [prefix, beforeMs] })];
  const doomed = keep === 0 ? old : old.slice(0, Math.max(0, old.length - keep));
  await Promise.all(doomed.map((k) => db.remove(k)));
  return doomed.length;
}
