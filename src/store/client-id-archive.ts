// The engine's archive of client ids (engine/types.ts, ClientIdArchive) in a shard: what the
// checkpoint noted and has not committed yet, then LMDB, which keeps them for the retention (the
// hourly pruning removes older ones; the engine ignores any it finds older than the retention).
import type { ClientIdArchive, ClientIdRecord } from '../engine/types.js';
import type { CheckpointWriter } from './checkpoint.js';
import type { ShardStore } from './store.js';

export class StoredClientIds implements ClientIdArchive {
  constructor(readonly memoryMs: number, private readonly checkpoint: CheckpointWriter, private readonly store: ShardStore) {}

  find(login: string, clientId: string): ClientIdRecord | undefined {
    const entry = this.checkpoint.clientId(login, clientId) ?? this.store.clientIds.get([login, clientId]);
    return entry === undefined ? undefined : { login, clientId, orderId: entry.orderId, atMs: entry.atMs };
  }
}
