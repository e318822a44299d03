// A shard's own figures for metrics, counted by the shard in shared memory and read by the main
// thread at scrape time, so a scrape never sends a shard anything. One writer (the shard), any
// number of readers; every word is a BigInt64 updated with Atomics, so a reader never sees half a
// value (a scrape may see a sync counted before its duration: a difference of one, for one scrape).
//
//   word 0  syncs            word 1  sync µs total      words 2..   sync µs, one per SYNC_BUCKETS_US (≤ bound), then > last
//   then    batches          then    commands total     then        commands per batch, one per BATCH_BUCKETS, then > last
//   then    checkpoints durable                         then        checkpoints failed

/** Upper bounds (µs) of the journal sync duration histogram. */
export const SYNC_BUCKETS_US: readonly number[] = [50, 100, 150, 200, 300, 500, 1000, 2000, 5000, 10_000, 50_000];
/** Upper bounds of the commands-per-batch histogram. */
export const BATCH_BUCKETS: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048];

const SYNCS = 0;
const SYNC_US = 1;
const SYNC_HIST = 2;
const BATCHES = SYNC_HIST + SYNC_BUCKETS_US.length + 1;
const COMMANDS = BATCHES + 1;
const BATCH_HIST = COMMANDS + 1;
const CHECKPOINTS = BATCH_HIST + BATCH_BUCKETS.length + 1;
const CHECKPOINTS_FAILED = CHECKPOINTS + 1;
const WORDS = CHECKPOINTS_FAILED + 1;

export interface Histogram {
  /** counts[i]: observations in bucket i (≤ bounds[i], above the bound before); the last: above every bound. */
  readonly counts: readonly number[];
  readonly sum: number;
}

export interface ShardFigures {
  readonly syncs: number;
  readonly syncMicros: Histogram;
  readonly batches: number;
  readonly batchCommands: Histogram;
  readonly checkpoints: number;
  readonly checkpointsFailed: number;
}

function bucketOf(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  return i;
}

export class ShardStatsBoard {
  private readonly words: BigInt64Array;

  constructor(readonly sab: SharedArrayBuffer) {
    if (sab.byteLength !== WORDS * 8) throw new TypeError('not a shard stats board');
    this.words = new BigInt64Array(sab);
  }

  static create(): ShardStatsBoard {
    return new ShardStatsBoard(new SharedArrayBuffer(WORDS * 8));
  }

  /** A journal sync that took `micros`. */
  sync(micros: number): void {
    const us = Math.round(micros);
    Atomics.add(this.words, SYNC_HIST + bucketOf(SYNC_BUCKETS_US, us), 1n);
    Atomics.add(this.words, SYNC_US, BigInt(us));
    Atomics.add(this.words, SYNCS, 1n);
  }

  /** A batch that applied `commands` commands. */
  batch(commands: number): void {
    Atomics.add(this.words, BATCH_HIST + bucketOf(BATCH_BUCKETS, commands), 1n);
    Atomics.add(this.words, COMMANDS, BigInt(commands));
    Atomics.add(this.words, BATCHES, 1n);
  }

  /** A checkpoint that became durable (true) or failed (false: the next one writes what it held). */
  checkpoint(durable: boolean): void {
    Atomics.add(this.words, durable ? CHECKPOINTS : CHECKPOINTS_FAILED, 1n);
  }

  read(): ShardFigures {
    const at = (i: number): number => Number(Atomics.load(this.words, i));
    const hist = (from: number, buckets: number, sumAt: number): Histogram =>
      ({ counts: Array.from({ length: buckets + 1 }, (_, i) => at(from + i)), sum: at(sumAt) });
    return {
      syncs: at(SYNCS),
      syncMicros: hist(SYNC_HIST, SYNC_BUCKETS_US.length, SYNC_US),
      batches: at(BATCHES),
      batchCommands: hist(BATCH_HIST, BATCH_BUCKETS.length, COMMANDS),
      checkpoints: at(CHECKPOINTS),
      checkpointsFailed: at(CHECKPOINTS_FAILED),
    };
  }
}
