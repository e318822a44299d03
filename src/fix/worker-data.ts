// What the main thread hands the FIX worker at start (structured-cloned; SharedArrayBuffers shared),
// and the messages between the two.
import type { LogLevel } from '../base/log.js';
import type { AppConfig, Durability } from '../config/types.js';
import type { SymbolSpec } from '../engine/types.js';
import type { RingChannel } from '../ring/index.js';

export interface FixWorkerData {
  readonly fix: AppConfig['fix'];
  readonly dataDir: string;
  readonly durability: Durability;
  readonly logLevel: LogLevel;
  readonly tls: { readonly cert: string; readonly key: string };
  readonly symbols: readonly SymbolSpec[];
  readonly board: { readonly sab: SharedArrayBuffer; readonly symbols: readonly string[] };
  /** Per shard: the ring the FIX thread writes into and the one it reads. */
  readonly toShards: readonly RingChannel[];
  readonly fromShards: readonly RingChannel[];
  /** Ticks from the main thread, created with the FIX thread's doorbell. */
  readonly ticks: RingChannel;
  /** FixCounters' memory, read by the main thread's metrics. */
  readonly counters: SharedArrayBuffer;
  /** The FIX thread's memory figures for metrics (src/base/thread-memory.ts). */
  readonly memory: SharedArrayBuffer;
}

export type FixToMain =
  | { readonly t: 'listening'; readonly port: number }
  | { readonly t: 'stopped' };

export type MainToFix = { readonly t: 'stop' };
