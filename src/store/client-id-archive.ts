// The engine's archive of client ids (engine/types.ts, ClientIdArchive) in a shard: what the
// checkpoint noted and has not committed yet, then LMDB, which keeps them for the retention (the
// hourly pruning removes older ones; the engine ignores any it finds older than the retention).
//
// LMDB may hold client ids the engine has not reached yet: a checkpoint writes its history ahead of
// its record (checkpoint.ts), so after a crash the tables can hold entries of records a replay (or
// a cluster replica's catch-up) is about to apply again. Ids are allocated in order, so those are
// exactly the entries of orders this shard allocated after the engine's current id counter; they
// are not there yet for the engine, which makes them itself.
import { allocatedAfter } from '../engine/ids.js';
import type { ClientIdArchive, ClientIdRecord } from '../engine/types.js';
import type { CheckpointWriter } from './checkpoint.js';
import type { ClientIdEntry, ShardStore } from './store.js';

/** A client id the shard accepted, as the checkpoint noted it or LMDB holds it (any age). */
export function storedClientId(checkpoint: CheckpointWriter, store: ShardStore, login: string, clientId: string): ClientIdEntry | undefined {
  return checkpoint.clientId(login, clientId) ?? store.clientIds.get([login, clientId]);
}

const UNSERVED = (): number => { throw new Error('the client id archive was used before serve() named its engine\'s id counter'); };

export class StoredClientIds implements ClientIdArchive {
  private allocated: () => number = UNSERVED;

  constructor(readonly memoryMs: number, private readonly checkpoint: CheckpointWriter, private readonly store: ShardStore, private readonly shard: number) {}

  /** The engine this archive serves, by its id counter (the engine is made with the archive, so after it). */
  serve(allocated: () => number): void { this.allocated = allocated; }

  find(login: string, clientId: string): ClientIdRecord | undefined {
    const entry = this.checkpoint.clientId(login, clientId) ?? this.inTable(login, clientId);
    return entry === undefined ? undefined : { login, clientId, orderId: entry.orderId, atMs: entry.atMs };
  }

  private inTable(login: string, clientId: string): ClientIdEntry | undefined {
    const entry = this.store.clientIds.get([login, clientId]);
    return entry !== undefined && allocatedAfter(Number(entry.orderId), this.shard, this.allocated()) ? undefined : entry;
  }
}
