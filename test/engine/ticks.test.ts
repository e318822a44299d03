// Ticks: pending triggers and SL/TP, only while the session is open; fills at the tick's price.
import { describe, expect, it } from 'vitest';
import type { OrderEvent, PositionEvent } from '../../src/engine/types.js';
import { account, engine, ok, pending, place, rejected, SAT_NOON, tick, WED_NOON } from './fixtures.js';

describe('pending order triggers', () => {
  it('each kind fires on its side of the market and fills at the triggering tick', () => {
    const cases: { side: 'buy' | 'sell'; type: 'limit' | 'stop'; price: number; quiet: [number, number]; fire: [number, number]; fill: number }[] = [
      // Buy limit fires when ask <= price, at that ask (here better than the limit).
      { side: 'buy', type: 'limit', price: 108_400, quiet: [108_400, 108_410], fire: [108_380, 108_390], fill: 108_390 },
      { side: 'buy', type: 'stop', price: 108_600, quiet: [108_580, 108_590], fire: [108_600, 108_610], fill: 108_610 },
      { side: 'sell', type: 'limit', price: 108_600, quiet: [108_590, 108_600], fire: [108_605, 108_615], fill: 108_605 },
      { side: 'sell', type: 'stop', price: 108_400, quiet: [108_410, 108_420], fire: [108_395, 108_405], fill: 108_395 },
    ];
    for (const c of cases) {
      const e = engine();
      const p = ok(e.apply(pending('usd1', 'EURUSD', c.side, c.type, c.price, 10, { clientId: 'c' }), WED_NOON), 'place');
      expect(e.apply(tick('EURUSD', ...c.quiet), WED_NOON + 1).events).toEqual([]);
      const o = e.apply(tick('EURUSD', ...c.fire), WED_NOON + 2);
      expect(o.result).toEqual({ ok: true, kind: 'done' });
      const [orderEv, posEv] = o.events as [OrderEvent, PositionEvent];
      expect(orderEv.order).toMatchObject({ id: p.order.id, status: 'filled', price: c.fill, requestedPrice: c.price, filledAt: WED_NOON + 2, clientId: 'c' });
      expect(orderEv.order.ticket).toBeGreaterThan(0);
      expect(posEv).toMatchObject({ type: 'position', status: 'open', position: { ticket: orderEv.order.ticket, openPrice: c.fill, side: c.side, orderId: p.order.id } });
      expect([orderEv.seq, posEv.seq]).toEqual([2, 3]);
      expect(e.account('usd1')).toMatchObject({ pendingOrders: [], positions: [{ ticket: orderEv.order.ticket }] });
      // The order is settled: cancelling it now is refused as filled.
      expect(rejected(e.apply({ kind: 'cancel', login: 'usd1', orderId: p.order.id, source: 'api', keyId: null }, WED_NOON + 3)).field).toBe('id');
    }
  });

  it('fills several orders in placement order, each checked against the margin left', () => {
    const e = engine({ accounts: [account('small', 'USD', 120_000)] });
    const big = ok(e.apply(pending('small', 'EURUSD', 'buy', 'limit', 108_400, 100), WED_NOON), 'place');
    ok(e.apply(place('small', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    // After the tick: equity 1 200 − 12 (0.1 lot at 1.08390 vs 1.08510) = 1 188, margin 108.50, free 1 079.50 < 1 083.90.
    const o = e.apply(tick('EURUSD', 108_390, 108_400), WED_NOON + 1);
    expect(o.events).toHaveLength(1);
    expect((o.events[0] as OrderEvent).order).toMatchObject({
      id: big.order.id, status: 'rejected', ticket: null, closedAt: WED_NOON + 1,
      reason: 'insufficient free margin: 1.00 lots of EURUSD needs 1083.90 USD, free margin is 1079.50 USD',
    });
    expect(e.account('small')?.pendingOrders).toEqual([]);
  });

  it('nothing triggers while the session is closed; the quote still moves', () => {
    const e = engine();
    ok(e.apply(pending('usd1', 'GBPUSD', 'buy', 'limit', 126_900, 10), WED_NOON), 'place');
    expect(e.apply(tick('GBPUSD', 126_800, 126_820, SAT_NOON), SAT_NOON).events).toEqual([]);
    expect(e.quote('GBPUSD')).toEqual({ symbol: 'GBPUSD', bid: 126_800, ask: 126_820, ts: SAT_NOON });
    const monday = SAT_NOON + 2 * 86_400_000;
    expect(e.apply(tick('GBPUSD', 126_800, 126_820, monday), monday).events).toHaveLength(2);
  });

  it('a replaced order triggers at its new price only', () => {
    const e = engine();
    const p = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_400, 10), WED_NOON), 'place');
    ok(e.apply({ kind: 'replace', login: 'usd1', orderId: p.order.id, price: 108_200, volume: null, source: 'api', keyId: null }, WED_NOON), 'replace');
    expect(e.apply(tick('EURUSD', 108_290, 108_300), WED_NOON).events).toEqual([]);
    expect(e.apply(tick('EURUSD', 108_190, 108_200), WED_NOON).events).toHaveLength(2);
  });

  it('a cancelled order never triggers', () => {
    const e = engine();
    const p = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_400, 10), WED_NOON), 'place');
    ok(e.apply({ kind: 'cancel', login: 'usd1', orderId: p.order.id, source: 'api', keyId: null }, WED_NOON), 'cancel');
    expect(e.apply(tick('EURUSD', 108_000, 108_010), WED_NOON).events).toEqual([]);
  });
});

describe('SL and TP', () => {
  it('a buy closes at bid when bid reaches the TP or the SL', () => {
    const e = engine();
    const tp = ok(e.apply(place('usd1', 'EURUSD', 'buy', 100, { sl: 108_000, tp: 109_000 }), WED_NOON), 'place');
    expect(e.apply(tick('EURUSD', 108_990, 109_000), WED_NOON).events).toEqual([]);
    const o = e.apply(tick('EURUSD', 109_000, 109_010), WED_NOON + 1);
    expect(o.events).toEqual([expect.objectContaining({ type: 'position', status: 'closed', reason: 'tp', closePrice: 109_000, closedVolume: 100, profit: 49_000 })]);
    expect(o.closedTickets).toEqual([tp.position?.ticket]);
    expect(o.accounts).toEqual([expect.objectContaining({ balance: 1_049_000, margin: 0 })]);

    const sl = ok(e.apply(place('usd1', 'EURUSD', 'buy', 100, { sl: 108_500 }), WED_NOON + 2), 'place');
    expect(sl.order.price).toBe(109_010);
    const o2 = e.apply(tick('EURUSD', 108_450, 108_460), WED_NOON + 3);
    // (1.08450 − 1.09010) × 100 000: a gap closes at the tick's bid, not at the SL.
    expect(o2.events).toEqual([expect.objectContaining({ reason: 'sl', closePrice: 108_450, profit: -56_000 })]);
  });

  it('a sell closes at ask when ask reaches the SL or the TP', () => {
    const e = engine();
    ok(e.apply(place('usd1', 'EURUSD', 'sell', 100, { sl: 109_000, tp: 108_000 }), WED_NOON), 'place');
    ok(e.apply(place('usd1', 'EURUSD', 'sell', 100, { tp: 108_100 }), WED_NOON), 'place');
    const o = e.apply(tick('EURUSD', 108_090, 108_100), WED_NOON);
    expect(o.events).toEqual([expect.objectContaining({ reason: 'tp', closePrice: 108_100, profit: 40_000 })]);
    const o2 = e.apply(tick('EURUSD', 108_990, 109_000), WED_NOON);
    expect(o2.events).toEqual([expect.objectContaining({ reason: 'sl', closePrice: 109_000, profit: -50_000 })]);
    expect(e.account('usd1')?.positions).toEqual([]);
  });

  it('a partially closed position keeps its SL', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'buy', 100, { sl: 108_000 }), WED_NOON), 'place');
    ok(e.apply({ kind: 'close', login: 'usd1', ticket: r.position?.ticket ?? 0, volume: 40, source: 'api', keyId: null }, WED_NOON), 'close');
    const o = e.apply(tick('EURUSD', 107_990, 108_000), WED_NOON);
    expect(o.events).toEqual([expect.objectContaining({ reason: 'sl', closedVolume: 60 })]);
  });

  it('ticks for unknown symbols or with bad prices are refused and change nothing', () => {
    const e = engine();
    const before = e.snapshot();
    expect(rejected(e.apply(tick('NOPE', 1, 2), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'symbol' });
    expect(rejected(e.apply(tick('EURUSD', 108_600, 108_500), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'bid' });
    expect(rejected(e.apply(tick('EURUSD', Number.NaN, 108_500), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'bid' });
    expect(rejected(e.apply(tick('EURUSD', 0, 108_500), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'bid' });
    expect(e.snapshot()).toEqual(before);
  });
});
