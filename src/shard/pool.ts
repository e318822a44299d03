// The main thread's side of the shards: starts the workers with their rings, gives the main thread
// its ShardClient over them (and the FIX thread its own rings), and runs the main thread's
// delivery loop. Nothing here blocks the main thread: it waits for the shards with
// Atomics.waitAsync (Inbox), and delivers a large batch in slices between socket turns.
import { Worker } from 'node:worker_threads';
import { createDoorbell, createRing, eventLoopTurn, Inbox, type RingChannel } from '../ring/index.js';
import type { Logger } from '../base/log.js';
import { ThreadMemoryBoard, type ThreadMemory } from '../base/thread-memory.js';
import { ShardCalls } from './calls.js';
import { ShardClient } from './client.js';
import type { CheckpointHealth, JournalHealth, ShardSignal } from './protocol.js';
import { RingTransport } from './ring-transport.js';
import { ShardStatsBoard, type ShardFigures } from './stats.js';
import type { LaneFigures } from './client.js';
import type { ShardWorkerData } from './worker-data.js';

export interface ShardPoolFigures extends ShardFigures {
  readonly shard: number;
  /** The rings between the shard and the main thread and the FIX thread. */
  readonly rings: { readonly mainIn: RingChannel; readonly mainOut: RingChannel; readonly fixIn: RingChannel; readonly fixOut: RingChannel };
  /** The main thread's commands in flight to the shard and its refused sends. */
  readonly lane: LaneFigures;
}

/**
 * A shard's young generation (resourceLimits, MB; V8 makes its new space two thirds of it), held at
 * the size V8 runs a shard with for its first minutes: left to itself, V8 doubles a loaded
 * worker's new space from 16 to 32 MB at a moment of its choosing and may halve it again later,
 * a shard's heap stepping between ~30 and ~52 MB (make soak: +16 to +24 MB per shard at 3 to 7
 * minutes). Capped, a shard's memory settles within its first minutes and stays.
 */
const SHARD_YOUNG_GENERATION_MB = 24;

export const INBOUND_RING_BYTES = 1 << 20;
export const OUTBOUND_RING_BYTES = 4 << 20;
/** Longest the main thread delivers shard frames before its sockets get a turn. */
const DELIVERY_SLICE_MS = 2;
const BLOCKED_RETRY_MS = 1;

/**
 * The rings the FIX thread uses to reach every shard (it consumes the `fromShards` side). Any
 * further ring into the FIX thread must be created with `doorbell`, so one Inbox wakes it for all.
 */
export interface PeerRings {
  readonly toShards: readonly RingChannel[];
  readonly fromShards: readonly RingChannel[];
  readonly doorbell: SharedArrayBuffer;
}

export interface ShardPoolOptions extends Omit<ShardWorkerData, 'shard' | 'inbound' | 'outbound' | 'stats' | 'memory'> {
  readonly log: Logger;
  /** The shard thread's module: ./worker.js unless a cluster node runs its own (src/cluster). */
  readonly workerUrl?: URL;
  /** Called when a shard thread dies: the service cannot run without an account's writer. */
  readonly onFatal: (err: Error) => void;
}

export class ShardPool {
  readonly fixRings: PeerRings;
  readonly client: ShardClient;
  readonly calls: ShardCalls;
  private readonly workers: Worker[] = [];
  private readonly boards: ShardStatsBoard[] = [];
  private readonly memoryBoards: ThreadMemoryBoard[] = [];
  private readonly rings: { readonly mainIn: RingChannel; readonly mainOut: RingChannel; readonly fixIn: RingChannel; readonly fixOut: RingChannel }[] = [];
  private readonly journals: JournalHealth[];
  private readonly checkpoints: CheckpointHealth[];
  private readonly inbox: Inbox;
  private running = true;
  private stoppedSignals = 0;
  private onStopped: (() => void) | null = null;

  private constructor(private readonly opts: ShardPoolOptions) {
    const mainBell = createDoorbell();
    const fixBell = createDoorbell();
    const fromMain: RingChannel[] = [];
    const toMain: RingChannel[] = [];
    const fromFix: RingChannel[] = [];
    const toFix: RingChannel[] = [];
    for (let shard = 0; shard < opts.shards; shard++) {
      const bell = createDoorbell();
      const inbound = [createRing(INBOUND_RING_BYTES, bell), createRing(INBOUND_RING_BYTES, bell)];
      const outbound = [createRing(OUTBOUND_RING_BYTES, mainBell), createRing(OUTBOUND_RING_BYTES, fixBell)];
      fromMain.push(inbound[0]!);
      fromFix.push(inbound[1]!);
      toMain.push(outbound[0]!);
      toFix.push(outbound[1]!);
      const { log: _log, onFatal: _onFatal, workerUrl = new URL('./worker.js', import.meta.url), ...shared } = opts;
      const stats = ShardStatsBoard.create();
      this.boards.push(stats);
      this.rings.push({ mainIn: inbound[0]!, mainOut: outbound[0]!, fixIn: inbound[1]!, fixOut: outbound[1]! });
      const memory = ThreadMemoryBoard.create();
      this.memoryBoards.push(memory);
      const data: ShardWorkerData = { ...shared, shard, inbound, outbound, stats: stats.sab, memory: memory.sab };
      this.workers.push(new Worker(workerUrl, { workerData: data, name: `shard-${shard}`, resourceLimits: { maxYoungGenerationSizeMb: SHARD_YOUNG_GENERATION_MB } }));
    }
    this.fixRings = { toShards: fromFix, fromShards: toFix, doorbell: fixBell };
    this.inbox = new Inbox(toMain);
    this.client = new ShardClient(new RingTransport(fromMain, toMain), (err) => opts.log.error({ err }, 'shard answer handler failed'));
    this.calls = new ShardCalls(this.client);
    this.journals = this.workers.map(() => ({ state: 'ok' }));
    this.checkpoints = this.workers.map(() => ({ state: 'ok' }));
    this.client.listen({
      health: (shard, health) => { this.journals[shard] = health; },
      checkpointHealth: (shard, health) => { this.checkpoints[shard] = health; },
    });
  }

  /** Resolves once every shard has recovered; nothing is delivered before run(). */
  static async start(opts: ShardPoolOptions): Promise<ShardPool> {
    const pool = new ShardPool(opts);
    await Promise.all(pool.workers.map((w, i) => pool.watch(w, i)));
    return pool;
  }

  /** Starts delivering what the shards send (attach the client's listeners first). */
  run(): void {
    void this.deliveryLoop();
  }

  get size(): number { return this.workers.length; }

  threadIds(): number[] { return this.workers.map((w) => w.threadId); }

  /** Each shard's own figures, its rings and what the main thread's client sees of it, for metrics. */
  figures(): ShardPoolFigures[] {
    const lanes = this.client.figures();
    return this.boards.map((board, shard) => ({ shard, ...board.read(), rings: this.rings[shard]!, lane: lanes[shard]! }));
  }

  /** Each shard thread's memory as it last recorded it (within a second), for metrics. */
  memory(): readonly ThreadMemory[] { return this.memoryBoards.map((b) => b.read()); }

  /** Each shard's journal: whether it can make orders durable now (for /health). */
  journalHealth(): readonly JournalHealth[] { return this.journals; }

  /** Each shard's checkpoints: whether they become durable (for /health). */
  checkpointHealth(): readonly CheckpointHealth[] { return this.checkpoints; }

  async stop(): Promise<void> {
    const stopped = new Promise<void>((resolve) => { this.onStopped = resolve; });
    // The delivery loop keeps flushing until every shard took its stop frame.
    this.client.stop();
    await stopped;
    this.running = false;
    // The shards wrote their last frames before signalling; deliver them before closing.
    while (this.client.receive(Number.POSITIVE_INFINITY) > 0 || this.client.backlogged);
    this.inbox.close();
  }

  /**
   * With nothing to deliver the thread sleeps on the doorbell (after the Inbox's short spin) even
   * while answers are due. Polling between socket turns instead, until no answer came for 2 ms,
   * kept this thread on a core the shards needed: at 32 orders in flight it cost 75-81 µs of CPU
   * per order in all against 51-55 µs sleeping, 20.6-21.6k against 24.5-25.3k orders/s (2 shards,
   * in-process), and through the service it bought no latency (REST and FIX rows in
   * docs/architecture.md, "Measured").
   */
  private async deliveryLoop(): Promise<void> {
    while (this.running) {
      const frames = this.client.receive(DELIVERY_SLICE_MS);
      if (this.client.backlogged) {
        await eventLoopTurn();
      } else if (this.client.blocked && !this.client.flush()) {
        // A shard's queue is full: retry shortly, or as soon as a shard answers (it drained some).
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.inbox.whenReadable(), new Promise((resolve) => { timer = setTimeout(resolve, BLOCKED_RETRY_MS); })]);
        clearTimeout(timer);
      } else if (frames === 0 && !(await this.inbox.whenReadable())) {
        return;
      }
    }
  }

  private watch(worker: Worker, shard: number): Promise<void> {
    return new Promise((resolve, reject) => {
      worker.on('message', (s: ShardSignal) => {
        if (s.t === 'ready') resolve();
        if (s.t === 'stopped' && ++this.stoppedSignals === this.workers.length) this.onStopped?.();
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
