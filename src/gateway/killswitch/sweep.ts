// Sending a kill switch command to many accounts at once: each shard gets its accounts in one
// frame (the shards work in parallel, each journaling its share with one sync), and the answers
// make one report. A shard whose queue is full is backpressure, not a refusal: its share is sent
// again until it gets through or a bound passes, and only then are its accounts reported failed.
import type { SetKillSwitch, SymbolSpec } from '../../engine/types.js';
import type { Clock } from '../../base/clock.js';
import { ShardBusyError, type Reply } from '../../shard/calls.js';
import type { ShardPool } from '../../shard/pool.js';
import type { Logger } from '../../base/log.js';
import type { ErrorJson } from '../webhooks/signal-log.js';
import { buildReport, type AccountOutcome, type KillReport } from './report.js';

const BUSY_RETRY_MS = 2000;
const MAX_BACKOFF_MS = 50;

export interface SweepDeps {
  readonly pool: ShardPool;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  readonly clock: Clock;
  readonly log: Logger;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function sweep(deps: SweepDeps, logins: readonly string[], cmd: (login: string) => SetKillSwitch): Promise<KillReport> {
  const byShard = new Map<number, string[]>();
  for (const login of logins) {
    const shard = deps.pool.client.shardOf(login);
    const share = byShard.get(shard);
    if (share === undefined) byShard.set(shard, [login]);
    else share.push(login);
  }
  const outcomes = new Map<string, AccountOutcome>();
  await Promise.all([...byShard.values()].map(async (share) => {
    for (const outcome of await sendShare(deps, share, cmd)) outcomes.set(outcome.login, outcome);
  }));
  return buildReport(logins.map((login) => outcomes.get(login)!), deps.symbols);
}

/** One shard's accounts, in one frame, retried while the shard is busy. */
async function sendShare(deps: SweepDeps, logins: readonly string[], cmd: (login: string) => SetKillSwitch): Promise<AccountOutcome[]> {
  const giveUpAtMs = deps.clock.nowMs() + BUSY_RETRY_MS;
  for (let waitMs = 1; ; waitMs = Math.min(waitMs * 2, MAX_BACKOFF_MS)) {
    const replies = deps.pool.calls.many(logins.map((login) => ({ login, cmd: cmd(login) })));
    try {
      return (await Promise.all(replies)).map((reply, i) => outcomeOf(logins[i]!, reply));
    } catch (err) {
      if (err instanceof ShardBusyError && deps.clock.nowMs() < giveUpAtMs) { await sleep(waitMs); continue; }
      deps.log.error({ err, logins: logins.length }, 'kill switch command failed');
      const error: ErrorJson = { name: err instanceof ShardBusyError ? 'rate_limited' : 'internal_error', message: (err as Error).message };
      return logins.map((login) => ({ t: 'failed', login, error }));
    }
  }
}

function outcomeOf(login: string, { answer }: Reply): AccountOutcome {
  switch (answer.t) {
    case 'done':
      if (answer.result.kind !== 'killSwitch') throw new Error('a kill switch command answered something else');
      return { t: 'done', login, result: answer.result };
    case 'rejected': return { t: 'failed', login, error: { name: answer.reject.name, message: answer.reject.message } };
    case 'unavailable': return { t: 'failed', login, error: { name: 'unavailable', message: answer.message } };
    default: throw new Error(`a kill switch command answered a ${answer.t} query answer`);
  }
}
