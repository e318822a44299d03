// LMDB environments. Each shard owns one environment (`<data_dir>/shard-<i>/`) holding the state
// of the accounts hashed to it; the main thread owns one (`<data_dir>/`) for keys, users,
// webhooks, symbols, kill-switch state, statistics and the audit log. Separate environments mean
// separate write locks and separate files to sync: one shard's commit never waits for another's.
// lmdb-js lets every thread open every environment; readers never block writers.
//
// Durability: a shard's orders are durable in its journal (journal/); its tables here are a
// checkpoint written behind it (checkpoint.ts), asynchronously, so the tables of a running shard
// may lag its journal by a moment. The main thread's own writes are asynchronous
// (`overlappingSync`), and it awaits `flushed()` where an answer depends on them.
import { open, type Database, type DatabaseOptions, type RootDatabase } from 'lmdb';
import fs from 'node:fs';
import path from 'node:path';
import type { Durability } from '../config/types.js';
import type { AccountRecord, DeadManRecord, EngineEvent, OrderRecord, PositionRecord, Quote, SymbolSpec, UnixMs } from '../engine/types.js';
import type { JournalPair } from './journal/home.js';
import { TableRegistry, table, type Key, type Table } from './table.js';
import { accountEncoder, clientIdEncoder, eventEncoder, orderEncoder, positionEncoder, type TableOfRecords, type ValueEncoder } from './record-codec.js';

export type { Key };

export interface ClientIdEntry { readonly orderId: string; readonly atMs: UnixMs }

/** What a shard's tables reflect: the journal up to `lsn`. */
export interface ShardMeta {
  readonly lsn: number;
  /** The shard's id counter after that record. */
  readonly idCounter: number;
  /** The last journaled quote of each symbol up to `lsn`: a replay starts from these prices. */
  readonly quotes: readonly Quote[];
  /** In a cluster: the sequence, in the shard's journal stream, of the message holding `lsn` (absent: 0). */
  readonly stream?: number;
}

/** The symbols every thread trades (written by the fixture seeding). */
export const SYMBOLS = table<string, SymbolSpec>('symbols');
/** The main environment's counters (`layout:shards`). */
export const MAIN_META = table<string, number>('meta');

/**
 * Every entry whose key starts with `login`, in key order: a range over the login prefix. A string
 * sentinel as the range's end cannot do it (keys sort by their UTF-8 bytes, and for any string
 * there are greater ones, U+FFFF and every code point above it among them).
 */
export function* loginRange<V, K extends [string, ...(string | number)[]]>(db: Database<V, K>, login: string): Generator<{ key: K; value: V }> {
  for (const entry of db.getRange({ start: [login] as unknown as K })) {
    if (entry.key[0] !== login) return;
    yield entry;
  }
}

/** One shard's account state; only that shard writes it. */
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
  /** [login, seq] → event, for `since_seq` replay; pruned after the retention. */
  readonly events: Database<EngineEvent, [string, number]>;
  /** [login, key id] → an armed dead-man's switch (disarmed ones leave). */
  readonly deadMen: Database<DeadManRecord, [string, string]>;
  /** `shard` → the checkpoint record (what LSN the tables reflect). */
  readonly checkpoint: Database<ShardMeta, 'shard'>;
}

export interface ShardStore extends AccountDbs, JournalPair {
  readonly root: RootDatabase;
  close(): Promise<void>;
}

const NO_CHECKPOINT: ShardMeta = { lsn: 0, idCounter: 0, quotes: [] };

/**
 * The checkpoint the tables hold. A data dir written before the journal existed has none: its
 * tables were committed with every batch, so they are complete, with the id counter kept in `meta`.
 */
export function checkpointOf(store: ShardStore): ShardMeta {
  const meta = store.checkpoint.get('shard');
  if (meta !== undefined) return meta;
  const legacy = store.root.openDB<number, string>({ name: 'meta', encoding: 'msgpack' }).get('idCounter');
  return { ...NO_CHECKPOINT, idCounter: legacy ?? 0 };
}

/** The main thread's store (also opened by the FIX thread to read keys). */
export interface Store {
  readonly root: RootDatabase;
  /** A main-owned table (keys, users, webhooks, …), opened on first use. */
  table<K extends Key, V>(t: Table<K, V>): Database<V, K>;
  /** Every shard's tables, in shard order: read-only here, and a checkpoint behind the shard's journal. */
  readonly shards: readonly AccountDbs[];
  /** Resolves once every main-thread write made so far is durable (at once with durability `none`). */
  flushed(): Promise<void>;
  close(): Promise<void>;
}

// Shared structures: each record shape is stored once per database under a symbol key (outside
// every key range scanned), values carry only the data (a filled order event shrinks from ~250 B
// to a few bytes of framing plus its values) and encoding is ~40% cheaper. The shards' hot tables
// are written in record-codec.ts's form instead and keep this handle only to read older values.
const STRUCTURES_KEY = Symbol.for('structures');

function openEnv(dir: string, durability: Durability, overlappingSync: boolean): RootDatabase {
  fs.mkdirSync(dir, { recursive: true });
  return open({
    path: dir,
    maxDbs: 64,
    overlappingSync: durability === 'sync' && overlappingSync,
    noSync: durability === 'none',
    // LMDB reserves address space, not disk.
    mapSize: 8 * 1024 ** 3,
  });
}

function openDb<V, K extends Key>(root: RootDatabase, name: string): Database<V, K> {
  return root.openDB<V, K>({ name, encoding: 'msgpack', sharedStructuresKey: STRUCTURES_KEY });
}

/**
 * A table of a shard's hot records, in the binary form of record-codec.ts; a value stored before
 * it (msgpack) is read through the table's msgpack handle, with its shared structures.
 */
function openRecordDb<V, K extends Key>(root: RootDatabase, name: string, encoderOf: (table: TableOfRecords) => ValueEncoder<V>): Database<V, K> {
  const legacy = openDb<unknown, K>(root, name) as Database<unknown, K> & { readonly decoder: { decode(bytes: Uint8Array): unknown } };
  const table: TableOfRecords = { where: `table ${name} in ${(root as RootDatabase & { readonly path: string }).path}`, legacy: (bytes) => legacy.decoder.decode(bytes) };
  // lmdb-js takes any { encode, decode } as `encoder`; its typings list the option on the root only.
  const options = { name, encoder: encoderOf(table) };
  return root.openDB<V, K>(options as DatabaseOptions & { name: string });
}

function accountDbsOf(root: RootDatabase): AccountDbs {
  return {
    accounts: openRecordDb(root, 'accounts', accountEncoder),
    orders: openRecordDb(root, 'orders', orderEncoder),
    pending: openRecordDb(root, 'pending', orderEncoder),
    positions: openRecordDb(root, 'positions', positionEncoder),
    clientIds: openRecordDb(root, 'client_ids', clientIdEncoder),
    events: openRecordDb(root, 'events', eventEncoder),
    deadMen: openDb(root, 'dead_men'),
    checkpoint: openDb(root, 'checkpoint'),
  };
}

export function shardDir(dataDir: string, shard: number): string {
  return path.join(dataDir, `shard-${shard}`);
}

/**
 * A shard's own environment, written by that shard only. `journalRoot`: config `journal.dir`, where
 * each shard's journal has a directory of its own; null: in the shard's data directory.
 */
export function openShardStore(dataDir: string, shard: number, durability: Durability, journalRoot: string | null): ShardStore {
  const dir = shardDir(dataDir, shard);
  const root = openEnv(dir, durability, false);
  const inPlaceJournalDir = path.join(dir, 'journal');
  return {
    root,
    journalDir: journalRoot === null ? inPlaceJournalDir : path.join(journalRoot, `shard-${shard}`),
    inPlaceJournalDir,
    journalHome: openDb(root, 'journal_home'),
    ...accountDbsOf(root),
    close: () => root.close(),
  };
}

/**
 * Told of every write to a main-owned table (a cluster node shares some with the others, see
 * src/cluster/shared-tables.ts); null: the table is not watched.
 */
export type TableObserver = (table: string) => { readonly put: (key: Key, value: unknown) => void; readonly remove: (key: Key) => void } | null;

/** The database, with every put and remove also told to `watch` once LMDB took it. */
function observed<V, K extends Key>(db: Database<V, K>, watch: NonNullable<ReturnType<TableObserver>>): Database<V, K> {
  return new Proxy(db, {
    get(target, prop, receiver) {
      const original = Reflect.get(target, prop, receiver) as unknown;
      if (typeof original !== 'function') return original;
      switch (prop) {
        case 'put':
        case 'putSync':
          return (key: K, value: V, ...rest: unknown[]) => {
            const done = (original as (...a: unknown[]) => unknown).call(target, key, value, ...rest);
            watch.put(key, value);
            return done;
          };
        case 'remove':
        case 'removeSync':
          return (key: K, ...rest: unknown[]) => {
            const done = (original as (...a: unknown[]) => unknown).call(target, key, ...rest);
            watch.remove(key);
            return done;
          };
        default:
          return (original as (...a: unknown[]) => unknown).bind(target);
      }
    },
  });
}

export function openStore(dataDir: string, durability: Durability, shardCount: number, observe: TableObserver = () => null): Store {
  const root = openEnv(dataDir, durability, true);
  const shardRoots = Array.from({ length: shardCount }, (_, i) => openEnv(shardDir(dataDir, i), durability, false));
  const tables = new TableRegistry((name) => {
    const db = openDb<unknown, Key>(root, name);
    const watch = observe(name);
    return watch === null ? db : observed(db, watch);
  });
  const none = Promise.resolve();
  return {
    root,
    table: (t) => tables.get(t),
    shards: shardRoots.map(accountDbsOf),
    flushed: durability === 'none' ? () => none : async () => { await root.flushed; },
    close: async () => { for (const r of shardRoots) await r.close(); await root.close(); },
  };
}
