// What the main thread hands a shard worker at start (structured-cloned; SharedArrayBuffers shared).
import type { LogLevel } from '../base/log.js';
import type { AppConfig, Durability, ShardIdle } from '../config/types.js';
import type { MarginPolicy, SymbolSpec } from '../engine/types.js';
import type { RingChannel } from '../ring/index.js';

export interface ShardWorkerData {
  readonly shard: number;
  readonly shards: number;
  readonly dataDir: string;
  readonly durability: Durability;
  readonly idle: ShardIdle;
  readonly journal: AppConfig['journal'];
  readonly logLevel: LogLevel;
  readonly symbols: readonly SymbolSpec[];
  /** Stop-out levels per account group (config `margin`). */
  readonly marginPolicy: MarginPolicy;
  readonly board: { readonly sab: SharedArrayBuffer; readonly symbols: readonly string[] };
  readonly clientIdRetentionMs: number;
  /** Client ids younger than this stay in the engine's memory; it finds older ones in LMDB. */
  readonly clientIdMemoryMs: number;
  /** Journaled events older than this leave (config stream.retention_hours). */
  readonly eventRetentionMs: number;
  /** Key-level kill switches, from the main thread's key records. */
  readonly haltedKeys: readonly { readonly login: string; readonly keyId: string }[];
  /** The shard's figures for metrics (stats.ts). */
  readonly stats: SharedArrayBuffer;
  /** The shard thread's memory figures for metrics (src/base/thread-memory.ts). */
  readonly memory: SharedArrayBuffer;
  /** Rings into the shard, indexed by peer (main, fix); they share the shard's doorbell. */
  readonly inbound: readonly RingChannel[];
  /** Rings out of the shard, indexed by peer. */
  readonly outbound: readonly RingChannel[];
  /** In a cluster: how this node reaches the others (src/cluster/shard-worker.ts runs the shard). */
  readonly cluster?: ClusterShardData;
}

export interface ClusterShardData {
  readonly node: string;
  readonly servers: readonly string[];
  readonly leaseMs: number;
  /** Shards this node claims at once when free (config cluster.preferred_shards). */
  readonly preferredShards: readonly number[];
}
