// One signal to every target account of its webhook (spec 6, DECISIONS "Signal webhooks"): each
// target's command goes to its shard at once, so the shards work in parallel and each commits its
// share in one batch. Every target is raced against one deadline: the answer carries what is done
// by then and a `timeout` for the rest, which still complete on their own; `final` settles with
// every target's own result, for the signal log. Nothing here throws: a target's failure is that
// target's entry.
import type { Command, Result } from '../../engine/types.js';
import { centilotsToLots } from '../../market/ticks.js';
import type { WebhookTarget } from '../../store/records.js';
import type { Logger } from '../../util/log.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { callShard } from '../shard-call.js';
import { closedJson, type CloseTap } from './close-tap.js';
import type { ErrorJson, FanoutJson } from './signal-log.js';
import type { Signal } from './signal-request.js';

export type FanoutDeps = Pick<GatewayContext, 'pool' | 'symbols' | 'store'> & { readonly log: Logger; readonly tap: CloseTap };

export interface FanoutRun {
  /** One entry per target, in the webhook's target order. */
  readonly answered: readonly FanoutJson[];
  /** How many targets the deadline cut off. */
  readonly late: number;
  /** Every target's own result, once all are in. */
  readonly final: Promise<readonly FanoutJson[]>;
}

function commandFor(target: WebhookTarget, webhookId: string, signal: Signal): Command {
  const { login } = target;
  switch (signal.action) {
    case 'buy':
    case 'sell':
      return {
        kind: 'place', login, symbol: signal.symbol.name, side: signal.action, type: 'market', volume: null,
        sizing: { rule: target.sizing, signalVolume: signal.volume }, price: null, sl: signal.sl, tp: signal.tp,
        clientId: null, source: 'webhook', keyId: null, webhookId,
      };
    case 'close':
      return { kind: 'closeWebhook', login, webhookId, symbol: signal.symbol.name, volume: signal.volume };
    case 'close_all':
      return { kind: 'closeWebhook', login, webhookId, symbol: null, volume: null };
  }
}

function errorJson(err: ApiError): ErrorJson {
  return err.field === undefined ? { name: err.errorName, message: err.message } : { name: err.errorName, message: err.message, field: err.field };
}

function resultJson(deps: FanoutDeps, login: string, result: Result): FanoutJson {
  switch (result.kind) {
    case 'place':
      return { login, volume: centilotsToLots(result.order.volume), ticket: result.order.ticket };
    case 'closeMany': {
      const events = result.closed.map((r) => deps.tap.takeClose(login, r.ticket));
      const closed = result.closed.map((r, i) => closedJson(login, r, events[i], deps.symbols));
      const volume = centilotsToLots(events.reduce((sum, e) => sum + (e?.closedVolume ?? 0), 0));
      const failed = result.failed.map((f) => ({ ticket: f.ticket, error: errorJson(new ApiError(f.reject.name, f.reject.message, f.reject.field)) }));
      const first = failed[0];
      if (closed.length === 0 && first !== undefined) return { login, volume: 0, error: first.error, failed };
      return failed.length === 0
        ? { login, volume, ticket: closed[0]?.ticket ?? null, closed }
        : { login, volume, ticket: closed[0]?.ticket ?? null, closed, failed };
    }
    default:
      throw new Error(`a webhook command answered ${result.kind}`);
  }
}

async function runTarget(deps: FanoutDeps, target: WebhookTarget, webhookId: string, signal: Signal): Promise<FanoutJson> {
  const { login } = target;
  try {
    const result = await callShard(deps, login, commandFor(target, webhookId, signal));
    return resultJson(deps, login, result);
  } catch (err) {
    if (err instanceof ApiError) return { login, volume: 0, error: errorJson(err) };
    deps.log.error({ err, login, webhookId }, 'webhook target failed');
    return { login, volume: 0, error: { name: 'internal_error', message: 'internal error' } };
  }
}

export async function fanOut(deps: FanoutDeps, webhookId: string, targets: readonly WebhookTarget[], signal: Signal, deadlineMs: number): Promise<FanoutRun> {
  const closing = signal.action === 'close' || signal.action === 'close_all';
  const calls = targets.map((t) => (closing
    ? deps.tap.watching([t.login], () => runTarget(deps, t, webhookId, signal))
    : runTarget(deps, t, webhookId, signal)));
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => { timer = setTimeout(resolve, deadlineMs, null); });
  const raced = await Promise.all(calls.map((call) => Promise.race([call, expired])));
  clearTimeout(timer);
  const message = `not done within ${deadlineMs} ms; it completes on its own and its result goes to the signal log`;
  const answered = raced.map((r, i): FanoutJson => r ?? { login: targets[i]!.login, volume: 0, error: { name: 'timeout', message } });
  return { answered, late: raced.filter((r) => r === null).length, final: Promise.all(calls) };
}
