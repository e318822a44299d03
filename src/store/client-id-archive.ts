// The engine's archive of client ids (engine/types.ts, ClientIdArchive) in a shard: what the
// checkpoint noted and has not committed yet, then LMDB, which keeps them for the retention (the
// hourly pruning removes older ones; the engine ignores any it finds older than the retention).
import type { ClientIdArchive, ClientIdRecord } from '../engine/types.js';
import type { CheckpointWriter } from './checkpoint.js';
import type { ClientIdEntry, ShardStore } from './store.js';

/** A client id the shard accepted, as the checkpoint noted it or LMDB holds it (any age). */
export function storedClientId(checkpoint: CheckpointWriter, store: ShardStore, login: string, clientId: string): ClientIdEntry | undefined {
  return checkpoint.clientId(login, clientId) ?? store.clientIds.get([login, clientId]);
}

export class StoredClientIds implements ClientIdArchive {
  constructor(readonly memoryMs: number, private readonly checkpoint: CheckpointWriter, private readonly store: ShardStore) {}

  find(login: string, clientId: string): ClientIdRecord | undefined {
    const entry = storedClientId(this.checkpoint, this.store, login, clientId);
    return entry === undefined ? undefined : { login, clientId, orderId: entry.orderId, atMs: entry.atMs };
  }
}
