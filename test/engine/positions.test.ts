// Closing positions: full, partial, refused; webhook close/close_all (DECISIONS "Signal webhooks").
import { describe, expect, it } from 'vitest';
import type { Command, PositionEvent } from '../../src/engine/types.js';
import { close, engine, ok, place, rejected, SAT_NOON, tick, WED_NOON } from './fixtures.js';

function closeWebhook(login: string, webhookId: string, symbol: string | null, volume: number | null): Command {
  return { kind: 'closeWebhook', login, webhookId, symbol, volume };
}

describe('close', () => {
  it('closes fully at bid for a buy; balance takes the profit, margin is released', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'buy', 100), WED_NOON), 'place');
    e.apply(tick('EURUSD', 108_700, 108_710), WED_NOON);
    const o = e.apply(close('usd1', r.position?.ticket ?? 0), WED_NOON + 1);
    expect(ok(o, 'close')).toEqual({
      ok: true, kind: 'close', ticket: r.position?.ticket, status: 'closed', symbol: 'EURUSD', side: 'buy', source: 'api',
      closePrice: 108_700, profit: 19_000, closedVolume: 100, volume: 0,
    });
    expect(o.events).toEqual([{
      type: 'position', seq: 3, ts: WED_NOON + 1, status: 'closed', position: r.position, reason: 'client', closePrice: 108_700, closedVolume: 100, profit: 19_000,
    }]);
    expect(o.closedTickets).toEqual([r.position?.ticket]);
    expect(o.positions).toEqual([]);
    expect(o.accounts).toEqual([expect.objectContaining({ balance: 1_019_000, margin: 0, seq: 3 })]);
  });

  it('partial close: remaining volume, margin reduced pro rata with one rounding, the rest still closes exactly', () => {
    const e = engine();
    const r = ok(e.apply(place('eur1', 'USDJPY', 'buy', 100), WED_NOON), 'place');
    const ticket = r.position?.ticket ?? 0;
    expect(r.position?.margin).toBe(92_157);
    const o = e.apply(close('eur1', ticket, 30), WED_NOON);
    // −0.020 JPY × 30 000 = −600 JPY ÷ 150.020 ÷ 1.08510 = −3.686 EUR.
    expect(ok(o, 'close')).toMatchObject({ status: 'partially_closed', volume: 70, profit: -369 });
    // 92 157 × 30 / 100 = 27 647.1 released → 64 510 held.
    expect(o.positions).toEqual([{ ...r.position, volume: 70, margin: 64_510 }]);
    expect((o.events[0] as PositionEvent)).toMatchObject({ status: 'partially_closed', closedVolume: 30, position: { volume: 70 } });
    expect(e.account('eur1')?.account).toMatchObject({ margin: 64_510, balance: 1_000_000 - 369 });
    const rest = ok(e.apply(close('eur1', ticket), WED_NOON), 'close');
    expect(rest).toMatchObject({ status: 'closed', volume: 0, profit: -860 });
    expect(e.account('eur1')?.account.margin).toBe(0);
  });

  it('volume above the position is invalid_order; unknown or foreign tickets are not_found', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    const ticket = r.position?.ticket ?? 0;
    expect(rejected(e.apply(close('usd1', ticket, 11), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'volume', message: "volume 0.11 lots exceeds the position's 0.10 lots" });
    expect(rejected(e.apply(close('usd2', ticket), WED_NOON))).toMatchObject({ name: 'not_found' });
    expect(rejected(e.apply(close('usd1', 999_999), WED_NOON))).toMatchObject({ name: 'not_found' });
    expect(ok(e.apply(close('usd1', ticket, 10), WED_NOON), 'close').status).toBe('closed');
    expect(rejected(e.apply(close('usd1', ticket), WED_NOON))).toMatchObject({ name: 'not_found' });
  });

  it('needs an open session', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'GBPUSD', 'buy', 10), WED_NOON), 'place');
    expect(rejected(e.apply(close('usd1', r.position?.ticket ?? 0), SAT_NOON))).toMatchObject({ name: 'market_closed' });
    expect(e.account('usd1')?.positions).toHaveLength(1);
  });
});

describe('closeWebhook', () => {
  function setup() {
    const e = engine();
    const open = (symbol: string, volume: number, webhookId: string | null) =>
      ok(e.apply(place('usd1', symbol, 'buy', volume, { source: webhookId === null ? 'api' : 'webhook', webhookId }), WED_NOON), 'place').position?.ticket ?? 0;
    const t = { a: open('EURUSD', 30, 'wh1'), b: open('USDJPY', 20, 'wh1'), c: open('EURUSD', 50, 'wh1'), d: open('EURUSD', 40, 'wh2'), e: open('EURUSD', 10, null) };
    return { e, t };
  }

  it('close with a volume closes this webhook\'s positions in the symbol, oldest first, the last partially', () => {
    const { e, t } = setup();
    const r = ok(e.apply(closeWebhook('usd1', 'wh1', 'EURUSD', 50), WED_NOON), 'closeMany');
    expect(r.closed.map((c) => [c.ticket, c.status, c.volume])).toEqual([[t.a, 'closed', 0], [t.c, 'partially_closed', 30]]);
    expect(r.failed).toEqual([]);
    expect(e.account('usd1')?.positions.map((p) => [p.ticket, p.volume])).toEqual([[t.b, 20], [t.c, 30], [t.d, 40], [t.e, 10]]);
  });

  it('close_all closes every position of this webhook and no other, with reason webhook', () => {
    const { e, t } = setup();
    const o = e.apply(closeWebhook('usd1', 'wh1', null, null), WED_NOON);
    expect(ok(o, 'closeMany').closed.map((c) => c.ticket)).toEqual([t.a, t.b, t.c]);
    expect(o.events.every((ev) => ev.type === 'position' && ev.reason === 'webhook')).toBe(true);
    expect(e.account('usd1')?.positions.map((p) => p.ticket)).toEqual([t.d, t.e]);
  });

  it('reports positions it cannot close and still closes the others', () => {
    const e = engine();
    const gbp = ok(e.apply(place('usd1', 'GBPUSD', 'buy', 10, { source: 'webhook', webhookId: 'wh1' }), WED_NOON), 'place').position?.ticket;
    const eur = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { source: 'webhook', webhookId: 'wh1' }), WED_NOON), 'place').position?.ticket;
    const r = ok(e.apply(closeWebhook('usd1', 'wh1', null, null), SAT_NOON), 'closeMany');
    expect(r.closed.map((c) => c.ticket)).toEqual([eur]);
    expect(r.failed).toEqual([{ ticket: gbp, reject: expect.objectContaining({ name: 'market_closed' }) }]);
  });
});
