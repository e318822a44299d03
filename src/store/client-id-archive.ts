// The engine's archive of client ids (engine/types.ts, ClientIdArchive) in a shard: what the
// checkpoint noted and has not committed yet, then LMDB, which keeps them for the retention (the
// hourly pruning removes older ones; the engine ignores any it finds older than the retention).
//
// While a start replays the journal onto a checkpoint, LMDB may already hold client ids of the
// records being replayed (the history is written ahead of the state, checkpoint.ts): those of
// orders allocated after the checkpoint's id counter are not there yet for the replay, which
// makes them itself.
import { allocatedAfter } from '../engine/ids.js';
import type { ClientIdArchive, ClientIdRecord } from '../engine/types.js';
import type { CheckpointWriter } from './checkpoint.js';
import type { ClientIdEntry, ShardStore } from './store.js';

/** A client id the shard accepted, as the checkpoint noted it or LMDB holds it (any age). */
export function storedClientId(checkpoint: CheckpointWriter, store: ShardStore, login: string, clientId: string): ClientIdEntry | undefined {
  return checkpoint.clientId(login, clientId) ?? store.clientIds.get([login, clientId]);
}

/** While a replay rebuilds the state of a checkpoint: the shard and the checkpoint's id counter. */
export interface ReplayHorizon { readonly shard: number; readonly idCounter: number }

export class StoredClientIds implements ClientIdArchive {
  constructor(
    readonly memoryMs: number,
    private readonly checkpoint: CheckpointWriter,
    private readonly store: ShardStore,
    private horizon: ReplayHorizon | null,
  ) {}

  /** The replay is over: everything stored is part of the state now. */
  replayed(): void { this.horizon = null; }

  find(login: string, clientId: string): ClientIdRecord | undefined {
    const entry = this.checkpoint.clientId(login, clientId) ?? this.inTable(login, clientId);
    return entry === undefined ? undefined : { login, clientId, orderId: entry.orderId, atMs: entry.atMs };
  }

  /** LMDB's entry; during a replay, only one the replayed checkpoint's state already had. */
  private inTable(login: string, clientId: string): ClientIdEntry | undefined {
    const entry = this.store.clientIds.get([login, clientId]);
    const { horizon } = this;
    return entry !== undefined && horizon !== null && allocatedAfter(Number(entry.orderId), horizon.shard, horizon.idCounter) ? undefined : entry;
  }
}
