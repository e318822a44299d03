// Profit, margin and account figures, with every expected number worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import { Instruments } from '../../src/engine/instruments.js';
import { accountMetrics, floatingProfitCents, marginLevel } from '../../src/engine/money.js';
import type { PositionRecord } from '../../src/engine/types.js';
import { close, engine, ok, place, QUOTES, rejected, SYMBOLS, tick, WED_NOON } from './fixtures.js';

function market(): Instruments {
  const m = new Instruments(SYMBOLS);
  for (const q of QUOTES) m.setQuote(q);
  return m;
}

function position(over: Partial<PositionRecord>): PositionRecord {
  return {
    ticket: 131, login: 'x', symbol: 'EURUSD', side: 'buy', volume: 100, openPrice: 108_510, sl: null, tp: null,
    source: 'api', keyId: null, webhookId: null, orderId: '67', margin: 0, openedAt: WED_NOON, ...over,
  };
}

describe('money in a USD account', () => {
  it('a 1-lot EURUSD buy fills at ask, holds base-currency margin converted at bid, floats at bid', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'buy', 100), WED_NOON), 'place');
    expect(r.order.price).toBe(108_510);
    // 1 lot × 100 000 EUR / 100 = 1 000 EUR = 100 000 EUR cents × 1.08500 = 108 500 USD cents.
    expect(r.position?.margin).toBe(108_500);
    // (1.08500 − 1.08510) × 100 000 = −10 USD.
    expect(e.metrics('usd1')).toEqual({ balance: 1_000_000, equity: 999_000, margin: 108_500, freeMargin: 890_500, marginLevel: 920.74 });
  });

  it('a sell fills at bid and closes at ask; realised profit goes into the balance', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'sell', 50), WED_NOON), 'place');
    expect(r.order.price).toBe(108_500);
    e.apply(tick('EURUSD', 108_300, 108_310), WED_NOON);
    const c = ok(e.apply(close('usd1', r.position?.ticket ?? 0), WED_NOON), 'close');
    // (1.08500 − 1.08310) × 0.5 × 100 000 = 95 USD.
    expect(c).toEqual({
      ok: true, kind: 'close', ticket: r.position?.ticket, status: 'closed', symbol: 'EURUSD', side: 'sell', source: 'api',
      closePrice: 108_310, profit: 9_500, closedVolume: 50, volume: 0,
    });
    expect(e.metrics('usd1')).toEqual({ balance: 1_009_500, equity: 1_009_500, margin: 0, freeMargin: 1_009_500, marginLevel: 0 });
  });

  it('a JPY-quoted symbol converts profit through the pair: ÷ ask of USDJPY', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'USDJPY', 'buy', 100), WED_NOON), 'place');
    // Base USD = account currency: 1 lot × 100 000 / 100 = 1 000 USD.
    expect(r.position?.margin).toBe(100_000);
    // −0.020 JPY × 100 000 = −2 000 JPY ÷ 150.020 = −13.3316 USD → −13.33.
    expect(e.metrics('usd1')?.equity).toBe(1_000_000 - 1_333);
    e.apply(tick('USDJPY', 150_500, 150_520), WED_NOON);
    const c = ok(e.apply(close('usd1', r.position?.ticket ?? 0), WED_NOON), 'close');
    // (150.500 − 150.020) × 100 000 = 48 000 JPY ÷ 150.520 = 318.894 USD.
    expect(c.profit).toBe(31_889);
    expect(c.closePrice).toBe(150_500);
  });

  it('a CFD holds margin in its quote currency at the open price', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'US500', 'buy', 100), WED_NOON), 'place');
    // 1 lot × 10 × 4 700.5 / 100 = 470.05 USD.
    expect(r.position?.margin).toBe(47_005);
    // 0.5 points × 10 = −5 USD.
    expect(e.metrics('usd1')?.equity).toBe(999_500);
  });
});

describe('money in a EUR account (cross currency)', () => {
  it('USDJPY: margin USD→EUR ÷ ask EURUSD; profit JPY→USD→EUR through two pairs', () => {
    const e = engine();
    const r = ok(e.apply(place('eur1', 'USDJPY', 'buy', 100), WED_NOON), 'place');
    // 1 000 USD ÷ 1.08510 = 921.574 EUR.
    expect(r.position?.margin).toBe(92_157);
    // −2 000 JPY ÷ 150.020 ÷ 1.08510 = −12.286 EUR.
    expect(e.metrics('eur1')?.equity).toBe(1_000_000 - 1_229);
    e.apply(tick('USDJPY', 151_000, 151_020), WED_NOON);
    const c = ok(e.apply(close('eur1', r.position?.ticket ?? 0), WED_NOON), 'close');
    // (151.000 − 150.020) × 100 000 = 98 000 JPY ÷ 151.020 ÷ 1.08510 = 598.03 EUR.
    expect(c.profit).toBe(59_803);
    expect(e.metrics('eur1')).toEqual({ balance: 1_059_803, equity: 1_059_803, margin: 0, freeMargin: 1_059_803, marginLevel: 0 });
  });

  it('EURUSD: margin needs no conversion, profit USD→EUR ÷ ask', () => {
    const e = engine();
    const r = ok(e.apply(place('eur1', 'EURUSD', 'buy', 100), WED_NOON), 'place');
    expect(r.position?.margin).toBe(100_000);
    // −10 USD ÷ 1.08510 = −9.2157 EUR.
    expect(e.metrics('eur1')?.equity).toBe(1_000_000 - 922);
  });

  it('a CFD in USD: margin converted USD→EUR', () => {
    const e = engine();
    const r = ok(e.apply(place('eur1', 'US500', 'buy', 100), WED_NOON), 'place');
    // 470.05 USD ÷ 1.08510 = 433.186 EUR.
    expect(r.position?.margin).toBe(43_319);
  });

  it('no route to the account currency rejects the order instead of guessing', () => {
    const e = engine();
    const before = e.snapshot();
    const reject = rejected(e.apply(place('usd1', 'CHFSEK', 'buy', 10), WED_NOON));
    expect(reject).toMatchObject({ name: 'invalid_order', field: 'symbol' });
    expect(reject.message).toContain('no conversion rate from CHF to USD');
    expect(e.snapshot()).toEqual(before);
  });
});

describe('pure functions for the read model', () => {
  it('floatingProfitCents matches the engine and is null without a quote', () => {
    const m = market();
    expect(floatingProfitCents(position({}), m, 'USD')).toBe(-1_000);
    expect(floatingProfitCents(position({ symbol: 'USDJPY', openPrice: 150_020 }), m, 'EUR')).toBe(-1_229);
    expect(floatingProfitCents(position({ side: 'sell', openPrice: 108_600 }), m, 'USD')).toBe(9_000);
    const empty = new Instruments(SYMBOLS);
    expect(floatingProfitCents(position({}), empty, 'USD')).toBeNull();
    expect(floatingProfitCents(position({ symbol: 'CHFSEK', openPrice: 120_100 }), m, 'USD')).toBeNull();
  });

  it('accountMetrics sums floating profit; margin level is 0 without margin', () => {
    const m = market();
    const metrics = accountMetrics({ balance: 500_000, margin: 200_000, currency: 'USD' }, [position({}), position({ ticket: 195, side: 'sell', openPrice: 108_600 })], m);
    expect(metrics).toEqual({ balance: 500_000, equity: 508_000, margin: 200_000, freeMargin: 308_000, marginLevel: 254 });
    expect(marginLevel(123, 0)).toBe(0);
    expect(marginLevel(100_001, 30_000)).toBe(333.34);
  });
});

describe('quote versions (the key of the floating-profit cache)', () => {
  it('move with a price, not with a quote that repeats the prices', () => {
    const m = new Instruments(SYMBOLS);
    const first = QUOTES[0]!;
    m.setQuote(first);
    const v = m.quoteVersion;
    m.setQuote({ ...first, ts: first.ts + 250 });
    expect(m.quoteVersion).toBe(v);
    expect(m.quote(first.symbol)?.ts).toBe(first.ts + 250);
    m.setQuote({ ...first, bid: first.bid + 1 });
    expect(m.quoteVersion).toBe(v + 1);
    m.setQuote({ ...first, bid: first.bid + 1, ask: first.ask + 1 });
    expect(m.quoteVersion).toBe(v + 2);
  });

  it('keeps the cached free margin equal to a fresh computation across repeated and moved quotes', () => {
    const e = engine();
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    const cachedEqualsFresh = (): void => { expect(e.freeMargin('usd1')).toBe(e.metrics('usd1')?.freeMargin); };
    e.apply(tick('EURUSD', 108_600, 108_610), WED_NOON + 1);
    cachedEqualsFresh();
    const before = e.freeMargin('usd1')!;
    e.apply(tick('EURUSD', 108_600, 108_610, WED_NOON + 2), WED_NOON + 2);
    cachedEqualsFresh();
    expect(e.freeMargin('usd1')).toBe(before);
    // 0.1 lot of EURUSD: 100 ticks of 0.00001 move 10 000 units by 0.001 USD each: $10.00.
    e.apply(tick('EURUSD', 108_700, 108_710, WED_NOON + 3), WED_NOON + 3);
    cachedEqualsFresh();
    expect(e.freeMargin('usd1')).toBe(before + 1000);
  });
});
