// Today's ShardStatsSource, from what ShardPool exposes without asking a shard anything: the fill
// of the rings between the FIX thread and each shard (the pool hands them out). The main thread's
// own rings, the queue depth, backpressure, journal syncs and batch sizes are inside the pool and
// the shard threads; they read as absent (null) until the pool reports them through this source.
import { HEAD, openRing, TAIL, type RingViews } from '../../ring/layout.js';
import type { PeerRings } from '../../shard/pool.js';
import type { RingFill, RingName, ShardStats, ShardStatsSource } from './shard-stats.js';

function fillOf(ring: RingName, views: RingViews): RingFill {
  // head − tail (mod 2^32) is the bytes in use (src/ring/layout.ts); each word has one writer.
  const used = (Atomics.load(views.control, HEAD) - Atomics.load(views.control, TAIL)) >>> 0;
  return { ring, usedBytes: used, capacityBytes: views.capacity };
}

export function poolShardStats(pool: { readonly size: number; readonly fixRings: PeerRings }): ShardStatsSource {
  const rings = Array.from({ length: pool.size }, (_, shard) => ({
    in: openRing(pool.fixRings.toShards[shard]!),
    out: openRing(pool.fixRings.fromShards[shard]!),
  }));
  return {
    snapshot: (): ShardStats[] => rings.map((r, shard) => ({
      shard,
      rings: [fillOf('fix_in', r.in), fillOf('fix_out', r.out)],
      queueDepth: null,
      backpressureTotal: null,
      journalSyncsTotal: null,
      journalSyncSeconds: null,
      batchCommands: null,
    })),
  };
}
