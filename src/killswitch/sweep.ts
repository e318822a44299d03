// Sending a kill switch command to many accounts at once (their shards work in parallel) and
// collecting one report, with the accounts' closes and cancels taken from the CloseTap. A full
// shard ring is backpressure, not a refusal: the command is retried until it gets through or a
// bound passes, and only then is that account reported as failed.
import type { SetKillSwitch, SymbolSpec } from '../engine/types.js';
import type { CloseTap } from '../gateway/webhooks/close-tap.js';
import type { Clock } from '../market/clock.js';
import { ShardBusyError, type ShardPool } from '../shard/pool.js';
import type { Logger } from '../util/log.js';
import { buildReport, type AccountOutcome, type KillReport } from './report.js';

const BUSY_RETRY_MS = 2000;
const MAX_BACKOFF_MS = 50;

export interface SweepDeps {
  readonly pool: ShardPool;
  readonly tap: CloseTap;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  readonly clock: Clock;
  readonly log: Logger;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function sweep(deps: SweepDeps, logins: readonly string[], cmd: (login: string) => SetKillSwitch): Promise<KillReport> {
  return deps.tap.watching(logins, async () => {
    const outcomes = await Promise.all(logins.map((login) => send(deps, login, cmd(login))));
    return buildReport(outcomes, deps.tap, deps.symbols);
  });
}

async function send(deps: SweepDeps, login: string, cmd: SetKillSwitch): Promise<AccountOutcome> {
  const giveUpAtMs = deps.clock.nowMs() + BUSY_RETRY_MS;
  for (let waitMs = 1; ; waitMs = Math.min(waitMs * 2, MAX_BACKOFF_MS)) {
    try {
      const body = await deps.pool.request(login, cmd);
      if (!body.ok) return { login, error: { name: body.reject.name, message: body.reject.message } };
      if (!('result' in body) || body.result.kind !== 'killSwitch') throw new Error('a kill switch command answered something else');
      return { login, result: body.result };
    } catch (err) {
      if (err instanceof ShardBusyError && deps.clock.nowMs() < giveUpAtMs) { await sleep(waitMs); continue; }
      deps.log.error({ err, login }, 'kill switch command failed');
      return { login, error: { name: err instanceof ShardBusyError ? 'rate_limited' : 'internal_error', message: (err as Error).message } };
    }
  }
}
