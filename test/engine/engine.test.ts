// The Engine's contract: malformed input is a bad_request that changes nothing, upserts, init
// validation, snapshot round trips and queries.
import { describe, expect, it } from 'vitest';
import { EngineInitError } from '../../src/engine/checks.js';
import { Engine } from '../../src/engine/engine.js';
import type { Command } from '../../src/engine/types.js';
import { account, close, DAY_MS, engine, EURUSD, init, ok, pending, place, rejected, tick, WED_NOON } from './fixtures.js';

const valid = place('usd1', 'EURUSD', 'buy', 10);

const malformed: [string, unknown, string][] = [
  ['null', null, 'kind'],
  ['a number', 42, 'kind'],
  ['an unknown kind', { kind: 'withdraw', login: 'usd1' }, 'kind'],
  ['a missing login', { ...valid, login: undefined }, 'login'],
  ['a numeric login', { ...valid, login: 100001 }, 'login'],
  ['a bad side', { ...valid, side: 'long' }, 'side'],
  ['a bad type', { ...valid, type: 'fok' }, 'type'],
  ['NaN volume', { ...valid, volume: Number.NaN }, 'volume'],
  ['fractional volume', { ...valid, volume: 1.5 }, 'volume'],
  ['negative volume', { ...valid, volume: -10 }, 'volume'],
  ['a string volume', { ...valid, volume: '10' }, 'volume'],
  ['a BigInt volume', { ...valid, volume: 10n }, 'volume'],
  ['neither volume nor sizing', { ...valid, volume: null }, 'volume'],
  ['an unsafe sl', { ...valid, sl: 2 ** 60 }, 'sl'],
  ['Infinity tp', { ...valid, tp: Infinity }, 'tp'],
  ['a bad source', { ...valid, source: 'admin' }, 'source'],
  ['an empty key id', { ...valid, keyId: '' }, 'key_id'],
  ['a numeric client id', { ...valid, clientId: 7 }, 'client_id'],
  ['a bad sizing type', { ...valid, volume: null, sizing: { rule: { type: 'kelly' }, signalVolume: null } }, 'sizing'],
  ['a zero ticket', { kind: 'close', login: 'usd1', ticket: 0, volume: null, source: 'api', keyId: null }, 'ticket'],
  ['a string ticket', { kind: 'close', login: 'usd1', ticket: '131', volume: null, source: 'api', keyId: null }, 'ticket'],
  ['a cancel without id', { kind: 'cancel', login: 'usd1', source: 'api', keyId: null }, 'id'],
  ['a tick without quote', { kind: 'tick' }, 'quote'],
  ['a tick with a float ask', { kind: 'tick', quote: { symbol: 'EURUSD', bid: 1, ask: 1.5, ts: 0 } }, 'ask'],
  ['a kill switch with a bad scope', { kind: 'killSwitch', login: 'usd1', scope: 'global', active: true }, 'scope'],
  ['a kill switch with a string flag', { kind: 'killSwitch', login: 'usd1', scope: 'user', active: 'yes' }, 'active'],
  ['a key halt without key', { kind: 'keyHalt', login: 'usd1', keyId: null, active: true }, 'key_id'],
  ['an upsert with leverage 0', { kind: 'upsertAccount', account: { ...account('n1', 'USD', 0), leverage: 0 } }, 'leverage'],
  ['an upsert with a float balance', { kind: 'upsertAccount', account: { ...account('n1', 'USD', 0), balance: 0.5 } }, 'balance'],
  ['a closeWebhook without webhook', { kind: 'closeWebhook', login: 'usd1', webhookId: '', symbol: null, volume: null }, 'webhook_id'],
];

describe('malformed commands', () => {
  it.each(malformed)('%s is a bad_request naming the field, and changes nothing', (_label, cmd, field) => {
    const e = engine();
    ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place');
    const before = e.snapshot();
    const o = e.apply(cmd as Command, WED_NOON);
    expect(rejected(o)).toMatchObject({ name: 'bad_request', field });
    expect(o).toMatchObject({ events: [], accounts: [], orders: [], positions: [], closedTickets: [], clientIds: [], keyHalts: [] });
    expect(e.snapshot()).toEqual(before);
  });

  it('a bad clock is refused too', () => {
    const e = engine();
    expect(rejected(e.apply(valid, Number.NaN))).toMatchObject({ name: 'bad_request', field: 'nowMs' });
    expect(rejected(e.apply(valid, 1.5))).toMatchObject({ name: 'bad_request', field: 'nowMs' });
  });
});

describe('upsertAccount', () => {
  it('creates an account with its balance, then updates static fields only', () => {
    const e = engine();
    const created = e.apply({ kind: 'upsertAccount', account: { login: 'n1', user: 'u9', type: 'live', group: 'real', currency: 'USD', leverage: 50, server: 'Live-1', balance: 5_000 } }, WED_NOON);
    expect(created.accounts).toEqual([{ login: 'n1', user: 'u9', type: 'live', group: 'real', currency: 'USD', leverage: 50, server: 'Live-1', balance: 5_000, margin: 0, seq: 0, accountHalted: false, userHalted: false }]);
    // A manual position survives the kill switch: 0.01 lot × 100 000 / 50 × 1.08500 = 21.70 USD margin.
    ok(e.apply(place('n1', 'EURUSD', 'buy', 1, { source: 'manual', keyId: null }), WED_NOON), 'place');
    e.apply({ kind: 'killSwitch', login: 'n1', scope: 'account', active: true }, WED_NOON);
    const updated = e.apply({ kind: 'upsertAccount', account: { login: 'n1', user: 'u9', type: 'live', group: 'vip', currency: 'USD', leverage: 200, server: 'Live-2', balance: 999_999 } }, WED_NOON);
    expect(updated.accounts).toEqual([expect.objectContaining({ group: 'vip', leverage: 200, server: 'Live-2', balance: 5_000, margin: 2_170, seq: 2, accountHalted: true })]);
    // The same upsert again changes nothing (seed upserts are idempotent).
    expect(e.apply({ kind: 'upsertAccount', account: { login: 'n1', user: 'u9', type: 'live', group: 'vip', currency: 'USD', leverage: 200, server: 'Live-2', balance: 1 } }, WED_NOON).accounts).toEqual([]);
  });

  it('refuses to change the currency of an account holding positions', () => {
    const e = engine();
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    expect(rejected(e.apply({ kind: 'upsertAccount', account: { ...account('usd1', 'EUR', 0) } }, WED_NOON))).toMatchObject({ name: 'bad_request', field: 'currency' });
    ok(e.apply({ kind: 'upsertAccount', account: { ...account('usd2', 'EUR', 0) } }, WED_NOON), 'done');
  });
});

describe('init', () => {
  const bad: [string, Parameters<typeof init>[0], RegExp][] = [
    ['shard 64', { shardId: 64 }, /shardId/],
    ['a negative id counter', { idCounter: -1 }, /idCounter/],
    ['a short retention', { clientIdRetentionMs: DAY_MS - 1 }, /24 hours/],
    ['a symbol listed twice', { symbols: [EURUSD, EURUSD] }, /listed twice/],
    ['a bad session', { symbols: [{ ...EURUSD, session: { tz: '3', open: 'Sun 23:05', close: 'Fri 23:55' } }] }, /session tz/],
    ['a fractional contract size', { symbols: [{ ...EURUSD, contractSize: 0.5 }] }, /contractSize/],
    ['an account listed twice', { accounts: [account('a', 'USD', 0), account('a', 'USD', 0)] }, /listed twice/],
    ['an account margin that is not its positions\' sum', { accounts: [account('a', 'USD', 0, { margin: 5 })] }, /margin 5 differs/],
    ['a position of an unknown account', {
      positions: [{ ticket: 67, login: 'ghost', symbol: 'EURUSD', side: 'buy', volume: 1, openPrice: 1, sl: null, tp: null, source: 'api', keyId: null, webhookId: null, orderId: '3', margin: 0, openedAt: 0 }],
    }, /unknown account/],
    ['a quote for an unknown symbol', { quotes: [{ symbol: 'X', bid: 1, ask: 1, ts: 0 }] }, /unknown symbol/],
  ];

  it.each(bad)('refuses %s with a message', (_label, over, message) => {
    expect(() => new Engine(init(over))).toThrow(EngineInitError);
    expect(() => new Engine(init(over))).toThrow(message);
  });

  it('never reuses an id found in the loaded state', () => {
    const position = { ticket: 100 * 64 + 3, login: 'usd1', symbol: 'EURUSD', side: 'buy' as const, volume: 10, openPrice: 108_510, sl: null, tp: null, source: 'api' as const, keyId: null, webhookId: null, orderId: String(99 * 64 + 3), margin: 10_850 };
    const e = new Engine(init({ idCounter: 2, accounts: [account('usd1', 'USD', 1_000_000, { margin: 10_850 })], positions: [{ ...position, openedAt: WED_NOON }] }));
    expect(e.idCounter).toBe(100);
    expect(ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place').order.id).toBe(String(101 * 64 + 3));
  });
});

describe('snapshot and queries', () => {
  it('a snapshot restores an identical engine', () => {
    const e = engine();
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { sl: 108_000, clientId: 'a' }), WED_NOON), 'place');
    ok(e.apply(pending('eur1', 'USDJPY', 'sell', 'stop', 149_000, 10, { clientId: 'b' }), WED_NOON), 'place');
    const p = ok(e.apply(place('usd2', 'US500', 'buy', 10), WED_NOON), 'place');
    ok(e.apply(close('usd2', p.position?.ticket ?? 0, 5), WED_NOON), 'close');
    e.apply({ kind: 'keyHalt', login: 'usd2', keyId: 'k9', active: true }, WED_NOON);
    e.apply(tick('EURUSD', 108_600, 108_610), WED_NOON);
    const snap = e.snapshot();
    const restored = new Engine(snap);
    expect(restored.snapshot()).toEqual(snap);
    expect(restored.idCounter).toBe(e.idCounter);
    // Both continue identically.
    const next = (x: Engine) => x.apply(tick('EURUSD', 107_990, 108_000), WED_NOON + 1);
    expect(next(restored)).toEqual(next(e));
    expect(restored.snapshot()).toEqual(e.snapshot());
  });

  it('account(), metrics() and quote() answer reads', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'buy', 100), WED_NOON), 'place');
    expect(e.account('usd1')).toEqual({ account: expect.objectContaining({ login: 'usd1', margin: 108_500, seq: 2 }), positions: [r.position], pendingOrders: [] });
    expect(e.account('nobody')).toBeNull();
    expect(e.metrics('nobody')).toBeNull();
    expect(e.quote('EURUSD')).toEqual({ symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: WED_NOON });
    expect(e.quote('NOPE')).toBeNull();
    expect(e.shardId).toBe(3);
  });

  it('allMetrics(from) gives the accounts from the from-th on, an account added since last', () => {
    const e = engine();
    const logins = (from?: number) => [...e.allMetrics(from)].map((m) => m.login);
    const before = logins();
    e.apply({ kind: 'upsertAccount', account: account('new1', 'USD', 5_000) }, WED_NOON);
    expect(logins()).toEqual([...before, 'new1']);
    expect(logins(3)).toEqual(['new1']);
    expect(logins(4)).toEqual([]);
    expect([...e.allMetrics(3)][0]!.metrics).toEqual(e.metrics('new1'));
  });
});
