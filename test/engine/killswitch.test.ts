// Kill switches (spec "What the service does" 7, DECISIONS "Kill switch").
import { describe, expect, it } from 'vitest';
import type { Command, OrderEvent, PositionEvent, Source } from '../../src/engine/types.js';
import { close, engine, ok, pending, place, rejected, SAT_NOON, WED_NOON } from './fixtures.js';

function killSwitch(login: string, scope: 'user' | 'account', active: boolean): Command {
  return { kind: 'killSwitch', login, scope, active };
}

function keyHalt(login: string, keyId: string, active: boolean): Command {
  return { kind: 'keyHalt', login, keyId, active };
}

describe('user and account kill switch', () => {
  function setup() {
    const e = engine();
    const sources: Source[] = ['api', 'manual', 'webhook', 'strategy', 'copy'];
    const tickets = Object.fromEntries(sources.map((source) => [source,
      ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { source, keyId: null }), WED_NOON), 'place').position?.ticket ?? 0]));
    const orders = Object.fromEntries((['api', 'manual', 'copy'] as Source[]).map((source) => [source,
      ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { source, keyId: null }), WED_NOON), 'place').order.id]));
    return { e, tickets, orders };
  }

  it('closes api/webhook/strategy positions and cancels non-manual pending orders', () => {
    const { e, tickets, orders } = setup();
    const o = e.apply(killSwitch('usd1', 'user', true), WED_NOON + 1);
    const r = ok(o, 'killSwitch');
    expect(r.login).toBe('usd1');
    expect(r.closed.map((c) => c.ticket)).toEqual([tickets.api, tickets.webhook, tickets.strategy]);
    expect(r.closed.every((c) => c.status === 'closed' && c.closePrice === 108_500)).toBe(true);
    expect(r.cancelled.map((c) => [c.id, c.status, c.reason])).toEqual([[orders.api, 'cancelled', 'kill_switch'], [orders.copy, 'cancelled', 'kill_switch']]);
    expect(r.failed).toEqual([]);
    const positionEvents = o.events.filter((ev): ev is PositionEvent => ev.type === 'position');
    expect(positionEvents.map((ev) => ev.reason)).toEqual(['kill_switch', 'kill_switch', 'kill_switch']);
    const orderEvents = o.events.filter((ev): ev is OrderEvent => ev.type === 'order');
    expect(orderEvents.map((ev) => [ev.order.status, ev.order.reason])).toEqual([['cancelled', 'kill_switch'], ['cancelled', 'kill_switch']]);
    expect(o.accounts).toEqual([expect.objectContaining({ userHalted: true, accountHalted: false })]);
    const left = e.account('usd1');
    expect(left?.positions.map((p) => p.source)).toEqual(['manual', 'copy']);
    expect(left?.pendingOrders.map((p) => p.source)).toEqual(['manual']);
  });

  it('the account switch refuses trading but flattens nothing (spec: "trading calls fail")', () => {
    const { e } = setup();
    const before = e.account('usd1');
    const o = e.apply(killSwitch('usd1', 'account', true), WED_NOON + 1);
    expect(ok(o, 'killSwitch')).toEqual({ ok: true, kind: 'killSwitch', login: 'usd1', closed: [], cancelled: [], failed: [] });
    expect(o.events).toEqual([]);
    expect(e.account('usd1')).toEqual({ ...before, account: { ...before?.account, accountHalted: true } });
  });

  it('while set, non-manual trading commands get kill_switch_active; manual ones pass', () => {
    const { e, tickets, orders } = setup();
    e.apply(killSwitch('usd1', 'account', true), WED_NOON);
    for (const source of ['api', 'webhook', 'strategy', 'copy'] as Source[]) {
      expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { source, keyId: null }), WED_NOON))).toMatchObject({ name: 'kill_switch_active' });
    }
    expect(rejected(e.apply(close('usd1', tickets.manual ?? 0), WED_NOON))).toMatchObject({ name: 'kill_switch_active' });
    expect(rejected(e.apply({ kind: 'cancel', login: 'usd1', orderId: orders.manual ?? '', source: 'api', keyId: null }, WED_NOON))).toMatchObject({ name: 'kill_switch_active' });
    expect(rejected(e.apply({ kind: 'replace', login: 'usd1', orderId: orders.manual ?? '', price: 107_000, volume: null, source: 'api', keyId: null }, WED_NOON))).toMatchObject({ name: 'kill_switch_active' });
    expect(rejected(e.apply({ kind: 'closeWebhook', login: 'usd1', webhookId: 'wh1', symbol: null, volume: null }, WED_NOON))).toMatchObject({ name: 'kill_switch_active' });
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { source: 'manual', keyId: null }), WED_NOON), 'place');
    ok(e.apply(close('usd1', tickets.manual ?? 0, null, 'manual'), WED_NOON), 'close');
    // Other accounts are not affected.
    ok(e.apply(place('usd2', 'EURUSD', 'buy', 10), WED_NOON), 'place');
  });

  it('turning it off clears the flag only', () => {
    const { e } = setup();
    e.apply(killSwitch('usd1', 'user', true), WED_NOON);
    const before = e.account('usd1');
    const o = e.apply(killSwitch('usd1', 'user', false), WED_NOON);
    expect(ok(o, 'killSwitch')).toEqual({ ok: true, kind: 'killSwitch', login: 'usd1', closed: [], cancelled: [], failed: [] });
    expect(o.events).toEqual([]);
    expect(e.account('usd1')).toEqual({ ...before, account: { ...before?.account, userHalted: false } });
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
  });

  it('both flags must be cleared before trading resumes', () => {
    const e = engine();
    e.apply(killSwitch('usd1', 'user', true), WED_NOON);
    e.apply(killSwitch('usd1', 'account', true), WED_NOON);
    e.apply(killSwitch('usd1', 'user', false), WED_NOON);
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON)).name).toBe('kill_switch_active');
    e.apply(killSwitch('usd1', 'account', false), WED_NOON);
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
  });

  it('a position that cannot close now is reported in failed, and is retried by a second trigger', () => {
    const e = engine();
    const gbp = ok(e.apply(place('usd1', 'GBPUSD', 'buy', 10), WED_NOON), 'place').position?.ticket;
    const eur = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place').position?.ticket;
    const r = ok(e.apply(killSwitch('usd1', 'user', true), SAT_NOON), 'killSwitch');
    expect(r.closed.map((c) => c.ticket)).toEqual([eur]);
    expect(r.failed).toEqual([{ ticket: gbp, reject: expect.objectContaining({ name: 'market_closed' }) }]);
    const monday = SAT_NOON + 2 * 86_400_000;
    expect(ok(e.apply(killSwitch('usd1', 'user', true), monday), 'killSwitch').closed.map((c) => c.ticket)).toEqual([gbp]);
  });

  it('unknown account is not_found', () => {
    expect(rejected(engine().apply(killSwitch('nobody', 'user', true), WED_NOON)).name).toBe('not_found');
  });
});

describe('key halt', () => {
  it('refuses commands carrying the halted key, whatever the source; other keys trade on', () => {
    const e = engine();
    const o = e.apply(keyHalt('usd1', 'key1', true), WED_NOON);
    expect(o.result).toEqual({ ok: true, kind: 'done' });
    expect(o.keyHalts).toEqual([{ login: 'usd1', keyId: 'key1', active: true }]);
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON))).toMatchObject({ name: 'kill_switch_active', message: 'the kill switch of key key1 is active' });
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { keyId: 'key2' }), WED_NOON), 'place');
    expect(e.snapshot().haltedKeys).toEqual([{ login: 'usd1', keyId: 'key1' }]);
    expect(e.apply(keyHalt('usd1', 'key1', true), WED_NOON).keyHalts).toEqual([]);
    expect(e.apply(keyHalt('usd1', 'key1', false), WED_NOON).keyHalts).toEqual([{ login: 'usd1', keyId: 'key1', active: false }]);
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    expect(e.snapshot().haltedKeys).toEqual([]);
  });
});
