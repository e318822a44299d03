// The main thread's side of the shards: starts the workers with their rings, routes each command
// to the shard that owns its account, and drains the shards' answers. A full ring is backpressure
// the caller sees (ShardBusyError), never a silent drop; ticks, which only ever matter as the
// latest price, are conflated per symbol until the ring has room again.
import { Worker } from 'node:worker_threads';
import type { Command, Quote } from '../engine/types.js';
import { createDoorbell, createRing, FrameReader, FrameWriter, Inbox, type RingChannel } from '../ring/index.js';
import type { Logger } from '../util/log.js';
import type { AccountSnapshot, ReplyBody, ShardInbound, ShardOutbound, ShardSignal } from './protocol.js';
import { shardOf } from './protocol.js';
import type { ShardWorkerData } from './worker-data.js';

export const INBOUND_RING_BYTES = 1 << 20;
export const OUTBOUND_RING_BYTES = 4 << 20;
const MAX_DRAIN_FRAMES = 256;

export class ShardBusyError extends Error {
  constructor(readonly shard: number) { super(`shard ${shard} queue is full`); }
}

export type BatchListener = (batch: ShardOutbound) => void;

/**
 * The rings the FIX thread uses to reach every shard (it consumes the `fromShards` side). Any
 * further ring into the FIX thread must be created with `doorbell`, so one Inbox wakes it for all.
 */
export interface PeerRings {
  readonly toShards: readonly RingChannel[];
  readonly fromShards: readonly RingChannel[];
  readonly doorbell: SharedArrayBuffer;
}

export interface ShardPoolOptions extends Omit<ShardWorkerData, 'shard' | 'inbound' | 'outbound'> {
  readonly log: Logger;
  /** Called when a shard thread dies: the service cannot run without an account's writer. */
  readonly onFatal: (err: Error) => void;
}

interface Shard {
  readonly worker: Worker;
  readonly writer: FrameWriter<ShardInbound>;
  readonly reader: FrameReader<ShardOutbound>;
  /** Latest quote per symbol not yet accepted by the ring. */
  readonly heldTicks: Map<string, Quote>;
}

export class ShardPool {
  readonly fixRings: PeerRings;
  private readonly shards: Shard[] = [];
  private readonly pending = new Map<number, (body: ReplyBody) => void>();
  private readonly listeners: BatchListener[] = [];
  private readonly inbox: Inbox;
  private corr = 0;
  private running = true;
  private stoppedSignals = 0;
  private onStopped: (() => void) | null = null;

  private constructor(private readonly opts: ShardPoolOptions) {
    const mainBell = createDoorbell();
    const fixBell = createDoorbell();
    const toFix: RingChannel[] = [];
    const fromFix: RingChannel[] = [];
    const fromShards: RingChannel[] = [];
    for (let shard = 0; shard < opts.shards; shard++) {
      const bell = createDoorbell();
      const inbound = [createRing(INBOUND_RING_BYTES, bell), createRing(INBOUND_RING_BYTES, bell)];
      const outbound = [createRing(OUTBOUND_RING_BYTES, mainBell), createRing(OUTBOUND_RING_BYTES, fixBell)];
      fromFix.push(inbound[1]!);
      toFix.push(outbound[1]!);
      fromShards.push(outbound[0]!);
      const { log: _log, onFatal: _onFatal, ...shared } = opts;
      const data: ShardWorkerData = { ...shared, shard, inbound, outbound };
      const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: data, name: `shard-${shard}` });
      this.shards.push({ worker, writer: new FrameWriter(inbound[0]!), reader: new FrameReader(outbound[0]!), heldTicks: new Map() });
    }
    this.fixRings = { toShards: fromFix, fromShards: toFix, doorbell: fixBell };
    this.inbox = new Inbox(fromShards);
  }

  static async start(opts: ShardPoolOptions): Promise<ShardPool> {
    const pool = new ShardPool(opts);
    await Promise.all(pool.shards.map((s, i) => pool.watch(s.worker, i)));
    void pool.drainLoop();
    return pool;
  }

  get size(): number { return this.shards.length; }

  threadIds(): number[] { return this.shards.map((s) => s.worker.threadId); }

  onBatch(listener: BatchListener): void { this.listeners.push(listener); }

  /** Sends a command to the account's shard; resolves with its reply after the shard's commit. */
  request(login: string, cmd: Command): Promise<ReplyBody> {
    return this.send(shardOf(login, this.shards.length), (corr) => ({ t: 'cmd', corr, cmd }));
  }

  async query(login: string): Promise<AccountSnapshot | null> {
    const body = await this.send(shardOf(login, this.shards.length), (corr) => ({ t: 'query', corr, query: { kind: 'account', login } }));
    return 'snapshot' in body ? body.snapshot : null;
  }

  /** Every shard sees every tick (pending orders and SL/TP may wait on any symbol). */
  tick(quote: Quote): void {
    for (const shard of this.shards) {
      if (shard.heldTicks.size > 0 || !shard.writer.tryWrite({ t: 'tick', quote })) shard.heldTicks.set(quote.symbol, quote);
      if (shard.heldTicks.size > 0) this.flushTicks(shard);
    }
  }

  async stop(): Promise<void> {
    const stopped = new Promise<void>((resolve) => { this.onStopped = resolve; });
    for (const shard of this.shards) {
      while (!shard.writer.tryWrite({ t: 'stop' })) await new Promise((r) => setTimeout(r, 1));
    }
    await stopped;
    this.running = false;
    // The shards wrote their last frames before signalling; deliver them before closing.
    for (const shard of this.shards) while (shard.reader.drain(MAX_DRAIN_FRAMES, (batch) => this.deliver(batch)) > 0);
    this.inbox.close();
  }

  private send(index: number, frame: (corr: number) => ShardInbound): Promise<ReplyBody> {
    const shard = this.shards[index]!;
    // Ticks held back by a full ring go first, so the command fills at the latest price.
    if (!this.flushTicks(shard)) return Promise.reject(new ShardBusyError(index));
    const corr = ++this.corr;
    if (!shard.writer.tryWrite(frame(corr))) return Promise.reject(new ShardBusyError(index));
    return new Promise((resolve) => { this.pending.set(corr, resolve); });
  }

  /** True when nothing is held back any more. */
  private flushTicks(shard: Shard): boolean {
    for (const [symbol, quote] of shard.heldTicks) {
      if (!shard.writer.tryWrite({ t: 'tick', quote })) return false;
      shard.heldTicks.delete(symbol);
    }
    return true;
  }

  private async drainLoop(): Promise<void> {
    while (this.running) {
      let frames = 0;
      for (const shard of this.shards) {
        frames += shard.reader.drain(MAX_DRAIN_FRAMES, (batch) => this.deliver(batch));
        if (shard.heldTicks.size > 0) this.flushTicks(shard);
      }
      if (frames === 0 && !(await this.inbox.whenReadable())) return;
    }
  }

  private deliver(batch: ShardOutbound): void {
    for (const listener of this.listeners) {
      try {
        listener(batch);
      } catch (err) {
        this.opts.log.error({ err }, 'shard batch listener failed');
      }
    }
    for (const { corr, body } of batch.replies) {
      const resolve = this.pending.get(corr);
      if (resolve) { this.pending.delete(corr); resolve(body); }
    }
  }

  private watch(worker: Worker, shard: number): Promise<void> {
    return new Promise((resolve, reject) => {
      worker.on('message', (s: ShardSignal) => {
        if (s.t === 'ready') resolve();
        if (s.t === 'stopped' && ++this.stoppedSignals === this.shards.length) this.onStopped?.();
      });
      worker.on('error', (err) => { reject(err); this.opts.onFatal(err); });
      worker.on('exit', (code) => {
        if (this.running && code !== 0) {
          const err = new Error(`shard ${shard} exited with code ${code}`);
          reject(err);
          this.opts.onFatal(err);
        }
      });
    });
  }
}
