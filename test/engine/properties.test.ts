// Property tests: random command streams (valid, invalid and garbage) keep the engine's invariants,
// never throw, replay deterministically, and money is conserved up to the spread paid.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import type { Command, EngineInit, Outcome, Side, Source } from '../../src/engine/types.js';
import { init as baseInit, QUOTES, WED_NOON } from './fixtures.js';

/** Random runs trade under a stop-out policy, so stop-outs replay too. */
const init = (over: Partial<EngineInit> = {}): EngineInit =>
  baseInit({ marginPolicy: { defaults: { marginCallPercent: 100, stopOutPercent: 50 }, groups: [{ group: 'g', marginCallPercent: 150, stopOutPercent: 120 }] }, ...over });

const LOGINS = ['usd1', 'eur1', 'usd2', 'ghost'] as const;
const SOURCES_ARB = fc.constantFrom<Source>('api', 'manual', 'webhook', 'strategy', 'copy');
const SIDE = fc.constantFrom<Side>('buy', 'sell');
const VOLUME = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 1, max: 300 }) }, { weight: 1, arbitrary: fc.constantFrom(0, -1, 10_001, 1.5, Number.NaN) });
const OFFSET = fc.integer({ min: -400, max: 400 });

type Action =
  | { t: 'market'; login: string; symbol: string; side: Side; volume: number; sl: number | null; tp: number | null; source: Source; clientId: string | null; webhook: boolean }
  | { t: 'pending'; login: string; symbol: string; side: Side; type: 'limit' | 'stop'; offset: number; volume: number; sl: number | null; source: Source }
  | { t: 'sized'; login: string; symbol: string; side: Side; rule: number; signal: number | null; sl: number | null; tp: number | null }
  | { t: 'close'; login: string; pick: number; volume: number | null; source: Source }
  | { t: 'cancel'; login: string; pick: number; settled: boolean }
  | { t: 'replace'; login: string; pick: number; offset: number | null; volume: number | null }
  | { t: 'closeWebhook'; login: string; symbol: string | null; volume: number | null }
  | { t: 'amend'; login: string; pick: number; sl: number | null; tp: number | null; position: boolean }
  | { t: 'every'; login: string; symbol: string | null; close: boolean }
  | { t: 'deadMan'; login: string; timeoutMs: number; fire: 'deadline' | 'disconnect' | null; closePositions: boolean }
  | { t: 'tick'; symbol: string; move: number; spread: number }
  | { t: 'kill'; login: string; scope: 'user' | 'account'; active: boolean }
  | { t: 'keyHalt'; login: string; keyId: string; active: boolean }
  | { t: 'upsert'; login: string; leverage: number }
  | { t: 'time'; advanceMs: number }
  | { t: 'garbage'; value: unknown };

// Mostly commands that can succeed, with enough invalid ones to exercise every reject.
const login = fc.oneof({ weight: 9, arbitrary: fc.constantFrom('usd1', 'eur1', 'usd2') }, { weight: 1, arbitrary: fc.constant('ghost') });
const symbol = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('EURUSD', 'USDJPY', 'US500') },
  { weight: 2, arbitrary: fc.constant('GBPUSD') },
  { weight: 1, arbitrary: fc.constantFrom('CHFSEK', 'NOPE') },
);
const level = fc.option(OFFSET, { nil: null, freq: 2 });
const ADVANCE_MS = fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 60_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 * 86_400_000 }) });

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('market' as const), login, symbol, side: SIDE, volume: VOLUME, sl: level, tp: level, source: SOURCES_ARB, clientId: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }), webhook: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('pending' as const), login, symbol, side: SIDE, type: fc.constantFrom('limit' as const, 'stop' as const), offset: OFFSET, volume: VOLUME, sl: level, source: SOURCES_ARB }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('sized' as const), login, symbol, side: SIDE, rule: fc.integer({ min: 0, max: 2 }), signal: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }), sl: level, tp: level }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('close' as const), login, pick: fc.nat(), volume: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }), source: SOURCES_ARB }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('cancel' as const), login, pick: fc.nat(), settled: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('replace' as const), login, pick: fc.nat(), offset: fc.option(OFFSET, { nil: null }), volume: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('closeWebhook' as const), login, symbol: fc.option(symbol, { nil: null }), volume: fc.option(fc.integer({ min: 1, max: 300 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('amend' as const), login, pick: fc.nat(), sl: level, tp: level, position: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('every' as const), login, symbol: fc.option(symbol, { nil: null }), close: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deadMan' as const), login, timeoutMs: fc.constantFrom(0, 5_000, 60_000), fire: fc.constantFrom(null, 'deadline' as const, 'disconnect' as const), closePositions: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('tick' as const), symbol, move: fc.integer({ min: -300, max: 300 }), spread: fc.integer({ min: 0, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('kill' as const), login, scope: fc.constantFrom('user' as const, 'account' as const), active: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('keyHalt' as const), login, keyId: fc.constantFrom('key1', 'key2'), active: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('upsert' as const), login, leverage: fc.integer({ min: 0, max: 500 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('time' as const), advanceMs: ADVANCE_MS }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('garbage' as const), value: fc.anything() }) },
);

const SIZING_RULES = [{ type: 'fixed', lots: 15 }, { type: 'multiplier', factor: 0.75 }, { type: 'risk_percent', percent: 0.5 }] as const;

/** Turns an action into a concrete command against the engine's current state. */
function toCommand(e: Engine, a: Action): Command | null {
  const q = a.t === 'tick' || a.t === 'market' || a.t === 'pending' || a.t === 'sized' ? e.quote(a.symbol) : null;
  const ref = q?.ask ?? 100_000;
  const base = { clientId: null, keyId: 'key1', webhookId: null, price: null, sizing: null } as const;
  switch (a.t) {
    case 'market':
      return { ...base, kind: 'place', login: a.login, symbol: a.symbol, side: a.side, type: 'market', volume: a.volume, sl: a.sl === null ? null : ref + a.sl, tp: a.tp === null ? null : ref + a.tp, source: a.source, clientId: a.clientId, webhookId: a.webhook ? 'wh1' : null };
    case 'pending':
      return { ...base, kind: 'place', login: a.login, symbol: a.symbol, side: a.side, type: a.type, volume: a.volume, price: Math.max(1, ref + a.offset), sl: a.sl === null ? null : Math.max(1, ref + a.sl), tp: null, source: a.source };
    case 'sized':
      return { ...base, kind: 'place', login: a.login, symbol: a.symbol, side: a.side, type: 'market', volume: null, sizing: { rule: SIZING_RULES[a.rule] ?? SIZING_RULES[0], signalVolume: a.signal }, sl: a.sl === null ? null : Math.max(1, ref + a.sl), tp: a.tp === null ? null : Math.max(1, ref + a.tp), source: 'webhook', keyId: null, webhookId: 'wh1' };
    case 'close': {
      const positions = e.account(a.login)?.positions ?? [];
      const ticket = positions[a.pick % Math.max(1, positions.length)]?.ticket ?? 1 + a.pick;
      return { kind: 'close', login: a.login, ticket, volume: a.volume, source: a.source, keyId: 'key1' };
    }
    case 'cancel': {
      const orders = e.account(a.login)?.pendingOrders ?? [];
      const orderId = a.settled ? String(a.pick) : orders[a.pick % Math.max(1, orders.length)]?.id ?? String(a.pick);
      return { kind: 'cancel', login: a.login, orderId, source: 'api', keyId: 'key1' };
    }
    case 'replace': {
      const order = (e.account(a.login)?.pendingOrders ?? [])[a.pick % 4];
      const price = a.offset === null || order === undefined ? null : Math.max(1, order.price + a.offset);
      return { kind: 'replace', login: a.login, orderId: order?.id ?? '1', price, volume: a.volume, source: 'api', keyId: 'key1' };
    }
    case 'closeWebhook':
      return { kind: 'closeWebhook', login: a.login, webhookId: 'wh1', symbol: a.symbol, volume: a.volume };
    case 'amend': {
      const snap = e.account(a.login);
      const edit = (offset: number | null, at: number): 'remove' | number => (offset === null ? 'remove' : Math.max(1, at + offset));
      if (a.position) {
        const p = (snap?.positions ?? [])[a.pick % 4];
        return { kind: 'amendPosition', login: a.login, ticket: p?.ticket ?? 1, sl: edit(a.sl, p?.openPrice ?? 100_000), tp: edit(a.tp, p?.openPrice ?? 100_000), source: 'api', keyId: 'key1' };
      }
      const o = (snap?.pendingOrders ?? [])[a.pick % 4];
      return { kind: 'replace', login: a.login, orderId: o?.id ?? '1', price: null, volume: null, sl: edit(a.sl, o?.price ?? 100_000), tp: edit(a.tp, o?.price ?? 100_000), source: 'api', keyId: 'key1' };
    }
    case 'every':
      return { kind: a.close ? 'closeAll' : 'cancelAll', login: a.login, symbol: a.symbol, source: 'api', keyId: 'key1' };
    case 'deadMan':
      return a.fire === null
        ? { kind: 'armDeadMan', login: a.login, keyId: 'key1', timeoutMs: a.timeoutMs, closePositions: a.closePositions }
        : { kind: 'fireDeadMan', login: a.login, keyId: 'key1', cause: a.fire, closePositions: a.closePositions };
    case 'tick': {
      const bid = Math.max(1, (q?.bid ?? 100_000) + a.move);
      return { kind: 'tick', quote: { symbol: a.symbol, bid, ask: bid + a.spread, ts: 0 } };
    }
    case 'kill':
      return { kind: 'killSwitch', login: a.login, scope: a.scope, active: a.active };
    case 'keyHalt':
      return { kind: 'keyHalt', login: a.login, keyId: a.keyId, active: a.active };
    case 'upsert':
      return { kind: 'upsertAccount', account: { login: a.login, user: 'u', type: 'demo', group: 'g', currency: 'USD', leverage: a.leverage, server: 's', balance: 100_000 } };
    case 'time':
      return null;
    case 'garbage':
      return a.value as Command;
  }
}

interface Run { readonly log: [Command, number][]; readonly outcomes: Outcome[]; readonly engine: Engine }

function run(start: EngineInit, actions: readonly Action[], check?: (e: Engine, o: Outcome) => void): Run {
  const e = new Engine(start);
  const log: [Command, number][] = [];
  const outcomes: Outcome[] = [];
  let nowMs = WED_NOON;
  for (const a of actions) {
    if (a.t === 'time') nowMs += a.advanceMs;
    const cmd = toCommand(e, a);
    if (cmd === null) continue;
    const o = e.apply(cmd, nowMs);
    log.push([cmd, nowMs]);
    outcomes.push(o);
    check?.(e, o);
  }
  return { log, outcomes, engine: e };
}

function checkInvariants(e: Engine, seen: Map<number, string>, lastSeq: Map<string, number>, o: Outcome): void {
  for (const login of LOGINS) {
    const snap = e.account(login);
    if (snap === null) continue;
    expect(Number.isSafeInteger(snap.account.balance)).toBe(true);
    let margin = 0;
    for (const p of snap.positions) {
      expect(Number.isSafeInteger(p.volume) && p.volume > 0).toBe(true);
      expect(p.margin).toBeGreaterThanOrEqual(0);
      margin += p.margin;
    }
    expect(snap.account.margin).toBe(margin);
    // The floating profit kept between ticks is exactly the sum over the positions.
    expect(e.freeMargin(login)).toBe(e.metrics(login)?.freeMargin);
    for (const ord of snap.pendingOrders) expect(Number.isSafeInteger(ord.volume) && ord.volume > 0).toBe(true);
  }
  for (const ev of o.events) {
    // Per-account seq grows by one per event.
    const login = ev.type === 'order' ? ev.order.login : ev.position.login;
    expect(ev.seq).toBe((lastSeq.get(login) ?? 0) + 1);
    lastSeq.set(login, ev.seq);
    // One allocator: an order id or a ticket belongs to exactly one order or position.
    const claims: [number, string][] = ev.type === 'order'
      ? [[Number(ev.order.id), `order ${ev.order.id}`], ...(ev.order.ticket === null ? [] : [[ev.order.ticket, `position ${ev.order.ticket}`] as [number, string]])]
      : [[ev.position.ticket, `position ${ev.position.ticket}`]];
    for (const [n, owner] of claims) {
      expect(seen.get(n) ?? owner).toBe(owner);
      seen.set(n, owner);
    }
    if (ev.type === 'position') expect(ev.position.volume).toBeGreaterThan(0);
  }
}

describe('engine properties', () => {
  it('no command throws; volumes stay positive, margins add up, ids and tickets never repeat, seq grows by one', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 10, maxLength: 120, size: 'max' }), (actions) => {
      const seen = new Map<number, string>();
      const lastSeq = new Map<string, number>();
      run(init(), actions, (e, o) => checkInvariants(e, seen, lastSeq, o));
    }), { numRuns: 300 });
  });

  it('replaying the command log into a fresh engine gives the same outcomes and snapshot; snapshots round-trip', () => {
    fc.assert(fc.property(fc.array(action, { minLength: 10, maxLength: 120, size: 'max' }), (actions) => {
      const first = run(init(), actions);
      const replay = new Engine(init());
      const outcomes = first.log.map(([cmd, nowMs]) => replay.apply(cmd, nowMs));
      expect(outcomes).toEqual(first.outcomes);
      const snap = first.engine.snapshot();
      expect(replay.snapshot()).toEqual(snap);
      expect(new Engine(snap).snapshot()).toEqual(snap);
    }), { numRuns: 200 });
  });
});

// ---------------------------------------------------------------------------------------------
// Conservation: at fixed quotes, opening costs exactly the spread (converted once, rounded half
// away from zero), a full close moves equity by nothing, a partial close by at most one cent of
// rounding; closing everything leaves balance = equity and no margin.

const QUOTE = new Map(QUOTES.map((q) => [q.symbol, q]));
const SPECS = new Map(init().symbols.map((s) => [s.name, s]));

/** The account-currency value of a quote-currency amount num/den, by the DECISIONS rule. */
function toAccount(num: bigint, den: bigint, from: string, to: string): [bigint, bigint] {
  const eurusd = QUOTE.get('EURUSD');
  const usdjpy = QUOTE.get('USDJPY');
  if (eurusd === undefined || usdjpy === undefined) throw new Error('fixture quotes missing');
  let [n, d] = [num, den];
  if (from === 'JPY') [n, d] = [n * 1000n, d * BigInt(usdjpy.ask)]; // JPY→USD ÷ ask USDJPY
  if (to === 'EUR') [n, d] = [n * 100_000n, d * BigInt(eurusd.ask)]; // USD→EUR ÷ ask EURUSD
  return [n, d];
}

function roundHalfAway(n: bigint, d: bigint): number {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (2n * a + d) / (2n * d);
  return Number(neg ? -q : q);
}

/** Floating profit right after opening: minus the spread, in account cents. */
function spreadCost(symbolName: string, volume: number, currency: string): number {
  const spec = SPECS.get(symbolName);
  const q = QUOTE.get(symbolName);
  if (spec === undefined || q === undefined) throw new Error(`no fixture for ${symbolName}`);
  const quoteCents = -BigInt(q.ask - q.bid) * BigInt(volume) * BigInt(spec.contractSize);
  const [n, d] = toAccount(quoteCents, 10n ** BigInt(spec.digits), spec.quoteCurrency, currency);
  return roundHalfAway(n, d);
}

const tradeAction = fc.oneof(
  fc.record({ t: fc.constant('open' as const), login: fc.constantFrom('usd1', 'eur1'), symbol: fc.constantFrom('EURUSD', 'USDJPY', 'US500'), side: SIDE, volume: fc.integer({ min: 1, max: 150 }) }),
  fc.record({ t: fc.constant('close' as const), login: fc.constantFrom('usd1', 'eur1'), pick: fc.nat(), part: fc.option(fc.integer({ min: 1, max: 150 }), { nil: null }) }),
);

describe('conservation of money', () => {
  it('equity changes only by the spread paid (and at most one cent per partial close)', () => {
    fc.assert(fc.property(fc.array(tradeAction, { minLength: 5, maxLength: 80, size: 'max' }), (actions) => {
      const e = new Engine(init());
      const currency: Record<string, string> = { usd1: 'USD', eur1: 'EUR' };
      const equity = (l: string) => e.metrics(l)?.equity ?? Number.NaN;
      let expected = { usd1: equity('usd1'), eur1: equity('eur1') } as Record<string, number>;
      let partials = 0;
      for (const a of actions) {
        const before = equity(a.login);
        if (a.t === 'open') {
          const o = e.apply({ kind: 'place', login: a.login, symbol: a.symbol, side: a.side, type: 'market', volume: a.volume, sizing: null, price: null, sl: null, tp: null, clientId: null, source: 'api', keyId: null, webhookId: null }, WED_NOON);
          if (!o.result.ok) continue;
          const cost = spreadCost(a.symbol, a.volume, currency[a.login] ?? '');
          expect(cost).toBeLessThanOrEqual(0);
          expect(equity(a.login) - before).toBe(cost);
          expected = { ...expected, [a.login]: (expected[a.login] ?? 0) + cost };
        } else {
          const positions = e.account(a.login)?.positions ?? [];
          const p = positions[a.pick % Math.max(1, positions.length)];
          if (p === undefined) continue;
          const volume = a.part === null || a.part >= p.volume ? null : a.part;
          const o = e.apply({ kind: 'close', login: a.login, ticket: p.ticket, volume, source: 'api', keyId: null }, WED_NOON);
          expect(o.result.ok).toBe(true);
          if (volume === null) expect(equity(a.login)).toBe(before);
          else {
            partials += 1;
            expect(Math.abs(equity(a.login) - before)).toBeLessThanOrEqual(1);
          }
        }
      }
      for (const l of ['usd1', 'eur1']) {
        expect(Math.abs(equity(l) - (expected[l] ?? 0))).toBeLessThanOrEqual(partials);
        for (const p of e.account(l)?.positions ?? []) e.apply({ kind: 'close', login: l, ticket: p.ticket, volume: null, source: 'api', keyId: null }, WED_NOON);
        const m = e.metrics(l);
        expect(m).toMatchObject({ margin: 0, equity: m?.balance });
        expect(Math.abs((m?.balance ?? 0) - (expected[l] ?? 0))).toBeLessThanOrEqual(partials);
      }
    }), { numRuns: 300 });
  });
});
