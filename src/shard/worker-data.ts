// What the main thread hands a shard worker at start (structured-cloned; SharedArrayBuffers shared).
import type { Durability, LogLevel } from '../config/types.js';
import type { SymbolSpec } from '../engine/types.js';
import type { RingChannel } from '../ring/index.js';

export interface ShardWorkerData {
  readonly shard: number;
  readonly shards: number;
  readonly dataDir: string;
  readonly durability: Durability;
  readonly logLevel: LogLevel;
  readonly symbols: readonly SymbolSpec[];
  readonly board: { readonly sab: SharedArrayBuffer; readonly symbols: readonly string[] };
  readonly clientIdRetentionMs: number;
  /** Rings into the shard, indexed by peer (main, fix); they share the shard's doorbell. */
  readonly inbound: readonly RingChannel[];
  /** Rings out of the shard, indexed by peer. */
  readonly outbound: readonly RingChannel[];
}
