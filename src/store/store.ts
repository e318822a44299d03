// The LMDB environment and its named databases. One environment for the whole service: shards
// write account state (each only its own accounts), the main thread writes keys, users, webhooks,
// kill-switch state, statistics and the audit log. lmdb-js allows every thread to open the same
// environment; LMDB serialises writers with its own lock.
//
// Durability: `overlappingSync` commits without waiting for the disk and flushes right after,
// outside the writer lock, so one shard's flush overlaps another's commit. Callers that acknowledge
// anything await `flushed()` after their commit (an acknowledged order is on disk first).
import { open, type Database, type RootDatabase } from 'lmdb';
import fs from 'node:fs';
import type { Durability } from '../config/types.js';
import type { AccountRecord, EngineEvent, OrderRecord, PositionRecord, SymbolSpec, UnixMs } from '../engine/types.js';
import type { JournalEntry } from './journal.js';

export type Key = string | number | (string | number)[];

export interface ClientIdEntry { readonly orderId: string; readonly atMs: UnixMs }

/** Account state, one writer per account (its shard). */
export interface AccountDbs {
  readonly accounts: Database<AccountRecord, string>;
  /** Every order (filled, cancelled, rejected and pending) by [login, numeric id]: per-account ranges. */
  readonly orders: Database<OrderRecord, [string, number]>;
  /** Pending orders only, so a shard loads them without scanning history. */
  readonly pending: Database<OrderRecord, string>;
  /** Open positions by ticket; a closed position leaves (its events remain). */
  readonly positions: Database<PositionRecord, number>;
  /** [login, client_id] → the order it created (DECISIONS: kept at least 24 h). */
  readonly clientIds: Database<ClientIdEntry, [string, string]>;
  /** [login, seq] → event, for `since_seq` replay. */
  readonly events: Database<EngineEvent, [string, number]>;
  /** [shard, n] → command with its time, replayable through the engine. */
  readonly journal: Database<JournalEntry, [number, number]>;
  /** Per-shard counters (`idCounter:<shard>`). */
  readonly meta: Database<number, string>;
  readonly symbols: Database<SymbolSpec, string>;
}

export interface Store extends AccountDbs {
  readonly root: RootDatabase;
  /** Databases owned by the main thread (keys, users, webhooks, …), opened on first use. */
  db<V>(name: string): Database<V, Key>;
  /** Resolves once every commit made so far is durable (immediately with durability `none`). */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

export function openStore(dataDir: string, durability: Durability): Store {
  fs.mkdirSync(dataDir, { recursive: true });
  const root = open({
    path: dataDir,
    maxDbs: 64,
    overlappingSync: durability === 'sync',
    noSync: durability === 'none',
    // Large map: LMDB reserves address space, not disk.
    mapSize: 8 * 1024 ** 3,
  });
  const openDb = <V, K extends Key>(name: string): Database<V, K> =>
    root.openDB<V, K>({ name, encoding: 'msgpack' });
  const extra = new Map<string, Database<unknown, Key>>();
  const none = Promise.resolve();
  return {
    root,
    accounts: openDb('accounts'),
    orders: openDb('orders'),
    pending: openDb('pending'),
    positions: openDb('positions'),
    clientIds: openDb('client_ids'),
    events: openDb('events'),
    journal: openDb('journal'),
    meta: openDb('meta'),
    symbols: openDb('symbols'),
    db<V>(name: string): Database<V, Key> {
      let db = extra.get(name);
      if (!db) { db = openDb<unknown, Key>(name); extra.set(name, db); }
      return db as Database<V, Key>;
    },
    flushed: durability === 'none' ? () => none : async () => { await root.flushed; },
    close: () => root.close(),
  };
}
