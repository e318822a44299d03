// The console's operator routes that the platform's other channels use (DECISIONS "Console"):
// pushed quotes and orders placed on behalf of manual, strategy or copy trading.
import type { TemplatedApp } from 'uWebSockets.js';
import type { GatewayContext } from '../gateway/context.js';
import { ApiError } from '../gateway/errors.js';
import { Exchange, parseJsonObject, serve } from '../gateway/http.js';
import { oneOf, parseOrderRequest } from '../gateway/order-request.js';
import { callShard } from '../gateway/shard-call.js';
import { orderJson } from '../gateway/wire.js';
import { fromTicks } from '../market/ticks.js';
import { OPERATOR_SOURCES } from '../config/types.js';
import { bearerMatches } from './operator-auth.js';

export interface OperatorDeps extends GatewayContext {
  readonly adminToken: string;
}

/** `params` are the path parameters (`:id`) in order. */
export type OperatorHandler = (ex: Exchange, body: Record<string, unknown>, params: readonly string[]) => Promise<void> | void;

export type OperatorMethod = 'get' | 'post' | 'put' | 'del';

/**
 * Registers a JSON route that only an operator may call. With `body: 'optional'` a request without
 * a body (GET, a bare pause or revoke) is handled as `{}`; a body that is sent must be JSON.
 */
export function operatorRoute(
  app: TemplatedApp, deps: OperatorDeps, method: OperatorMethod, path: string, handler: OperatorHandler,
  body: 'required' | 'optional',
): void {
  const paramCount = path.split('/').filter((part) => part.startsWith(':')).length;
  app[method](path, (res, req) => {
    const ex = new Exchange(res, req);
    const authorized = bearerMatches(req.getHeader('authorization'), deps.adminToken);
    const contentType = req.getHeader('content-type');
    const params = Array.from({ length: paramCount }, (_, i) => req.getParameter(i));
    serve(ex, (err) => deps.log.error({ err, path }, 'operator route failed'), async () => {
      if (!authorized) throw new ApiError('unauthorized', 'operator token missing or wrong (Authorization: Bearer <admin_token>)');
      const raw = method === 'get' ? Buffer.alloc(0) : await ex.readBody(deps.config.http.max_body_bytes);
      if (raw.length === 0 && body === 'optional') { await handler(ex, {}, params); return; }
      if (!/^application\/json\b/i.test(contentType)) throw new ApiError('bad_request', 'content-type must be application/json');
      await handler(ex, parseJsonObject(raw), params);
    });
  });
}

/** Registers a JSON POST route that only an operator may call. */
export function operatorPost(app: TemplatedApp, deps: OperatorDeps, path: string, handler: OperatorHandler): void {
  operatorRoute(app, deps, 'post', path, handler, 'required');
}

export function registerOperatorRoutes(app: TemplatedApp, deps: OperatorDeps): void {
  operatorPost(app, deps, '/console/api/quotes', (ex, body) => {
    const pushed = deps.market.push(body);
    if (!pushed.ok) {
      if (pushed.field === null) throw new ApiError('market_closed', pushed.message);
      throw new ApiError('bad_request', pushed.message, pushed.field);
    }
    const q = pushed.quote;
    const digits = deps.symbols.get(q.symbol)!.digits;
    ex.json(200, { symbol: q.symbol, bid: fromTicks(q.bid, digits), ask: fromTicks(q.ask, digits), ts: q.ts });
  });

  operatorPost(app, deps, '/console/api/orders', async (ex, body) => {
    const source = oneOf(body, 'source', OPERATOR_SOURCES);
    const cmd = parseOrderRequest(body, deps.symbols, { source, keyId: null }, ['source']);
    const result = await callShard(deps, cmd.login, cmd);
    if (result.kind !== 'place') throw new Error(`place answered with ${result.kind}`);
    ex.json(200, orderJson(result.order, deps.symbols.get(result.order.symbol)!));
  });
}
