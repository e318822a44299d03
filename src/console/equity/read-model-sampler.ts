// STOPGAP until the shards sample equity themselves (docs/console.md, "Equity history"): once a
// minute, the main thread takes every account's balance and equity from the read model (the
// latest quotes) and hands them to the equity history. Delete this module, and its two lines in
// register.ts, once the shards call `EquityRecorder.record`.
import type { UnixMs } from '../../engine/types.js';
import type { CancelTimer, Clock, Scheduler } from '../../market/clock.js';
import type { ReadModel } from '../../shard/read-model.js';
import type { Logger } from '../../util/log.js';
import { EQUITY_STEP_MS, type EquityHistory, type EquitySample } from './equity-history.js';

const SWEEP_EVERY_MS = 3600_000;

export interface SamplerDeps {
  readonly readModel: ReadModel;
  readonly history: EquityHistory;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly log: Logger;
}

export function samplesOf(readModel: ReadModel, atMs: UnixMs): EquitySample[] {
  return [...readModel.allAccounts()].map((a) => {
    const m = readModel.metrics(a);
    return { login: a.login, atMs, balanceCents: m.balance, equityCents: m.equity };
  });
}

/** Samples now and at every minute boundary; returns the stop, which waits for the last write. */
export function startReadModelSampler(deps: SamplerDeps): () => Promise<void> {
  let cancel: CancelTimer = () => {};
  let pending: Promise<void> = Promise.resolve();
  let sweptAtMs = Number.NEGATIVE_INFINITY;
  const sample = (): void => {
    const nowMs = deps.clock.nowMs();
    const logins = [...deps.readModel.allAccounts()].map((a) => a.login);
    pending = pending
      .then(() => deps.history.record(samplesOf(deps.readModel, nowMs)))
      .then(async () => {
        if (nowMs - sweptAtMs < SWEEP_EVERY_MS) return;
        sweptAtMs = nowMs;
        await deps.history.sweep(logins, nowMs);
      })
      .catch((err: unknown) => deps.log.error({ err }, 'equity sample not stored'));
    cancel = deps.scheduler.schedule(EQUITY_STEP_MS - (nowMs % EQUITY_STEP_MS), sample);
  };
  sample();
  return async () => {
    cancel();
    await pending;
  };
}
