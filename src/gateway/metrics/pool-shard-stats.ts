// The ShardStatsSource of the shard pool: each shard's own counts (journal syncs and their
// durations, commands per batch, checkpoints) from the shared memory it counts into, the fill of its four
// rings, and what the main thread's client sees of it (commands in flight, sends refused because
// the shard's queue was full). Nothing here asks a shard anything.
import { HEAD, openRing, TAIL, type RingChannel } from '../../ring/layout.js';
import type { ShardPool } from '../../shard/pool.js';
import { BATCH_BUCKETS, SYNC_BUCKETS_US, type Histogram } from '../../shard/stats.js';
import type { HistogramSnapshot, RingFill, RingName, ShardStats, ShardStatsSource } from './shard-stats.js';

function fillOf(ring: RingName, channel: RingChannel): RingFill {
  const views = openRing(channel);
  // head − tail (mod 2^32) is the bytes in use (src/ring/layout.ts); each word has one writer.
  const used = (Atomics.load(views.control, HEAD) - Atomics.load(views.control, TAIL)) >>> 0;
  return { ring, usedBytes: used, capacityBytes: views.capacity };
}

/** Per-bucket counts as Prometheus's cumulative ones, with bounds scaled to the metric's unit. */
function cumulative(h: Histogram, bounds: readonly number[], scale: number): HistogramSnapshot {
  let running = 0;
  return {
    bucketsLe: bounds.map((b) => b * scale),
    cumulativeCounts: h.counts.map((c) => (running += c)),
    sum: h.sum * scale,
  };
}

export function poolShardStats(pool: Pick<ShardPool, 'figures'>): ShardStatsSource {
  return {
    snapshot: (): ShardStats[] => pool.figures().map((f) => ({
      shard: f.shard,
      rings: [fillOf('main_in', f.rings.mainIn), fillOf('main_out', f.rings.mainOut), fillOf('fix_in', f.rings.fixIn), fillOf('fix_out', f.rings.fixOut)],
      queueDepth: f.lane.inFlight,
      backpressureTotal: f.lane.refused,
      journalSyncsTotal: f.syncs,
      journalSyncSeconds: cumulative(f.syncMicros, SYNC_BUCKETS_US, 1e-6),
      batchCommands: cumulative(f.batchCommands, BATCH_BUCKETS, 1),
      checkpointsTotal: f.checkpoints,
      checkpointFailuresTotal: f.checkpointsFailed,
    })),
  };
}
