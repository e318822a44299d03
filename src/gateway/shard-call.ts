// Calling a shard from a route: the reply's reject becomes the documented error, and a full ring
// becomes 429 with Retry-After (backpressure the client sees and can act on).
import type { Command, OrderRecord, Reject, Result } from '../engine/types.js';
import { ShardBusyError } from '../shard/pool.js';
import type { GatewayContext } from './context.js';
import { ApiError } from './errors.js';
import { orderJson } from './wire.js';

type ShardCaller = Pick<GatewayContext, 'pool' | 'symbols' | 'store'>;

export async function callShard(ctx: ShardCaller, login: string, cmd: Command): Promise<Result> {
  let body;
  try {
    body = await ctx.pool.request(login, cmd);
  } catch (err) {
    if (err instanceof ShardBusyError) {
      throw new ApiError('rate_limited', 'the account\'s shard is saturated; retry shortly', undefined, undefined, [['retry-after', '1']]);
    }
    throw err;
  }
  if ('snapshot' in body) throw new Error('shard answered a command with a snapshot');
  if (body.ok) return body.result;
  throw rejectError(ctx, login, body.reject);
}

/** duplicate_client_id carries the original order; the engine keeps only recent ones, the store all. */
export function rejectError(ctx: ShardCaller, login: string, r: Reject): ApiError {
  const order: OrderRecord | undefined = r.order ?? (r.orderId === undefined ? undefined : ctx.store.accountDbs(login).orders.get([login, Number(r.orderId)]));
  const symbol = order ? ctx.symbols.get(order.symbol) : undefined;
  return new ApiError(r.name, r.message, r.field, order && symbol ? { order: orderJson(order, symbol) } : undefined);
}
