// The main-environment LMDB tables the console's charts own, named and typed in one place.
import type { Database } from 'lmdb';
import type { Key, Store } from '../store/store.js';
import type { EquityRow } from './equity/equity-history.js';
import type { SeriesRow } from './key-series/tally.js';

export interface ChartTables {
  /** [key id, bucket start ms] → the key's 10-second bucket; kept one hour. */
  readonly keySeries10s: Database<SeriesRow, Key>;
  /** [key id, bucket start ms] → the key's one-minute bucket; kept one day. */
  readonly keySeries1m: Database<SeriesRow, Key>;
  /** [login, minute start ms] → balance and equity; kept 30 days. */
  readonly equityHistory: Database<EquityRow, Key>;
}

export function chartTables(store: Store): ChartTables {
  return {
    keySeries10s: store.db<SeriesRow>('key_series_10s'),
    keySeries1m: store.db<SeriesRow>('key_series_1m'),
    equityHistory: store.db<EquityRow>('equity_history'),
  };
}

const WRITE_CHUNK = 32;

/**
 * Puts rows a few dozen per event-loop turn: encoding costs tens of µs each on the main thread,
 * and requests are served in between. Resolves once every put is committed.
 */
export async function putInChunks<V>(db: Database<V, Key>, rows: readonly (readonly [Key, V])[]): Promise<void> {
  const writes: Promise<boolean>[] = [];
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const [key, value] of rows.slice(i, i + WRITE_CHUNK)) writes.push(db.put(key, value));
  }
  await Promise.all(writes);
}

/** Removes the keys of `prefix` older than `beforeMs` ([prefix, ms] keys), sparing the newest `keep`. */
export async function pruneOlder(db: Database<unknown, Key>, prefix: string, beforeMs: number, keep = 0): Promise<number> {
  const old = [...db.getKeys({ start: [prefix, Number.MIN_SAFE_INTEGER], end: [prefix, beforeMs] })];
  const doomed = keep === 0 ? old : old.slice(0, Math.max(0, old.length - keep));
  await Promise.all(doomed.map((k) => db.remove(k)));
  return doomed.length;
}
