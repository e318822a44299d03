// The shards' metrics, read at scrape time from a ShardStatsSource: the main thread never asks a
// shard thread anything to answer a scrape. Counters are totals since start (the source keeps
// them); histograms arrive as cumulative bucket counts, as the shard measured them.
import { Counter, Gauge, type Metric, type Registry } from 'prom-client';

export type RingName = 'main_in' | 'main_out' | 'fix_in' | 'fix_out';

export interface RingFill {
  /** `main_in`: main thread → shard; `main_out`: shard → main thread; `fix_*` likewise for the FIX thread. */
  readonly ring: RingName;
  readonly usedBytes: number;
  readonly capacityBytes: number;
}

/** Cumulative counts per upper bound (`le`), as Prometheus histograms expose them. */
export interface HistogramSnapshot {
  readonly bucketsLe: readonly number[];
  /** counts[i] = observations ≤ bucketsLe[i]; one more entry for +Inf (= count). */
  readonly cumulativeCounts: readonly number[];
  readonly sum: number;
}

export interface ShardStats {
  readonly shard: number;
  readonly rings: readonly RingFill[];
  /** Commands written to the shard and not yet answered; null where the source cannot tell. */
  readonly queueDepth: number | null;
  /** Writes refused because a ring into the shard was full (ShardBusyError, answered 429). */
  readonly backpressureTotal: number | null;
  /** Journal commits that reached the disk (fsync). */
  readonly journalSyncsTotal: number | null;
  /** Seconds per journal sync. */
  readonly journalSyncSeconds: HistogramSnapshot | null;
  /** Commands per committed batch. */
  readonly batchCommands: HistogramSnapshot | null;
  /** Checkpoints of the shard's tables that became durable. */
  readonly checkpointsTotal: number | null;
  /** Checkpoints that failed (the next one writes what they held; the journal keeps it meanwhile). */
  readonly checkpointFailuresTotal: number | null;
}

export interface ShardStatsSource {
  snapshot(): readonly ShardStats[];
}

const HISTOGRAMS = [
  ['tas_shard_journal_sync_seconds', 'Duration of a shard\'s journal sync (commit to disk)', 'journalSyncSeconds'],
  ['tas_shard_batch_commands', 'Commands per batch a shard commits at once', 'batchCommands'],
] as const;

export function registerShardMetrics(registry: Registry, source: ShardStatsSource): void {
  const registers = [registry];
  new Gauge({
    name: 'tas_shard_ring_used_bytes', help: 'Bytes waiting in a shard\'s ring', labelNames: ['shard', 'ring'], registers,
    collect() {
      this.reset();
      for (const s of source.snapshot()) for (const r of s.rings) this.set({ shard: String(s.shard), ring: r.ring }, r.usedBytes);
    },
  });
  new Gauge({
    name: 'tas_shard_ring_fill_ratio', help: 'Used share of a shard\'s ring (0 to 1)', labelNames: ['shard', 'ring'], registers,
    collect() {
      this.reset();
      for (const s of source.snapshot()) for (const r of s.rings) this.set({ shard: String(s.shard), ring: r.ring }, r.usedBytes / r.capacityBytes);
    },
  });
  new Gauge({
    name: 'tas_shard_queue_depth', help: 'Commands written to a shard and not yet answered', labelNames: ['shard'], registers,
    collect() {
      this.reset();
      for (const s of source.snapshot()) if (s.queueDepth !== null) this.set({ shard: String(s.shard) }, s.queueDepth);
    },
  });
  const total = (name: string, help: string, of: (s: ShardStats) => number | null): void => {
    new Counter({
      name, help, labelNames: ['shard'], registers,
      collect() {
        this.reset();
        for (const s of source.snapshot()) {
          const n = of(s);
          if (n !== null) this.inc({ shard: String(s.shard) }, n);
        }
      },
    });
  };
  total('tas_shard_backpressure_total', 'Commands refused because a ring into the shard was full (answered 429)', (s) => s.backpressureTotal);
  total('tas_shard_journal_syncs_total', 'Journal commits a shard synced to disk', (s) => s.journalSyncsTotal);
  total('tas_shard_checkpoints_total', 'Checkpoints of a shard\'s tables that became durable', (s) => s.checkpointsTotal);
  total('tas_shard_checkpoint_failures_total', 'Checkpoints of a shard\'s tables that failed (the next one writes what they held)', (s) => s.checkpointFailuresTotal);
  // The registry only ever calls get() (and reset()) of a metric: this one is prom-client's Metric in all it uses.
  for (const [name, help, field] of HISTOGRAMS) registry.registerMetric(new SnapshotHistogram(name, help, source, field) as unknown as Metric);
}

/** A histogram whose buckets are counted elsewhere (in the shard threads) and copied at scrape. */
class SnapshotHistogram {
  readonly aggregator = 'sum' as const;
  constructor(readonly name: string, readonly help: string, private readonly source: ShardStatsSource,
    private readonly field: 'journalSyncSeconds' | 'batchCommands') {}

  get() {
    const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
    for (const s of this.source.snapshot()) {
      const h = s[this.field];
      if (h === null) continue;
      const shard = String(s.shard);
      h.bucketsLe.forEach((le, i) => values.push({ metricName: `${this.name}_bucket`, labels: { shard, le }, value: h.cumulativeCounts[i]! }));
      const count = h.cumulativeCounts[h.bucketsLe.length]!;
      values.push({ metricName: `${this.name}_bucket`, labels: { shard, le: '+Inf' }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels: { shard }, value: h.sum });
      values.push({ metricName: `${this.name}_count`, labels: { shard }, value: count });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: 'histogram' as const, values, aggregator: this.aggregator });
  }

  /** The source owns the counts: nothing to reset here. */
  reset(): void {}
}
