// One signal to every target account of its webhook (spec 6, DECISIONS "Signal webhooks"): each
// shard gets its share of the targets in one frame, so the shards work in parallel and each
// journals its share with one sync. Every target is raced against one deadline: the answer carries
// what is done by then and a `timeout` for the rest, which still complete on their own; `final`
// settles with every target's own result, for the signal log. Nothing here throws: a target's
// failure is that target's entry.
import type { Command, Result } from '../../engine/types.js';
import { centilotsToLots } from '../../market/ticks.js';
import { ShardBusyError, type Reply } from '../../shard/calls.js';
import type { WebhookTarget } from '../../store/records.js';
import type { Logger } from '../../base/log.js';
import { closedJson } from '../close-json.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { busyError, resultOf } from '../shard-call.js';
import type { ErrorJson, FanoutJson } from './signal-log.js';
import type { Signal } from './signal-request.js';

export type FanoutDeps = Pick<GatewayContext, 'pool' | 'symbols'> & { readonly log: Logger };

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
      const closed = result.closed.map((r) => closedJson(login, r, deps.symbols));
      const volume = centilotsToLots(result.closed.reduce((sum, r) => sum + r.closedVolume, 0));
      const failed = result.failed.map((f) => ({ ticket: f.ticket, error: errorJson(new ApiError(f.reject.name, f.reject.message, { field: f.reject.field })) }));
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

async function targetJson(deps: FanoutDeps, login: string, webhookId: string, reply: Promise<Reply>): Promise<FanoutJson> {
  try {
    return resultJson(deps, login, resultOf(deps.symbols, (await reply).answer));
  } catch (err) {
    if (err instanceof ApiError) return { login, volume: 0, error: errorJson(err) };
    if (err instanceof ShardBusyError) return { login, volume: 0, error: errorJson(busyError()) };
    deps.log.error({ err, login, webhookId }, 'webhook target failed');
    return { login, volume: 0, error: { name: 'internal_error', message: 'internal error' } };
  }
}

export async function fanOut(deps: FanoutDeps, webhookId: string, targets: readonly WebhookTarget[], signal: Signal, deadlineMs: number): Promise<FanoutRun> {
  const replies = deps.pool.calls.many(targets.map((t) => ({ login: t.login, cmd: commandFor(t, webhookId, signal) })));
  const calls = replies.map((reply, i) => targetJson(deps, targets[i]!.login, webhookId, reply));
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => { timer = setTimeout(resolve, deadlineMs, null); });
  const raced = await Promise.all(calls.map((call) => Promise.race([call, expired])));
  clearTimeout(timer);
  const message = `not done within ${deadlineMs} ms; it completes on its own and its result goes to the signal log`;
  const answered = raced.map((r, i): FanoutJson => r ?? { login: targets[i]!.login, volume: 0, error: { name: 'timeout', message } });
  return { answered, late: raced.filter((r) => r === null).length, final: Promise.all(calls) };
}
