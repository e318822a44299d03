// The main thread's side of the FIX gateway: the TLS certificate (configured, or self-signed into
// the data dir), the tick ring fed from the market, and the FIX worker thread with the shard rings
// the pool made for it. Resolves once the listener is bound, with its port (port 0 = any free one).
import { Worker } from 'node:worker_threads';
import type { Logger } from '../base/log.js';
import { ThreadMemoryBoard, type ThreadMemory } from '../base/thread-memory.js';
import type { AppConfig } from '../config/types.js';
import type { SymbolSpec } from '../engine/types.js';
import type { Market } from '../market/market.js';
import type { ShardPool } from '../shard/pool.js';
import type { FixCounters } from './counters.js';
import { TickForwarder } from './tick-ring.js';
import { fixTls } from './tls-cert.js';
import type { FixToMain, FixWorkerData, MainToFix } from './worker-data.js';

const STOP_TIMEOUT_MS = 5000;

export interface FixGatewayHandle {
  readonly port: number;
  /** The FIX thread's memory as it last recorded it (within a second), for metrics. */
  memory(): ThreadMemory;
  /** Logs every session out (Logout handshake), stops the thread. */
  close(): Promise<void>;
}

/** What the main thread gives the FIX gateway; `counters` is the memory the FIX thread counts into. */
export interface FixContext {
  readonly config: AppConfig;
  readonly log: Logger;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  readonly market: Market;
  readonly pool: ShardPool;
  readonly counters: FixCounters;
}

export async function startFixGateway(ctx: FixContext, onFatal: (err: Error) => void): Promise<FixGatewayHandle> {
  const { config } = ctx;
  const tls = fixTls(config.data_dir, config.fix.tls, Date.now());
  const rings = ctx.pool.fixRings;
  const ticks = new TickForwarder(rings.doorbell);
  const { counters } = ctx;
  const memory = ThreadMemoryBoard.create();
  const data: FixWorkerData = {
    fix: config.fix, dataDir: config.data_dir, durability: config.durability, logLevel: config.log.level,
    tls: { cert: tls.cert, key: tls.key }, symbols: [...ctx.symbols.values()],
    board: { sab: ctx.market.board.sab, symbols: ctx.market.board.symbols },
    toShards: rings.toShards, fromShards: rings.fromShards, ticks: ticks.channel, counters: counters.sab, memory: memory.sab,
  };
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: data, name: 'fix' });
  let running = true;
  let stopped: (() => void) | null = null;
  const port = await new Promise<number>((resolve, reject) => {
    worker.on('message', (m: FixToMain) => {
      if (m.t === 'listening') resolve(m.port);
      if (m.t === 'stopped') stopped?.();
    });
    worker.on('error', (err) => { reject(err); if (running) onFatal(err); });
    worker.on('exit', (code) => {
      stopped?.();
      const err = new Error(`fix thread exited with code ${code}`);
      reject(err);
      if (running && code !== 0) onFatal(err);
    });
  });
  const unsubscribe = ctx.market.subscribe((quote) => ticks.forward(quote));
  ctx.log.info({ port, tls: tls.origin, cert: tls.certPath }, 'fix gateway listening');
  return {
    port,
    memory: () => memory.read(),
    async close() {
      running = false;
      unsubscribe();
      ticks.close();
      const done = new Promise<void>((resolve) => { stopped = resolve; });
      worker.postMessage({ t: 'stop' } satisfies MainToFix);
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), STOP_TIMEOUT_MS).unref());
      // The thread reports 'stopped' once its sessions logged out and LMDB is closed; its parentPort
      // keeps it alive, so it is terminated either way (after the timeout if it never reports).
      if ((await Promise.race([done, timeout])) === 'timeout') ctx.log.warn('fix thread did not stop in time');
      await worker.terminate();
    },
  };
}
