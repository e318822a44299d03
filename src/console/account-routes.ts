// The accounts a console caller may see and act on: the list (type and group, money in the account
// currency, margin level, the kill switch flags, the key rate limits it is entitled to), one
// account with its open positions (profit at the latest quotes) and pending orders, each with its
// source and key, and its balance and equity history. From the console a position is closed and
// an order cancelled only when its source is `manual` (the platform's own channel): bots' positions
// and orders belong to their bots and to the kill switch.
import type { AccountRecord, OrderRecord, PositionRecord, SymbolSpec } from '../engine/types.js';
import { exitPrice } from '../engine/money.js';
import { ApiError } from '../gateway/errors.js';
import { readQuery } from '../gateway/rest/query.js';
import { decimalId } from '../gateway/rest/route.js';
import { callShard } from '../gateway/shard-call.js';
import { closeJson, money, orderJson, positionJson } from '../gateway/wire.js';
import type { KillSwitches } from '../gateway/killswitch/kill-switches.js';
import { centilotsToLots, fromTicks } from '../market/ticks.js';
import { KEYS } from '../store/records.js';
import { accountOf, sees } from './actor.js';
import type { EquityHistory } from './equity/equity-history.js';
import { mayUsePremiumRate, RATE_LIMITS } from './key-create.js';
import type { ConsoleCall, ConsoleDeps, ConsoleRouter } from './router.js';

/** The one source whose positions and orders the console may close and cancel. */
export const CONSOLE_SOURCE = 'manual';

function accountJson(deps: ConsoleDeps, kills: KillSwitches, a: AccountRecord) {
  const m = deps.readModel.metrics(a);
  return {
    login: a.login, user: a.user, type: a.type, group: a.group, currency: a.currency, server: a.server, leverage: a.leverage,
    balance: money(m.balance), equity: money(m.equity), margin: money(m.margin), free_margin: money(m.freeMargin), margin_level: m.marginLevel,
    kill_switch: { active: a.accountHalted },
    user_kill_switch: kills.isTriggered(a.user) ? 'Triggered' : 'Armed',
    rate_limits: mayUsePremiumRate(a, m) ? RATE_LIMITS : RATE_LIMITS.filter((r) => r < 100),
  };
}

export function registerAccountRoutes(router: ConsoleRouter, kills: KillSwitches, equity: EquityHistory): void {
  const { deps } = router;
  const specOf = (name: string): SymbolSpec => deps.symbols.get(name)!;
  const keyName = (id: string | null): string | null => (id === null ? null : deps.store.table(KEYS).get(id)?.name ?? null);
  const closable = (source: string): boolean => source === CONSOLE_SOURCE;

  const positionView = (a: AccountRecord, p: PositionRecord) => {
    const quote = deps.market.last(p.symbol);
    const spec = specOf(p.symbol);
    return {
      ...positionJson(p, spec, deps.readModel.profit(p, a.currency)),
      key_id: p.keyId, key_name: keyName(p.keyId), webhook_id: p.webhookId,
      current_price: quote === null ? null : fromTicks(exitPrice(p.side, quote), spec.digits),
      closable: closable(p.source),
    };
  };
  const orderView = (o: OrderRecord) => ({ ...orderJson(o, specOf(o.symbol)), key_id: o.keyId, key_name: keyName(o.keyId), webhook_id: o.webhookId, cancellable: closable(o.source) });

  router.route({ method: 'get', path: '/console/api/accounts', access: 'member', body: 'none', action: 'account.list' }, (call) => {
    readQuery(call.ex.query, []);
    const accounts = [...deps.readModel.allAccounts()].filter((a) => sees(call.actor, a)).sort((a, b) => (a.login < b.login ? -1 : a.login > b.login ? 1 : 0));
    call.reply(200, { data: accounts.map((a) => accountJson(deps, kills, a)) });
  });

  router.route({ method: 'get', path: '/console/api/accounts/:login', access: 'member', body: 'none', action: 'account.get' }, (call) => {
    readQuery(call.ex.query, []);
    const a = accountOf(deps, call, call.params[0]!);
    call.reply(200, {
      ...accountJson(deps, kills, a),
      positions: [...deps.readModel.openPositions(a.login)].map((p) => positionView(a, p)),
      orders: [...deps.readModel.pendingOrders(a.login)].sort((x, y) => Number(x.id) - Number(y.id)).map(orderView),
      ts: call.nowMs,
    }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'get', path: '/console/api/accounts/:login/equity', access: 'member', body: 'none', action: 'account.equity' }, (call) => {
    const a = accountOf(deps, call, call.params[0]!);
    const w = equity.window(readQuery(call.ex.query, ['range', 'from', 'to']), call.nowMs);
    call.reply(200, { ...equity.series(a.login, w, call.nowMs), currency: a.currency }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'del', path: '/console/api/accounts/:login/positions/:ticket', access: 'member', body: 'none', action: 'position.close' }, async (call) => {
    const a = accountOf(deps, call, call.params[0]!);
    const position = openPosition(deps, call, a, call.params[1]!);
    const result = await callShard(deps, a.login, { kind: 'close', login: a.login, ticket: position.ticket, volume: null, source: CONSOLE_SOURCE, keyId: null });
    if (result.kind !== 'close') throw new Error(`close answered with ${result.kind}`);
    const closed = closeJson(result, specOf(position.symbol));
    call.detail = { closed: { ticket: closed.ticket, symbol: position.symbol, volume: centilotsToLots(position.volume), close_price: closed.close_price, profit: closed.profit } };
    call.reply(200, closed);
  });

  router.route({ method: 'del', path: '/console/api/accounts/:login/orders/:id', access: 'member', body: 'none', action: 'order.cancel' }, async (call) => {
    const a = accountOf(deps, call, call.params[0]!);
    const order = pendingOrder(deps, call, a, call.params[1]!);
    const result = await callShard(deps, a.login, { kind: 'cancel', login: a.login, orderId: order.id, source: CONSOLE_SOURCE, keyId: null });
    if (result.kind !== 'cancel') throw new Error(`cancel answered with ${result.kind}`);
    call.detail = { cancelled: { id: order.id, symbol: order.symbol, side: order.side, type: order.type } };
    call.reply(200, orderJson(result.order, specOf(result.order.symbol)));
  });
}

function openPosition(deps: ConsoleDeps, call: ConsoleCall, a: AccountRecord, text: string): PositionRecord {
  const ticket = decimalId(text);
  const position = ticket === null ? undefined : [...deps.readModel.openPositions(a.login)].find((p) => p.ticket === ticket);
  if (position === undefined) throw new ApiError('not_found', `position ${JSON.stringify(text.slice(0, 32))} not found in account ${a.login}`);
  call.target = String(position.ticket);
  if (position.source !== CONSOLE_SOURCE) {
    throw new ApiError('forbidden', `position ${position.ticket} has source ${position.source}: the console closes manual positions only (bots close their own; the kill switch stops them)`);
  }
  return position;
}

function pendingOrder(deps: ConsoleDeps, call: ConsoleCall, a: AccountRecord, text: string): OrderRecord {
  const id = decimalId(text);
  const order = id === null ? undefined : [...deps.readModel.pendingOrders(a.login)].find((o) => o.id === String(id));
  if (order === undefined) throw new ApiError('not_found', `pending order ${JSON.stringify(text.slice(0, 32))} not found in account ${a.login}`);
  call.target = order.id;
  if (order.source !== CONSOLE_SOURCE) {
    throw new ApiError('forbidden', `order ${order.id} has source ${order.source}: the console cancels manual orders only (bots cancel their own; the kill switch stops them)`);
  }
  return order;
}
