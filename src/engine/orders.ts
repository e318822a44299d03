// Placing, cancelling, replacing and filling orders (DECISIONS "Orders and positions").
import type { AccountState } from './account.js';
import { isReject, tradingAccount, type Core, type Slot } from './core.js';
import { formatLots, formatMoney, formatPrice } from './format.js';
import type { Instrument } from './instruments.js';
import { floatingCents, floatingChanged } from './floating.js';
import { entryPrice, exitPrice, marginCents, marginCurrency, marginLevel, profitCents } from './money.js';
import { badRequest, duplicateClientId, invalidOrder, marketClosed, notFound } from './rejects.js';
import { sizedVolume } from './sizing.js';
import type { Tx } from './tx.js';
import type {
  CancelAllOrders, CancelManyResult, CancelOrder, CancelReason, CancelResult, Cents, Centilots, FieldChange, LevelEdit, OrderRecord, OrderType,
  PlaceOrder, PlaceResult, PositionRecord, Quote, Reject, ReplaceOrder, ReplaceResult, Side, Ticks,
} from './types.js';

/** Limit buy below ask, stop buy above ask, limit sell above bid, stop sell below bid. */
function pendingPriceReject(side: Side, type: OrderType, price: Ticks, quote: Quote, sym: Instrument): Reject | null {
  const market = side === 'buy' ? quote.ask : quote.bid;
  const wantsBelow = (side === 'buy') === (type === 'limit');
  if (wantsBelow ? price < market : price > market) return null;
  const digits = sym.spec.digits;
  return invalidOrder('price', `${side} ${type} price ${formatPrice(price, digits)} must be ${wantsBelow ? 'below' : 'above'} the ${side === 'buy' ? 'ask' : 'bid'} ${formatPrice(market, digits)}`);
}

/** SL on the losing side and TP on the winning side of the reference price. */
export function levelsReject(side: Side, ref: Ticks, sl: Ticks | null, tp: Ticks | null, sym: Instrument): Reject | null {
  const sign = side === 'buy' ? 1 : -1;
  const digits = sym.spec.digits;
  if (sl !== null && sign * (ref - sl) <= 0) {
    return invalidOrder('sl', `stop-loss ${formatPrice(sl, digits)} of a ${side} must be ${side === 'buy' ? 'below' : 'above'} ${formatPrice(ref, digits)}`);
  }
  if (tp !== null && sign * (tp - ref) <= 0) {
    return invalidOrder('tp', `take-profit ${formatPrice(tp, digits)} of a ${side} must be ${side === 'buy' ? 'above' : 'below'} ${formatPrice(ref, digits)}`);
  }
  return null;
}

function volumeReject(volume: Centilots, sym: Instrument): Reject | null {
  if (volume >= 1 && volume <= sym.spec.maxVolume) return null;
  return invalidOrder('volume', `volume ${formatLots(volume)} must be from 0.01 to ${formatLots(sym.spec.maxVolume)} for ${sym.spec.name}`);
}

function equityCents(core: Core, account: AccountState): Cents {
  return account.positions.size === 0 ? account.balance : account.balance + floatingCents(core, account);
}

/**
 * The margin `volume` at `price` would hold, if the account can convert it, has the free margin,
 * and would not be stopped out at once by the position (its spread counted at the current quote).
 */
function marginFor(core: Core, account: AccountState, sym: Instrument, side: Side, volume: Centilots, price: Ticks): Cents | Reject {
  const routes = core.market.routesFor(sym, account.currency);
  const rate = routes.margin === null ? null : core.market.rate(routes.margin);
  // Closing converts profit from the quote currency: refuse now what could not be closed later.
  const profitRate = routes.profit === null ? null : core.market.rate(routes.profit);
  if (rate === null || profitRate === null) {
    const from = rate === null ? marginCurrency(sym.spec) : sym.spec.quoteCurrency;
    return invalidOrder('symbol', `no conversion rate from ${from} to ${account.currency} for ${sym.spec.name}`);
  }
  const margin = marginCents(sym, volume, price, account.leverage, rate);
  const equity = equityCents(core, account);
  const free = equity - account.margin;
  if (margin > free) {
    return invalidOrder('volume', `insufficient free margin: ${formatLots(volume)} of ${sym.spec.name} needs ${formatMoney(margin, account.currency)}, free margin is ${formatMoney(free, account.currency)}`);
  }
  const stopOut = core.margins.of(account.group).stopOutPercent;
  const quote = sym.quote;
  if (stopOut === 0 || quote === null) return margin;
  const opened = profitCents(sym, side, price, exitPrice(side, quote), volume, profitRate);
  const level = marginLevel(equity + opened, account.margin + margin);
  if (level < stopOut) {
    return invalidOrder('volume', `${formatLots(volume)} of ${sym.spec.name} would take the margin level to ${level}%, below the stop-out level ${stopOut}% of group ${account.group}`);
  }
  return margin;
}

/** Opens the position of a filled order (`ticket` is `filled.ticket`) and books both. */
function openPosition(core: Core, tx: Tx, account: AccountState, slot: Slot, filled: OrderRecord, ticket: number, margin: Cents): PositionRecord {
  const position: PositionRecord = {
    ticket, login: account.login, symbol: filled.symbol, side: filled.side, volume: filled.volume,
    openPrice: filled.price, sl: filled.sl, tp: filled.tp, source: filled.source, keyId: filled.keyId,
    webhookId: filled.webhookId, orderId: filled.id, margin, openedAt: tx.nowMs,
  };
  account.margin += margin;
  account.positions.set(ticket, position);
  core.exposure.opened(account, position);
  floatingChanged(core, account, null, position);
  slot.book.putPosition(position);
  account.settle(filled);
  tx.order(account, filled);
  tx.positionOpened(account, position);
  return position;
}

export function place(core: Core, tx: Tx, cmd: PlaceOrder): PlaceResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  if (cmd.clientId !== null) {
    const seen = core.clientIds.seen(account, cmd.clientId, tx.nowMs);
    if (seen !== undefined) return duplicateClientId(cmd.clientId, seen.orderId, account.order(seen.orderId));
  }
  const slot = core.slots.get(cmd.symbol);
  if (slot === undefined) return badRequest('symbol', `unknown symbol ${cmd.symbol}`);
  const { sym } = slot;
  const quote = sym.quote;
  if (quote === null) return marketClosed(`no quote for ${cmd.symbol} yet`);
  const isMarket = cmd.type === 'market';
  if (isMarket && !core.market.isOpen(sym, tx.nowMs)) return marketClosed(`${cmd.symbol} is outside its trading session`);
  // The validator guarantees a price for limit and stop orders.
  const ref = isMarket || cmd.price === null ? entryPrice(cmd.side, quote) : cmd.price;
  const priceProblem = isMarket ? null : pendingPriceReject(cmd.side, cmd.type, ref, quote, sym);
  const shapeProblem = priceProblem ?? levelsReject(cmd.side, ref, cmd.sl, cmd.tp, sym);
  if (shapeProblem !== null) return shapeProblem;
  const volume = cmd.volume ?? (cmd.sizing === null ? badRequest('volume', 'volume is required') : sizedVolume({
    rule: cmd.sizing.rule, signalVolume: cmd.sizing.signalVolume, sym, entry: ref, sl: cmd.sl, tp: cmd.tp,
    accountCurrency: account.currency, equity: () => equityCents(core, account),
    rate: core.market.profitRate(sym, account.currency),
  }));
  if (isReject(volume)) return volume;
  const volumeProblem = volumeReject(volume, sym);
  if (volumeProblem !== null) return volumeProblem;
  const margin = marginFor(core, account, sym, cmd.side, volume, ref);
  if (isReject(margin)) return margin;

  const id = String(core.ids.next());
  if (cmd.clientId !== null) {
    const record = { login: account.login, clientId: cmd.clientId, orderId: id, atMs: tx.nowMs };
    core.clientIds.remember(account, record);
    tx.clientId(record);
  }
  const order: OrderRecord = {
    id, login: account.login, symbol: sym.spec.name, side: cmd.side, type: cmd.type, volume,
    price: ref, requestedPrice: isMarket ? null : ref, sl: cmd.sl, tp: cmd.tp,
    status: isMarket ? 'filled' : 'pending', ticket: isMarket ? core.ids.next() : null,
    source: cmd.source, keyId: cmd.keyId, clientId: cmd.clientId, webhookId: cmd.webhookId,
    createdAt: tx.nowMs, filledAt: isMarket ? tx.nowMs : null, closedAt: null, reason: null,
  };
  if (order.ticket !== null) {
    const position = openPosition(core, tx, account, slot, order, order.ticket, margin);
    return { ok: true, kind: 'place', order, position };
  }
  account.pending.set(id, order);
  slot.book.putOrder(order);
  tx.order(account, order);
  return { ok: true, kind: 'place', order, position: null };
}

/** A cancel (`cancelled`) or replace (`replaced`) of an order that is no longer pending. */
export function tooLate(settled: OrderRecord, verb: 'cancelled' | 'replaced'): Reject {
  const hint = settled.status === 'filled' ? '; close its position instead' : '';
  return { ...invalidOrder('id', `order ${settled.id} is ${settled.status}: only pending orders can be ${verb}${hint}`), order: settled };
}

/** The pending order a cancel or replace names, or why there is none. */
function pendingOrReject(account: AccountState, id: string, verb: 'cancelled' | 'replaced'): OrderRecord | Reject {
  const order = account.pending.get(id);
  if (order !== undefined) return order;
  const settled = account.recent.find(id);
  return settled === undefined ? notFound(`order ${id} not found`) : tooLate(settled, verb);
}

/** The level an edit leaves. */
export function editedLevel(current: Ticks | null, edit: LevelEdit | undefined): Ticks | null {
  if (edit === undefined || edit === 'keep') return current;
  return edit === 'remove' ? null : edit;
}

/** The fields whose value differs, in a fixed order. */
export function changesOf(before: Readonly<Record<FieldChange['field'], number | null>>, after: Readonly<Record<FieldChange['field'], number | null>>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of ['price', 'volume', 'sl', 'tp'] as const) {
    if (before[field] !== after[field]) changes.push({ field, from: before[field], to: after[field] });
  }
  return changes;
}

/** Cancels a pending order; `reason` is set when the platform (not the client) cancels it. */
export function cancelPending(core: Core, tx: Tx, account: AccountState, order: OrderRecord, reason: CancelReason | null): OrderRecord {
  const cancelled: OrderRecord = { ...order, status: 'cancelled', closedAt: tx.nowMs, reason };
  core.slots.get(order.symbol)?.book.orders.delete(order.id);
  account.settle(cancelled);
  tx.order(account, cancelled);
  return cancelled;
}

export function cancel(core: Core, tx: Tx, cmd: CancelOrder): CancelResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  const order = pendingOrReject(account, cmd.orderId, 'cancelled');
  if (isReject(order)) return order;
  return { ok: true, kind: 'cancel', order: cancelPending(core, tx, account, order, null) };
}

/**
 * Amends a pending order (REST PATCH, FIX G): price, volume, SL and TP, validated as a new
 * placement would be. A market order is never pending: asking to move its price names the field.
 */
export function replace(core: Core, tx: Tx, cmd: ReplaceOrder): ReplaceResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  const order = pendingOrReject(account, cmd.orderId, 'replaced');
  if (isReject(order)) {
    if (order.order?.type === 'market' && cmd.price !== null) {
      return { ...invalidOrder('price', `order ${cmd.orderId} is a market order: it has no price to amend`), order: order.order };
    }
    return order;
  }
  const slot = core.slots.get(order.symbol);
  const quote = slot?.sym.quote ?? null;
  if (slot === undefined || quote === null) return marketClosed(`no quote for ${order.symbol} yet`);
  const price = cmd.price ?? order.price;
  const volume = cmd.volume ?? order.volume;
  const sl = editedLevel(order.sl, cmd.sl);
  const tp = editedLevel(order.tp, cmd.tp);
  const problem = pendingPriceReject(order.side, order.type, price, quote, slot.sym)
    ?? levelsReject(order.side, price, sl, tp, slot.sym)
    ?? volumeReject(volume, slot.sym);
  if (problem !== null) return problem;
  const margin = marginFor(core, account, slot.sym, order.side, volume, price);
  if (isReject(margin)) return margin;
  const replaced: OrderRecord = { ...order, price, requestedPrice: price, volume, sl, tp };
  account.pending.set(order.id, replaced);
  slot.book.putOrder(replaced);
  const amended = changesOf(order, replaced);
  tx.orderAmended(account, replaced, amended);
  return { ok: true, kind: 'replace', order: replaced, amended };
}

/** Cancels the account's pending orders (of one symbol, when given), oldest first. */
export function cancelAll(core: Core, tx: Tx, cmd: CancelAllOrders): CancelManyResult | Reject {
  const account = tradingAccount(core, cmd.login, cmd.source, cmd.keyId);
  if (isReject(account)) return account;
  if (cmd.symbol !== null && !core.slots.has(cmd.symbol)) return badRequest('symbol', `unknown symbol ${cmd.symbol}`);
  const cancelled: OrderRecord[] = [];
  for (const order of [...account.pending.values()]) {
    if (cmd.symbol === null || order.symbol === cmd.symbol) cancelled.push(cancelPending(core, tx, account, order, null));
  }
  return { ok: true, kind: 'cancelMany', cancelled };
}

/** A triggered pending order fills at the tick's price, or is rejected when the margin check fails. */
export function fillTriggered(core: Core, tx: Tx, slot: Slot, order: OrderRecord, quote: Quote): void {
  const account = core.accounts.get(order.login);
  slot.book.orders.delete(order.id);
  if (account === undefined) return;
  const price = entryPrice(order.side, quote);
  const margin = marginFor(core, account, slot.sym, order.side, order.volume, price);
  if (isReject(margin)) {
    const rejected: OrderRecord = { ...order, status: 'rejected', closedAt: tx.nowMs, reason: margin.message };
    account.settle(rejected);
    tx.order(account, rejected);
    return;
  }
  const ticket = core.ids.next();
  const filled: OrderRecord = { ...order, price, status: 'filled', ticket, filledAt: tx.nowMs };
  openPosition(core, tx, account, slot, filled, ticket, margin);
}

