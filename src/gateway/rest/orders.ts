// POST /orders and DELETE /orders/{id}, executed in the account's shard (callShard): orders carry
// source `api` and the key id; the shard's events reach the stream through the pool's batches.
import type { SymbolSpec } from '../../engine/types.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { parseJsonObject } from '../http.js';
import { parseOrderRequest } from '../order-request.js';
import { callShard } from '../shard-call.js';
import { orderJson } from '../wire.js';
import { readQuery } from './query.js';
import { decimalId, notFound, type RestRoute } from './route.js';

type Orders = Pick<GatewayContext, 'symbols' | 'pool'>;

/** `application/json`, optionally with parameters (`; charset=utf-8`). */
const JSON_CONTENT_TYPE = /^application\/json[ \t]*(;.*)?$/i;

export function jsonBody(contentType: string, body: Buffer): Record<string, unknown> {
  if (!JSON_CONTENT_TYPE.test(contentType)) throw new ApiError('bad_request', 'Content-Type must be application/json');
  return parseJsonObject(body);
}

export function orderRoutes(ctx: Orders): RestRoute[] {
  const specOf = (name: string): SymbolSpec => {
    const spec = ctx.symbols.get(name);
    if (!spec) throw new Error(`order on unconfigured symbol ${name}`);
    return spec;
  };
  return [
    {
      method: 'POST', pattern: '/v1/orders', scope: 'trade',
      handle: async (call) => {
        readQuery(call.query, []);
        const cmd = parseOrderRequest(jsonBody(call.contentType, call.body), ctx.symbols, { source: 'api', keyId: call.key.record.id });
        // Another account is invisible to the key (its shape errors above say nothing about it).
        if (cmd.login !== call.login) throw notFound('account', cmd.login);
        const result = await callShard(ctx, call.login, cmd);
        if (result.kind !== 'place') throw new Error(`place answered with ${result.kind}`);
        return { status: 200, body: orderJson(result.order, specOf(result.order.symbol)) };
      },
    },
    {
      method: 'DELETE', pattern: '/v1/orders/:id', scope: 'trade',
      handle: async (call) => {
        readQuery(call.query, []);
        const text = call.params[0]!;
        const id = decimalId(text);
        if (id === null) throw notFound('order', text);
        const result = await callShard(ctx, call.login, { kind: 'cancel', login: call.login, orderId: String(id), source: 'api', keyId: call.key.record.id });
        if (result.kind !== 'cancel') throw new Error(`cancel answered with ${result.kind}`);
        return { status: 200, body: orderJson(result.order, specOf(result.order.symbol)) };
      },
    },
  ];
}
