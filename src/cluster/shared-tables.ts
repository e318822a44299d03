// The main thread's shared data in a cluster (keys, users, webhooks, user kill switches): each node
// keeps them in its own LMDB as before, and every write to one of these tables is also put in the
// cluster's main KV bucket, under `<table>.<key>`, naming the node that wrote it. Every node watches
// the bucket: another node's write is applied to its LMDB and its caches are told (the key ring,
// the webhook book, the kill switches), so a key paused on one node is paused on all within the
// bucket's delivery time (milliseconds). A node that starts applies what the bucket holds, so it
// sees what was changed while it was away. Sealed secrets travel sealed: every node of a cluster
// has the same master.key (the bucket holds a fingerprint of it, and a node with another refuses
// to start).
import type { KV, KvWatchEntry } from '@nats-io/kv';
import { Packr } from 'msgpackr';
import type { Key, Store, TableObserver } from '../store/store.js';
import type { Table } from '../store/table.js';
import type { Logger } from '../base/log.js';

const packr = new Packr({ useRecords: false });
const MASTER_KEY_FINGERPRINT = 'master_key_fingerprint';

/** What a node is told when another changed a row: the row's key. */
export type SharedListeners = Readonly<Record<string, (key: Key) => void>>;

interface Shared { readonly node: string; readonly value: unknown }

const kvKey = (table: string, key: Key): string => `${table}.${Buffer.from(packr.pack(key)).toString('base64url')}`;

export class MasterKeyMismatchError extends Error {}

export class SharedTables {
  private applying = false;
  private stopped = false;

  private readonly byName: ReadonlyMap<string, Table<Key, unknown>>;

  constructor(private readonly kv: KV, private readonly node: string, tables: readonly Table<Key, unknown>[], private readonly log: Logger) {
    this.byName = new Map(tables.map((t) => [t.name, t]));
  }

  /** Refuses a node whose master.key differs from the cluster's (the first node's), by their fingerprints. */
  async checkMasterKey(mine: string): Promise<void> {
    try {
      await this.kv.create(MASTER_KEY_FINGERPRINT, mine);
      return;
    } catch {
      // Another node set it first.
    }
    const theirs = (await this.kv.get(MASTER_KEY_FINGERPRINT))?.string();
    if (theirs !== mine) {
      throw new MasterKeyMismatchError('this data dir\'s master.key differs from the cluster\'s: copy the master.key of a node of the cluster into this data dir before its first start (every node unseals the same secrets)');
    }
  }

  /** The store's observer: writes to shared tables (other than those applied from the bucket) go to the bucket too. */
  readonly observe: TableObserver = (table) => {
    if (!this.byName.has(table)) return null;
    const publish = (key: Key, value: unknown): void => {
      if (this.applying || this.stopped) return;
      this.kv.put(kvKey(table, key), packr.pack({ node: this.node, value } satisfies Shared)).catch((err: unknown) => {
        this.log.error({ err, table }, 'a shared change could not reach the cluster (other nodes keep the old value until the next change)');
      });
    };
    return { put: (key, value) => publish(key, value), remove: (key) => publish(key, null) };
  };

  /** Applies what the bucket holds, then every change other nodes make, until stop(). */
  async watch(store: Store, listeners: SharedListeners): Promise<void> {
    // One watch of the whole bucket (a watch of several subjects needs NATS 2.10; this is 2.9).
    const entries = await this.kv.watch();
    void (async () => {
      for await (const e of entries) {
        if (this.stopped) break;
        this.apply(e, store, listeners);
      }
    })();
  }

  stop(): void { this.stopped = true; }

  private apply(e: KvWatchEntry, store: Store, listeners: SharedListeners): void {
    const dot = e.key.indexOf('.');
    const table = e.key.slice(0, Math.max(dot, 0));
    const spec = this.byName.get(table);
    if (spec === undefined) return;
    let key: Key;
    let shared: Shared;
    try {
      key = packr.unpack(Buffer.from(e.key.slice(dot + 1), 'base64url')) as Key;
      shared = packr.unpack(e.value) as Shared;
    } catch (err) {
      this.log.warn({ err, key: e.key }, 'shared row that does not decode dropped');
      return;
    }
    // This node's own changes are in its LMDB already (at start too: the bucket only repeats them).
    if (shared.node === this.node) return;
    const db = store.table(spec);
    this.applying = true;
    try {
      if (shared.value === null || e.operation !== 'PUT') db.removeSync(key);
      else db.putSync(key, shared.value);
    } finally {
      this.applying = false;
    }
    try {
      listeners[table]?.(key);
    } catch (err) {
      this.log.error({ err, table }, 'applying a shared change failed');
    }
  }
}

