// POST /orders, PATCH and DELETE /orders/{id} and DELETE /orders (cancel-all), executed in the
// account's shard (callShard): orders carry source `api` and the key id; the shard's events reach
// the stream through the pool's batches. A cancel-all is one command in one frame to the account's
// shard, answered with every order it cancelled, and charged to the trade limit once.
import type { OrderRecord, SymbolSpec } from '../../engine/types.js';
import { parseOrderAmend } from '../amend-request.js';
import type { GatewayContext } from '../context.js';
import { ApiError } from '../errors.js';
import { parseJsonObject } from '../http.js';
import { parseOrderRequest } from '../order-request.js';
import { callShard } from '../shard-call.js';
import { amendedJson, orderJson } from '../wire.js';
import { knownSymbolFilter, readQuery, type Query } from './query.js';
import { decimalId, notFound, type RestRoute } from './route.js';

type Orders = Pick<GatewayContext, 'symbols' | 'pool' | 'readModel' | 'orders'>;

/** `application/json`, optionally with parameters (`; charset=utf-8`). */
const JSON_CONTENT_TYPE = /^application\/json[ \t]*(;.*)?$/i;

export function jsonBody(contentType: string, body: Buffer): Record<string, unknown> {
  if (!JSON_CONTENT_TYPE.test(contentType)) throw new ApiError('bad_request', 'Content-Type must be application/json');
  return parseJsonObject(body);
}

/** `login` of a cancel-all or close-all: the key's account (the default); any other is not visible. */
export function ownLogin(q: Query, own: string): string {
  const login = q.get('login') ?? own;
  if (login !== own) throw notFound('account', login);
  return login;
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
    {
      method: 'PATCH', pattern: '/v1/orders/:id', scope: 'trade',
      handle: async (call) => {
        readQuery(call.query, []);
        const text = call.params[0]!;
        const id = decimalId(text);
        const body = jsonBody(call.contentType, call.body);
        // Prices are read in the order's symbol: the read model has every pending order; a settled
        // one is looked up so the shard can say why it cannot be amended.
        let order: OrderRecord | null = null;
        if (id !== null) for (const o of ctx.readModel.pendingOrders(call.login)) if (o.id === String(id)) order = o;
        if (id !== null) order ??= await ctx.orders.order(call.login, id);
        if (id === null || order === null) throw notFound('order', text);
        const amend = parseOrderAmend(body, specOf(order.symbol));
        const result = await callShard(ctx, call.login, { kind: 'replace', login: call.login, orderId: order.id, ...amend, source: 'api', keyId: call.key.record.id });
        if (result.kind !== 'replace') throw new Error(`amend answered with ${result.kind}`);
        const spec = specOf(result.order.symbol);
        return { status: 200, body: { ...orderJson(result.order, spec), amended: amendedJson(result.amended, spec) } };
      },
    },
    {
      method: 'DELETE', pattern: '/v1/orders', scope: 'trade',
      handle: async (call) => {
        const q = readQuery(call.query, ['login', 'symbol']);
        const login = ownLogin(q, call.login);
        const symbol = knownSymbolFilter(q.get('symbol'), ctx.symbols);
        const result = await callShard(ctx, login, { kind: 'cancelAll', login, symbol, source: 'api', keyId: call.key.record.id });
        if (result.kind !== 'cancelMany') throw new Error(`cancel-all answered with ${result.kind}`);
        return { status: 200, body: { data: result.cancelled.map((o) => orderJson(o, specOf(o.symbol))) } };
      },
    },
  ];
}
