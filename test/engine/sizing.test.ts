// Webhook fan-out sizing (DECISIONS "Signal webhooks"): fixed, multiplier, risk percentage.
import { describe, expect, it } from 'vitest';
import { account, engine, ok, rejected, sized, WED_NOON } from './fixtures.js';
import type { PlaceOrder } from '../../src/engine/types.js';

describe('sizing rules', () => {
  it('fixed uses its lots', () => {
    const r = ok(engine().apply(sized('usd1', 'EURUSD', 'buy', { type: 'fixed', lots: 10 }, null), WED_NOON), 'place');
    expect(r.order).toMatchObject({ volume: 10, source: 'webhook', webhookId: 'wh1' });
  });

  it('multiplier scales the signal volume and rounds down to 0.01 lot, exactly', () => {
    const e = engine();
    // 1.00 × 0.57 is 0.5699999… in floating point; the engine reads the factor as 57/100.
    expect(ok(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'multiplier', factor: 0.57 }, 100), WED_NOON), 'place').order.volume).toBe(57);
    expect(ok(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'multiplier', factor: 2.5 }, 3), WED_NOON), 'place').order.volume).toBe(7);
    expect(rejected(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'multiplier', factor: 2 }, null), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'volume' });
    expect(rejected(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'multiplier', factor: 0.1 }, 5), WED_NOON))).toMatchObject({
      name: 'invalid_order', field: 'volume', message: 'computed size 0.0050 lots is below the minimum 0.01 lots',
    });
  });

  it('risk_percent: equity × percent / (|entry − sl| × contract size), in the account currency', () => {
    const e = engine();
    // 1% of 10 000 USD = 100 USD; 50 pips × 100 000 = 500 USD per lot → 0.20 lots.
    const r = ok(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'risk_percent', percent: 1 }, null, { sl: 108_010, tp: 109_510 }), WED_NOON), 'place');
    expect(r.order.volume).toBe(20);
    // EUR account selling USDJPY: 100 EUR at risk; 1.000 JPY × 100 000 = 100 000 JPY per lot
    // = 100 000 ÷ 150.020 ÷ 1.08510 = 614.29 EUR → 0.1627 lots → 0.16.
    const jpy = ok(e.apply(sized('eur1', 'USDJPY', 'sell', { type: 'risk_percent', percent: 1 }, null, { sl: 151_000, tp: 149_000 }), WED_NOON), 'place');
    expect(jpy.order.volume).toBe(16);
  });

  it('risk_percent needs sl and tp, and a size of at least 0.01 lot (never rounded up)', () => {
    const e = engine();
    const rule = { type: 'risk_percent', percent: 1 } as const;
    expect(rejected(e.apply(sized('usd1', 'EURUSD', 'buy', rule, null, { tp: 109_000 }), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'sl' });
    expect(rejected(e.apply(sized('usd1', 'EURUSD', 'buy', rule, null, { sl: 108_000 }), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'tp' });
    const tiny = rejected(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'risk_percent', percent: 0.001 }, null, { sl: 108_010, tp: 109_000 }), WED_NOON));
    expect(tiny).toMatchObject({ name: 'invalid_order', field: 'volume', message: 'computed size 0.0002 lots (equity 10000.00 USD) is below the minimum 0.01 lots' });
  });

  it('caps at the symbol maximum', () => {
    const e = engine({ accounts: [account('rich', 'USD', 10_000_000_000)] });
    // 10% of 100 M USD over 10 ticks: 100 000 lots, capped at 100.
    const r = ok(e.apply(sized('rich', 'EURUSD', 'buy', { type: 'risk_percent', percent: 10 }, null, { sl: 108_500, tp: 109_000 }), WED_NOON), 'place');
    expect(r.order.volume).toBe(10_000);
    const f = ok(e.apply(sized('rich', 'US500', 'buy', { type: 'fixed', lots: 9_000 }, null), WED_NOON), 'place');
    expect(f.order.volume).toBe(5_000);
  });

  it('refuses malformed rules and a command carrying both volume and sizing', () => {
    const e = engine();
    expect(rejected(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'multiplier', factor: -1 }, 10), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'sizing' });
    expect(rejected(e.apply(sized('usd1', 'EURUSD', 'buy', { type: 'fixed', lots: 0 }, null), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'sizing' });
    // The type cannot hold both; the engine still refuses such a command read back from a journal.
    const both = { ...sized('usd1', 'EURUSD', 'buy', { type: 'fixed', lots: 10 }, null), volume: 10 } as unknown as PlaceOrder;
    expect(rejected(e.apply(both, WED_NOON))).toMatchObject({ name: 'bad_request', field: 'volume' });
  });
});
