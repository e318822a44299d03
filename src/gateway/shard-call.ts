// Calling a shard from a route: an answer's refusal becomes the documented error, a shard whose
// queue is full becomes 429 with Retry-After (backpressure the client sees and can act on), and a
// journal that cannot make anything durable becomes 503.
import type { Command, Reject, Result, SymbolSpec } from '../engine/types.js';
import { ShardBusyError, type Reply } from '../shard/calls.js';
import type { Answer } from '../shard/protocol.js';
import type { GatewayContext } from './context.js';
import { ApiError } from './errors.js';
import { orderJson } from './wire.js';

type ShardCaller = Pick<GatewayContext, 'pool' | 'symbols'>;

export function busyError(): ApiError {
  return new ApiError('rate_limited', 'the account\'s shard is saturated; retry shortly', { headers: [['retry-after', '1']] });
}

/** The command's result, or the ApiError its answer means. */
export function resultOf(symbols: ReadonlyMap<string, SymbolSpec>, answer: Answer): Result {
  switch (answer.t) {
    case 'done': return answer.result;
    case 'rejected': throw rejectError(symbols, answer.reject);
    case 'unavailable': throw new ApiError('unavailable', answer.message);
    case 'account':
    case 'order': throw new Error(`a command was answered with a ${answer.t} query answer`);
  }
}

export async function callShard(ctx: ShardCaller, login: string, cmd: Command): Promise<Result> {
  let reply: Reply;
  try {
    reply = await ctx.pool.calls.request(login, cmd);
  } catch (err) {
    if (err instanceof ShardBusyError) throw busyError();
    throw err;
  }
  return resultOf(ctx.symbols, reply.answer);
}

/** duplicate_client_id carries the original order (the shard always adds it). */
export function rejectError(symbols: ReadonlyMap<string, SymbolSpec>, r: Reject): ApiError {
  const symbol = r.order === undefined ? undefined : symbols.get(r.order.symbol);
  const extra = r.name === 'duplicate_client_id' && r.order !== undefined && symbol !== undefined ? { order: orderJson(r.order, symbol) } : undefined;
  return new ApiError(r.name, r.message, { field: r.field, extra });
}
