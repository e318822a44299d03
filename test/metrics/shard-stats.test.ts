// The shard metrics as a ShardStatsSource feeds them (the shard pool will report journal syncs,
// batch sizes, queue depth and backpressure through it): Prometheus text with one series per
// shard, cumulative histogram buckets with +Inf, _sum and _count, and nothing for absent figures.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerShardMetrics, type ShardStats } from '../../src/gateway/metrics/shard-stats.js';

const stats = (shard: number, over: Partial<ShardStats>): ShardStats => ({
  shard, rings: [], queueDepth: null, backpressureTotal: null, journalSyncsTotal: null, journalSyncSeconds: null, batchCommands: null,
  checkpointsTotal: null, checkpointFailuresTotal: null, ...over,
});

describe('registerShardMetrics', () => {
  it('exposes each figure the source reports, per shard, and only those', async () => {
    let snapshot: ShardStats[] = [
      stats(0, {
        rings: [{ ring: 'main_in', usedBytes: 256, capacityBytes: 1024 }],
        queueDepth: 3, backpressureTotal: 2, journalSyncsTotal: 10,
        journalSyncSeconds: { bucketsLe: [0.001, 0.01], cumulativeCounts: [6, 9, 10], sum: 0.05 },
        batchCommands: { bucketsLe: [1, 8], cumulativeCounts: [4, 10, 10], sum: 31 },
        checkpointsTotal: 7, checkpointFailuresTotal: 1,
      }),
      stats(1, { rings: [{ ring: 'fix_in', usedBytes: 0, capacityBytes: 1024 }] }),
    ];
    const registry = new Registry();
    registerShardMetrics(registry, { snapshot: () => snapshot });
    const text = await registry.metrics();
    for (const line of [
      'tas_shard_ring_used_bytes{shard="0",ring="main_in"} 256',
      'tas_shard_ring_fill_ratio{shard="0",ring="main_in"} 0.25',
      'tas_shard_ring_fill_ratio{shard="1",ring="fix_in"} 0',
      'tas_shard_queue_depth{shard="0"} 3',
      'tas_shard_backpressure_total{shard="0"} 2',
      'tas_shard_journal_syncs_total{shard="0"} 10',
      'tas_shard_checkpoints_total{shard="0"} 7',
      'tas_shard_checkpoint_failures_total{shard="0"} 1',
      '# TYPE tas_shard_journal_sync_seconds histogram',
      'tas_shard_journal_sync_seconds_bucket{shard="0",le="0.001"} 6',
      'tas_shard_journal_sync_seconds_bucket{shard="0",le="0.01"} 9',
      'tas_shard_journal_sync_seconds_bucket{shard="0",le="+Inf"} 10',
      'tas_shard_journal_sync_seconds_sum{shard="0"} 0.05',
      'tas_shard_journal_sync_seconds_count{shard="0"} 10',
      'tas_shard_batch_commands_bucket{shard="0",le="8"} 10',
      'tas_shard_batch_commands_count{shard="0"} 10',
    ]) expect(text.split('\n')).toContain(line);
    // Shard 1 reports no queue depth and no journal: no series for it.
    expect(text).not.toMatch(/tas_shard_(queue_depth|journal_syncs_total|journal_sync_seconds_count|checkpoints_total|checkpoint_failures_total)\{shard="1"/);

    // Totals are the source's, not accumulated across scrapes.
    snapshot = [stats(0, { journalSyncsTotal: 12 })];
    const again = await registry.metrics();
    expect(again.split('\n')).toContain('tas_shard_journal_syncs_total{shard="0"} 12');
    expect(again).not.toContain('ring="main_in"');
  });
});
