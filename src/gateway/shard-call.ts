// Calling a shard from a route: the reply's reject becomes the documented error, and a full ring
// becomes 429 with Retry-After (backpressure the client sees and can act on).
import type { Command, Result, SymbolSpec } from '../engine/types.js';
import { ShardBusyError, type ShardPool } from '../shard/pool.js';
import { ApiError } from './errors.js';
import { orderJson } from './wire.js';

export async function callShard(pool: ShardPool, login: string, cmd: Command, symbols: ReadonlyMap<string, SymbolSpec>): Promise<Result> {
  let body;
  try {
    body = await pool.request(login, cmd);
  } catch (err) {
    if (err instanceof ShardBusyError) {
      throw new ApiError('rate_limited', 'the account\'s shard is saturated; retry shortly', undefined, undefined, [['retry-after', '1']]);
    }
    throw err;
  }
  if ('snapshot' in body) throw new Error('shard answered a command with a snapshot');
  if (body.ok) return body.result;
  const r = body.reject;
  const symbol = r.order ? symbols.get(r.order.symbol) : undefined;
  throw new ApiError(r.name, r.message, r.field, r.order && symbol ? { order: orderJson(r.order, symbol) } : undefined);
}
