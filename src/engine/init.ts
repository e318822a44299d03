// Loading an EngineInit into live state, validated: a corrupt store stops the shard with a message
// instead of failing later mid-command.
import { AccountState } from './account.js';
import { TriggerBook } from './book.js';
import {
  accountFieldsProblem, describe, EngineInitError, isInt, isName, isPositiveInt, isRecord, isSide, isSource,
  MAX_CLIENT_ID_CHARS, optionalNameProblem, optionalPriceProblem, quoteProblem, type Problem, problem,
} from './checks.js';
import type { Core, Slot } from './core.js';
import { DeadMen } from './deadman.js';
import { IdAllocator, MAX_SHARDS } from './ids.js';
import { Instruments } from './instruments.js';
import { ClientIdMemory } from './retention.js';
import { Exposure, MarginRules } from './stop-out.js';
import { byClientIdAge, byNumericId, byString } from './snapshot.js';
import type { AccountRecord, ClientIdArchive, ClientIdRecord, DeadManRecord, EngineInit, HaltedKey, MarginLevels, MarginPolicy, OrderRecord, PositionRecord, Quote } from './types.js';

/** DECISIONS: client ids are kept at least 24 hours. */
export const MIN_CLIENT_ID_RETENTION_MS = 24 * 60 * 60 * 1000;
const ORDER_STATUSES = ['pending', 'filled', 'cancelled', 'rejected'];

function fail(what: string, p: Problem | string): never {
  throw new EngineInitError(`${what}: ${typeof p === 'string' ? p : `${p.field}: ${p.message}`}`);
}

function accountProblem(a: AccountRecord): Problem | null {
  const fields = accountFieldsProblem(a);
  if (fields !== null) return fields;
  if (!isInt(a.margin) || a.margin < 0) return problem('margin', 'must be a non-negative integer');
  if (!isInt(a.seq) || a.seq < 0) return problem('seq', 'must be a non-negative integer');
  if (typeof a.accountHalted !== 'boolean' || typeof a.userHalted !== 'boolean') return problem('halted', 'flags must be booleans');
  return null;
}

function tradeFieldsProblem(r: Record<string, unknown>): Problem | null {
  if (!isSide(r.side)) return problem('side', 'must be buy or sell');
  if (!isPositiveInt(r.volume)) return problem('volume', 'must be a positive integer');
  if (!isSource(r.source)) return problem('source', 'unknown source');
  return optionalPriceProblem(r.sl, 'sl') ?? optionalPriceProblem(r.tp, 'tp')
    ?? optionalNameProblem(r.keyId, 'keyId') ?? optionalNameProblem(r.webhookId, 'webhookId');
}

function positionProblem(p: PositionRecord): Problem | null {
  if (!isRecord(p) || !isPositiveInt(p.ticket)) return problem('ticket', 'must be a positive integer');
  if (!isPositiveInt(p.openPrice)) return problem('openPrice', 'must be a positive integer');
  if (!isInt(p.margin) || p.margin < 0) return problem('margin', 'must be a non-negative integer');
  if (!isName(p.orderId) || !isInt(p.openedAt)) return problem('orderId', 'orderId and openedAt must be set');
  return tradeFieldsProblem(p as unknown as Record<string, unknown>);
}

function orderProblem(o: OrderRecord): Problem | null {
  if (!isRecord(o) || !isName(o.id)) return problem('id', 'must be a non-empty string');
  if (!ORDER_STATUSES.includes(o.status)) return problem('status', `unknown status ${describe(o.status)}`);
  if (!isPositiveInt(o.price)) return problem('price', 'must be a positive integer');
  if (o.type !== 'market' && o.type !== 'limit' && o.type !== 'stop') return problem('type', 'must be market, limit or stop');
  if (o.ticket !== null && !isPositiveInt(o.ticket)) return problem('ticket', 'must be null or a positive integer');
  if (!isInt(o.createdAt)) return problem('createdAt', 'must be Unix ms');
  if (o.clientId !== null && !isName(o.clientId, MAX_CLIENT_ID_CHARS)) return problem('clientId', 'must be null or 1 to 64 characters');
  return tradeFieldsProblem(o as unknown as Record<string, unknown>);
}

function ownerOf(core: Core, what: string, login: string, symbol?: string): AccountState {
  const account = core.accounts.get(login);
  if (account === undefined) fail(what, `unknown account ${describe(login)}`);
  if (symbol !== undefined && !core.slots.has(symbol)) fail(what, `unknown symbol ${describe(symbol)}`);
  return account;
}

function loadOrders(core: Core, pending: readonly OrderRecord[], recent: readonly OrderRecord[]): void {
  const seen = new Set<string>();
  const check = (o: OrderRecord, wantPending: boolean): AccountState => {
    const what = `order ${describe(o.id)}`;
    const p = orderProblem(o);
    if (p !== null) fail(what, p);
    if ((o.status === 'pending') !== wantPending) fail(what, wantPending ? 'pendingOrders holds only pending orders' : 'recentOrders holds no pending orders');
    if (seen.has(o.id)) fail(what, 'listed twice');
    seen.add(o.id);
    core.ids.observe(Number(o.id));
    if (o.ticket !== null) core.ids.observe(o.ticket);
    return ownerOf(core, what, o.login, o.symbol);
  };
  for (const o of [...pending].sort((a, b) => byNumericId(a.id, b.id))) {
    const account = check(o, true);
    if (o.type === 'market') fail(`order ${o.id}`, 'a pending order must be limit or stop');
    account.pending.set(o.id, o);
    core.slots.get(o.symbol)?.book.putOrder(o);
  }
  // Given order, not sorted: it is the order the rings were filled in.
  for (const o of recent) check(o, false).settle(o);
}

function loadPositions(core: Core, positions: readonly PositionRecord[]): void {
  for (const p of [...positions].sort((a, b) => a.ticket - b.ticket)) {
    const what = `position ${describe(p.ticket)}`;
    const problemFound = positionProblem(p);
    if (problemFound !== null) fail(what, problemFound);
    const account = ownerOf(core, what, p.login, p.symbol);
    if (account.positions.has(p.ticket)) fail(what, 'listed twice');
    core.ids.observe(p.ticket);
    account.positions.set(p.ticket, p);
    core.exposure.opened(account, p);
    core.slots.get(p.symbol)?.book.putPosition(p);
  }
  for (const account of core.accounts.values()) {
    let sum = 0;
    for (const p of account.positions.values()) sum += p.margin;
    if (sum !== account.margin) fail(`account ${account.login}`, `margin ${account.margin} differs from its positions' sum ${sum}`);
  }
}

function loadMemory(core: Core, clientIds: readonly ClientIdRecord[], haltedKeys: readonly HaltedKey[]): void {
  const sorted = [...clientIds].sort(byClientIdAge);
  for (const c of sorted) {
    if (!isName(c.clientId, MAX_CLIENT_ID_CHARS) || !isName(c.orderId) || !isInt(c.atMs)) {
      fail(`client id ${describe(c.clientId)} of ${describe(c.login)}`, 'needs clientId (1 to 64 characters), orderId and atMs');
    }
    const account = ownerOf(core, `client id ${c.clientId}`, c.login);
    if (account.clientIds.has(c.clientId)) fail(`client id ${c.clientId}`, `listed twice for account ${c.login}`);
    core.clientIds.remember(account, { login: c.login, clientId: c.clientId, orderId: c.orderId, atMs: c.atMs });
  }
  for (const k of haltedKeys) {
    if (!isName(k.keyId)) fail(`halted key of ${describe(k.login)}`, 'keyId must be a non-empty string');
    ownerOf(core, `halted key ${k.keyId}`, k.login).haltedKeys.add(k.keyId);
  }
}

function loadQuotes(core: Core, quotes: readonly Quote[]): void {
  for (const q of quotes) {
    const p = quoteProblem(q);
    if (p !== null) fail('quote', p);
    const slot = core.slots.get(q.symbol);
    if (slot === undefined) fail('quote', `unknown symbol ${q.symbol}`);
    slot.sym.quote = { symbol: q.symbol, bid: q.bid, ask: q.ask, ts: q.ts };
  }
}

function loadDeadMen(core: Core, deadMen: readonly DeadManRecord[]): void {
  for (const d of deadMen) {
    const what = `dead-man's switch of ${describe(d.login)}`;
    if (!isName(d.keyId) || !isInt(d.deadlineMs) || typeof d.closePositions !== 'boolean') fail(what, 'needs keyId, deadlineMs and closePositions');
    ownerOf(core, what, d.login);
    if (core.deadMen.get(d.login, d.keyId) !== undefined) fail(what, `listed twice for key ${d.keyId}`);
    core.deadMen.set({ login: d.login, keyId: d.keyId, deadlineMs: d.deadlineMs, closePositions: d.closePositions });
  }
}

function levelsProblem(l: MarginLevels): string | null {
  const percent = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;
  if (!percent(l.marginCallPercent) || !percent(l.stopOutPercent)) return 'marginCallPercent and stopOutPercent must be non-negative numbers';
  return l.stopOutPercent > l.marginCallPercent && l.marginCallPercent > 0 ? 'stopOutPercent must not exceed marginCallPercent' : null;
}

function marginRules(policy: MarginPolicy | undefined): MarginRules {
  if (policy === undefined) return new MarginRules(null);
  if (!isRecord(policy) || !isRecord(policy.defaults)) fail('marginPolicy', 'must be {defaults, groups}');
  const defaults = levelsProblem(policy.defaults);
  if (defaults !== null) fail('marginPolicy defaults', defaults);
  for (const g of objects(policy.groups, 'marginPolicy groups')) {
    const p = typeof g.group === 'string' ? levelsProblem(g) : 'group must be a string';
    if (p !== null) fail(`marginPolicy group ${describe(g.group)}`, p);
  }
  return new MarginRules(policy);
}

/** The list, once every entry is known to be an object (so sorting cannot throw). */
function objects<T>(list: readonly T[] | undefined, what: string): readonly T[] {
  if (list === undefined) return [];
  const items: unknown = list;
  if (!Array.isArray(items) || !items.every((item: unknown) => isRecord(item))) fail(what, 'must be an array of objects');
  return list;
}

export function loadCore(init: EngineInit, archive: ClientIdArchive | null): Core {
  if (!isRecord(init)) throw new EngineInitError('engine init must be an object');
  if (!isInt(init.shardId) || init.shardId < 0 || init.shardId >= MAX_SHARDS) fail('shardId', `must be an integer from 0 to ${MAX_SHARDS - 1}`);
  if (!isInt(init.idCounter) || init.idCounter < 0) fail('idCounter', 'must be a non-negative integer');
  if (!isInt(init.clientIdRetentionMs) || init.clientIdRetentionMs < MIN_CLIENT_ID_RETENTION_MS) fail('clientIdRetentionMs', 'must be at least 24 hours');
  const market = new Instruments(objects(init.symbols, 'symbols'));
  const slots = new Map<string, Slot>();
  for (const spec of market.specs) {
    const sym = market.symbol(spec.name);
    if (sym !== undefined) slots.set(spec.name, { sym, book: new TriggerBook() });
  }
  const core: Core = {
    market, slots, accounts: new Map(), ids: new IdAllocator(init.shardId, init.idCounter),
    clientIds: new ClientIdMemory(init.clientIdRetentionMs, archive),
    deadMen: new DeadMen(), margins: marginRules(init.marginPolicy), exposure: new Exposure(market),
  };
  for (const a of [...objects(init.accounts, 'accounts')].sort((x, y) => byString(x.login, y.login))) {
    const p = accountProblem(a);
    if (p !== null) fail(`account ${describe(a.login)}`, p);
    if (core.accounts.has(a.login)) fail(`account ${a.login}`, 'listed twice');
    core.accounts.set(a.login, new AccountState(a));
  }
  loadQuotes(core, objects(init.quotes, 'quotes'));
  loadOrders(core, objects(init.pendingOrders, 'pendingOrders'), objects(init.recentOrders, 'recentOrders'));
  loadPositions(core, objects(init.positions, 'positions'));
  loadMemory(core, objects(init.clientIds, 'clientIds'), objects(init.haltedKeys, 'haltedKeys'));
  loadDeadMen(core, objects(init.deadMen, 'deadMen'));
  return core;
}
