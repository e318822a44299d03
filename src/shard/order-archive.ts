// Every order a shard ever accepted, as the shard itself can read it: the engine holds pending and
// recent ones, the checkpoint what it noted but has not committed yet, LMDB the rest. Only the
// shard reads here; other threads ask it (a query) or get the order in an answer.
import type { Engine } from '../engine/engine.js';
import type { OrderRecord } from '../engine/types.js';
import type { CheckpointWriter } from '../store/checkpoint.js';
import { storedClientId } from '../store/client-id-archive.js';
import type { ShardStore } from '../store/store.js';
import type { OrderRef } from './protocol.js';

const ORDER_ID = /^\d{1,15}$/;

export class OrderArchive {
  constructor(private readonly engine: Engine, private readonly checkpoint: CheckpointWriter, private readonly store: ShardStore) {}

  order(login: string, orderId: string): OrderRecord | null {
    const live = this.engine.order(login, orderId);
    if (live !== null) return live;
    const noted = this.checkpoint.order(login, orderId);
    if (noted !== undefined) return noted;
    if (!ORDER_ID.test(orderId)) return null;
    return this.store.orders.get([login, Number(orderId)]) ?? null;
  }

  find(login: string, ref: OrderRef): OrderRecord | null {
    if (ref.by === 'id') return this.order(login, ref.orderId);
    const orderId = this.engine.orderIdOfClientId(login, ref.clientId)
      ?? storedClientId(this.checkpoint, this.store, login, ref.clientId)?.orderId;
    return orderId === undefined || orderId === null ? null : this.order(login, orderId);
  }
}
