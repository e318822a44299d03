// The equity history's feed: each shard sends, once a minute, the balance and equity of every
// account it owns, computed in the shard at its own prices (src/shard/worker.ts); they are stored
// here, in order, and the rows past the 30 days kept are swept once an hour.
import type { ShardClient } from '../../shard/client.js';
import type { Logger } from '../../base/log.js';
import type { EquityHistory } from './equity-history.js';

const SWEEP_EVERY_MS = 3600_000;

/** Starts storing the shards' samples; the returned stop waits for the last write. */
export function recordShardSamples(client: ShardClient, history: EquityHistory, log: Logger): () => Promise<void> {
  let pending: Promise<void> = Promise.resolve();
  let sweptAtMs = Number.NEGATIVE_INFINITY;
  let stopped = false;
  client.listen({
    equity: (atMs, samples) => {
      if (stopped) return;
      pending = pending
        .then(() => history.record(samples.map((s) => ({ login: s.login, atMs, balanceCents: s.balance, equityCents: s.equity }))))
        .then(async () => {
          if (atMs - sweptAtMs < SWEEP_EVERY_MS) return;
          sweptAtMs = atMs;
          await history.sweep(samples.map((s) => s.login), atMs);
        })
        .catch((err: unknown) => log.error({ err }, 'equity samples not stored'));
    },
  });
  return async () => {
    stopped = true;
    await pending;
  };
}
