// The console's operator routes that the platform's other channels use (DECISIONS "Console"):
// pushed quotes and orders placed on behalf of manual, strategy or copy trading.
import { OPERATOR_SOURCES } from '../config/types.js';
import { ApiError } from '../gateway/errors.js';
import { oneOf, parseOrderRequest } from '../gateway/order-request.js';
import { callShard } from '../gateway/shard-call.js';
import { orderJson } from '../gateway/wire.js';
import { fromTicks } from '../market/ticks.js';
import type { ConsoleRouter } from './router.js';

export function registerOperatorRoutes(router: ConsoleRouter): void {
  const { deps } = router;

  router.route({ method: 'post', path: '/console/api/quotes', access: 'operator', body: 'required', action: 'quote.push' }, (call) => {
    const pushed = deps.market.push(call.body);
    if (!pushed.ok) {
      if (pushed.field === null) throw new ApiError('market_closed', pushed.message);
      throw new ApiError('bad_request', pushed.message, { field: pushed.field });
    }
    const q = pushed.quote;
    const digits = deps.symbols.get(q.symbol)!.digits;
    call.target = q.symbol;
    call.reply(200, { symbol: q.symbol, bid: fromTicks(q.bid, digits), ask: fromTicks(q.ask, digits), ts: q.ts });
  });

  router.route({ method: 'post', path: '/console/api/orders', access: 'operator', body: 'required', action: 'order.place' }, async (call) => {
    const source = oneOf(call.body, 'source', OPERATOR_SOURCES);
    const cmd = parseOrderRequest(call.body, deps.symbols, { source, keyId: null }, ['source']);
    call.target = cmd.login;
    call.owner = deps.readModel.account(cmd.login)?.user ?? null;
    const result = await callShard(deps, cmd.login, cmd);
    if (result.kind !== 'place') throw new Error(`place answered with ${result.kind}`);
    const order = orderJson(result.order, deps.symbols.get(result.order.symbol)!);
    call.detail = { order: { id: order.id, login: order.login, symbol: order.symbol, side: order.side, type: order.type, volume: order.volume, source: order.source, status: order.status } };
    call.reply(200, order);
  });
}
