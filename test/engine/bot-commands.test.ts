// The commands bots use around their orders: amend (orders and positions), cancel-all, close-all
// and the dead-man's switch.
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/engine/types.js';
import { engine, ok, pending, place, rejected, tick, WED_NOON } from './fixtures.js';

const amendPosition = (login: string, ticket: number, sl: 'keep' | 'remove' | number, tp: 'keep' | 'remove' | number): Command =>
  ({ kind: 'amendPosition', login, ticket, sl, tp, source: 'api', keyId: 'key1' });

describe('amend', () => {
  it('moves a pending order\'s price, volume, sl and tp, and its event lists what changed', () => {
    const e = engine();
    const o = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { sl: 107_000 }), WED_NOON), 'place').order;
    const out = e.apply({ kind: 'replace', login: 'usd1', orderId: o.id, price: 107_900, volume: null, sl: 'remove', tp: 109_000, source: 'api', keyId: 'key1' }, WED_NOON);
    expect(ok(out, 'replace').order).toMatchObject({ price: 107_900, volume: 10, sl: null, tp: 109_000, status: 'pending' });
    expect(out.events).toMatchObject([{ type: 'order', amended: [
      { field: 'price', from: 108_000, to: 107_900 }, { field: 'sl', from: 107_000, to: null }, { field: 'tp', from: null, to: 109_000 },
    ] }]);
  });

  it('validates an amended order as a placement: a TP on the losing side names tp and changes nothing', () => {
    const e = engine();
    const o = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place').order;
    const out = e.apply({ kind: 'replace', login: 'usd1', orderId: o.id, price: null, volume: null, tp: 107_000, source: 'api', keyId: 'key1' }, WED_NOON);
    expect(rejected(out)).toMatchObject({ name: 'invalid_order', field: 'tp' });
    expect(out.events).toEqual([]);
  });

  it('moves a position\'s SL and TP against its close price now, and SL/TP then fire at the new levels', () => {
    const e = engine();
    const p = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place').position!;
    expect(rejected(e.apply(amendPosition('usd1', p.ticket, 108_600, 'keep'), WED_NOON))).toMatchObject({ field: 'sl' });
    const out = e.apply(amendPosition('usd1', p.ticket, 108_400, 108_700), WED_NOON);
    expect(ok(out, 'amendPosition').position).toMatchObject({ sl: 108_400, tp: 108_700 });
    expect(out.events).toMatchObject([{ type: 'position', status: 'open', amended: [{ field: 'sl', from: null, to: 108_400 }, { field: 'tp', from: null, to: 108_700 }] }]);
    ok(e.apply(amendPosition('usd1', p.ticket, 'remove', 'keep'), WED_NOON), 'amendPosition');
    expect(e.apply(tick('EURUSD', 108_300, 108_310), WED_NOON).events).toEqual([]);
    expect(e.apply(tick('EURUSD', 108_700, 108_710), WED_NOON).events).toMatchObject([{ type: 'position', status: 'closed', reason: 'tp' }]);
    expect(rejected(e.apply(amendPosition('usd1', p.ticket, 108_000, 'keep'), WED_NOON))).toMatchObject({ name: 'not_found' });
  });
});

describe('cancel-all and close-all', () => {
  it('cancel-all cancels every pending order of the account, or of one symbol', () => {
    const e = engine();
    ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place');
    ok(e.apply(pending('usd1', 'US500', 'buy', 'limit', 46_000, 10), WED_NOON), 'place');
    const one = ok(e.apply({ kind: 'cancelAll', login: 'usd1', symbol: 'US500', source: 'api', keyId: 'key1' }, WED_NOON), 'cancelMany');
    expect(one.cancelled.map((o) => [o.symbol, o.status])).toEqual([['US500', 'cancelled']]);
    const rest = ok(e.apply({ kind: 'cancelAll', login: 'usd1', symbol: null, source: 'api', keyId: 'key1' }, WED_NOON), 'cancelMany');
    expect(rest.cancelled.map((o) => o.symbol)).toEqual(['EURUSD']);
    expect(e.account('usd1')!.pendingOrders).toEqual([]);
    expect(rejected(e.apply({ kind: 'cancelAll', login: 'usd1', symbol: 'NOPE', source: 'api', keyId: 'key1' }, WED_NOON))).toMatchObject({ name: 'bad_request', field: 'symbol' });
  });

  it('close-all closes what it can and reports each position that cannot close now', () => {
    const e = engine();
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    const gbp = ok(e.apply(place('usd1', 'GBPUSD', 'sell', 10), WED_NOON), 'place').position!;
    // Saturday: GBPUSD trades the FX week only.
    const out = ok(e.apply({ kind: 'closeAll', login: 'usd1', symbol: null, source: 'api', keyId: 'key1' }, Date.UTC(2024, 0, 13, 12)), 'closeMany');
    expect(out.closed.map((c) => c.symbol)).toEqual(['EURUSD']);
    expect(out.failed).toMatchObject([{ ticket: gbp.ticket, reject: { name: 'market_closed' } }]);
  });
});

describe('dead-man\'s switch', () => {
  const arm = (timeoutMs: number, closePositions = false, keyId = 'key1'): Command => ({ kind: 'armDeadMan', login: 'usd1', keyId, timeoutMs, closePositions });
  const fire = (cause: 'deadline' | 'disconnect', closePositions = false): Command => ({ kind: 'fireDeadMan', login: 'usd1', keyId: 'key1', cause, closePositions });

  it('arms, re-arms and disarms; it fires only once its deadline has passed', () => {
    const e = engine();
    expect(ok(e.apply(arm(60_000), WED_NOON), 'deadMan').armed).toMatchObject({ deadlineMs: WED_NOON + 60_000 });
    expect(ok(e.apply(arm(60_000), WED_NOON + 30_000), 'deadMan').armed).toMatchObject({ deadlineMs: WED_NOON + 90_000 });
    expect(e.nextDeadlineMs()).toBe(WED_NOON + 90_000);
    const early = e.apply(fire('deadline'), WED_NOON + 89_999);
    expect(rejected(early)).toMatchObject({ name: 'bad_request' });
    expect(e.dueDeadMen(WED_NOON + 90_000)).toMatchObject([{ login: 'usd1', keyId: 'key1' }]);
    const disarmed = e.apply(arm(0), WED_NOON + 40_000);
    expect(disarmed.deadMen).toEqual([{ t: 'disarmed', login: 'usd1', keyId: 'key1' }]);
    expect(e.nextDeadlineMs()).toBeNull();
  });

  it('cancels the key\'s orders and closes its API positions with reason dead_man; other keys\' stay', () => {
    const e = engine();
    const mine = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place').order;
    const theirs = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { keyId: 'key2' }), WED_NOON), 'place').order;
    const pos = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place').position!;
    ok(e.apply(arm(5_000, true), WED_NOON), 'deadMan');
    const out = e.apply(fire('deadline'), WED_NOON + 5_000);
    const fired = ok(out, 'deadManFired');
    expect(fired.cancelled.map((o) => [o.id, o.reason])).toEqual([[mine.id, 'dead_man']]);
    expect(fired.closed.map((c) => c.ticket)).toEqual([pos.ticket]);
    expect(out.events.some((ev) => ev.type === 'position' && ev.reason === 'dead_man')).toBe(true);
    expect(out.deadMen).toEqual([{ t: 'disarmed', login: 'usd1', keyId: 'key1' }]);
    expect(e.account('usd1')!.pendingOrders.map((o) => o.id)).toEqual([theirs.id]);
    // Disarmed by firing: a second deadline fire changes nothing.
    expect(rejected(e.apply(fire('deadline'), WED_NOON + 6_000))).toMatchObject({ name: 'bad_request' });
  });

  it('a disconnect fires at once, without touching an armed deadline', () => {
    const e = engine();
    ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place');
    ok(e.apply(arm(60_000), WED_NOON), 'deadMan');
    expect(ok(e.apply(fire('disconnect'), WED_NOON + 1), 'deadManFired').cancelled).toHaveLength(1);
    expect(e.nextDeadlineMs()).toBe(WED_NOON + 60_000);
  });

  it('armed switches survive a snapshot', () => {
    const e = engine();
    ok(e.apply(arm(60_000, true), WED_NOON), 'deadMan');
    const restored = engine(e.snapshot());
    expect(restored.snapshot()).toEqual(e.snapshot());
    expect(restored.dueDeadMen(WED_NOON + 60_000)).toMatchObject([{ closePositions: true }]);
  });
});
