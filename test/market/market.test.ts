import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureSymbol } from '../../src/config/types.js';
import type { Quote } from '../../src/engine/types.js';
import { Market, type MarketOptions, type PricesConfig } from '../../src/market/market.js';
import { marketSymbolOf, type MarketSymbol } from '../../src/market/market-symbol.js';
import { QuoteBoard } from '../../src/market/quote-board.js';
import { VirtualTime } from './support/virtual-time.js';

const START = Date.parse('2024-01-08T12:00:00Z');
const EURUSD: MarketSymbol = { name: 'EURUSD', digits: 5, session: '24x7', bid: 108500, ask: 108510, volatility: 0.0001, tickMs: 100 };
const XAUUSD: MarketSymbol = { name: 'XAUUSD', digits: 2, session: '24x7', bid: 200_000, ask: 200_050, volatility: 0.5, tickMs: 200 };
const SIMULATED: PricesConfig = { source: 'simulated', seed: 7, file: null, speed: 1 };

let dir = '';
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'tas-market-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

async function open(prices: PricesConfig, symbols: readonly MarketSymbol[] = [EURUSD, XAUUSD]) {
  const time = new VirtualTime(START);
  const errors: unknown[] = [];
  const options: MarketOptions = { symbols, prices, clock: time, scheduler: time, onSubscriberError: (e) => errors.push(e) };
  const market = await Market.open(options);
  const seen: Quote[] = [];
  market.subscribe((q) => seen.push(q));
  return { market, time, seen, errors };
}

describe('Market', () => {
  it('publishes every symbol\'s configured quote on start, then the simulated ticks', async () => {
    const { market, time, seen } = await open(SIMULATED);
    market.start();
    expect(seen).toEqual([
      { symbol: 'EURUSD', bid: 108500, ask: 108510, ts: START },
      { symbol: 'XAUUSD', bid: 200_000, ask: 200_050, ts: START },
    ]);
    time.advanceBy(1000);
    expect(seen.filter((q) => q.symbol === 'EURUSD')).toHaveLength(11);
    expect(seen.filter((q) => q.symbol === 'XAUUSD')).toHaveLength(6);
    market.stop();
    time.advanceBy(1000);
    expect(seen).toHaveLength(17);
    expect(time.pending()).toBe(0);
  });

  it('writes the board before calling subscribers, and keeps last() in step', async () => {
    const { market, time } = await open(SIMULATED);
    const reader = QuoteBoard.attach(market.board.sab, market.board.symbols);
    const mismatches: string[] = [];
    market.subscribe((q) => {
      const onBoard = reader.read(q.symbol);
      if (JSON.stringify(onBoard) !== JSON.stringify(q)) mismatches.push(`${JSON.stringify(onBoard)} != ${JSON.stringify(q)}`);
      if (market.last(q.symbol) !== q) mismatches.push('last() lags');
    });
    market.start();
    time.advanceBy(2000);
    market.stop();
    expect(mismatches).toEqual([]);
    expect(reader.version()).toBe(2 + 20 + 10);
  });

  it('is deterministic for a seed', async () => {
    const a = await open(SIMULATED);
    const b = await open(SIMULATED);
    for (const { market, time } of [a, b]) {
      market.start();
      time.advanceBy(10_000);
      market.stop();
    }
    expect(a.seen).toEqual(b.seen);
  });

  it('takes pushes alongside the simulation, and the walk continues from the pushed price', async () => {
    const { market, time, seen } = await open(SIMULATED, [{ ...EURUSD, volatility: 0 }]);
    market.start();
    time.advanceBy(100);
    expect(market.push({ symbol: 'EURUSD', bid: 1.2, ask: 1.20004 })).toEqual({ ok: true, quote: { symbol: 'EURUSD', bid: 120000, ask: 120004, ts: START + 100 } });
    time.advanceBy(100);
    expect(seen.at(-1)).toEqual({ symbol: 'EURUSD', bid: 120000, ask: 120004, ts: START + 200 });
    expect(market.board.read('EURUSD')).toEqual(seen.at(-1));
    market.stop();
  });

  it('refuses pushes before start and after stop, and bad pushes always', async () => {
    const { market, seen } = await open(SIMULATED);
    expect(market.push({ symbol: 'EURUSD', bid: 1.085, ask: 1.0851 })).toMatchObject({ ok: false, field: null });
    market.start();
    expect(market.push({ symbol: 'EURUSD', bid: 1.0851, ask: 1.085 })).toMatchObject({ ok: false, field: 'ask' });
    market.stop();
    expect(market.push({ symbol: 'EURUSD', bid: 1.085, ask: 1.0851 })).toMatchObject({ ok: false, field: null });
    expect(seen).toHaveLength(2); // the start quotes only
  });

  it('prices push-only symbols by pushes alone', async () => {
    const { market, time, seen } = await open({ ...SIMULATED, source: 'push' });
    market.start();
    time.advanceBy(60_000);
    expect(seen).toHaveLength(2);
    expect(market.push({ symbol: 'XAUUSD', bid: 2001.5, ask: 2002 }).ok).toBe(true);
    expect(market.last('XAUUSD')).toEqual({ symbol: 'XAUUSD', bid: 200_150, ask: 200_200, ts: START + 60_000 });
    expect(time.pending()).toBe(0);
    market.stop();
  });

  it('keeps delivering when a subscriber throws, and reports the error', async () => {
    const { market, time, seen, errors } = await open({ ...SIMULATED, source: 'push' });
    market.subscribe(() => { throw new Error('boom'); });
    const after: Quote[] = [];
    market.subscribe((q) => after.push(q));
    market.start();
    expect(errors).toHaveLength(2);
    expect(seen).toHaveLength(2);
    expect(after).toHaveLength(2);
    time.advanceBy(1);
    market.stop();
  });

  it('unsubscribes', async () => {
    const { market } = await open({ ...SIMULATED, source: 'push' });
    const got: Quote[] = [];
    const off = market.subscribe((q) => got.push(q));
    market.start();
    off();
    market.push({ symbol: 'EURUSD', bid: 1.1, ask: 1.1 });
    expect(got).toHaveLength(2);
    market.stop();
  });

  it('replays a file for the symbols set to replay and simulates the others', async () => {
    const file = join(dir, 'gold.csv');
    await writeFile(file, 'ts,symbol,bid,ask\n1000,XAUUSD,2001.00,2001.50\n1500,XAUUSD,2002.25,2002.75\n');
    const { market, time, seen } = await open({ ...SIMULATED, file, symbols: { XAUUSD: 'replay' } });
    expect(market.sourceOf('XAUUSD')).toBe('replay');
    expect(market.sourceOf('EURUSD')).toBe('simulated');
    expect(market.sourceOf('GBPUSD')).toBeNull();
    market.start();
    time.advanceBy(1000);
    await market.replayDone;
    expect(seen.filter((q) => q.symbol === 'XAUUSD')).toEqual([
      { symbol: 'XAUUSD', bid: 200_000, ask: 200_050, ts: START },
      { symbol: 'XAUUSD', bid: 200_100, ask: 200_150, ts: START },
      { symbol: 'XAUUSD', bid: 200_225, ask: 200_275, ts: START + 500 },
    ]);
    expect(seen.filter((q) => q.symbol === 'EURUSD')).toHaveLength(11);
    market.stop();
  });

  it('refuses a replay row for a symbol another source prices, with the line', async () => {
    const file = join(dir, 'mixed.csv');
    await writeFile(file, '1000,XAUUSD,2001.00,2001.50\n1500,EURUSD,1.085,1.0851\n');
    await expect(open({ ...SIMULATED, file, symbols: { XAUUSD: 'replay' } })).rejects.toThrow(`${file}:2: symbol "EURUSD" is not one the replay prices`);
  });

  it('refuses configurations it cannot run, naming the key', async () => {
    await expect(open({ ...SIMULATED, source: 'replay' })).rejects.toThrow(/^prices\.file: required/);
    await expect(open({ ...SIMULATED, symbols: { GBPUSD: 'push' } })).rejects.toThrow(/^prices\.symbols\.GBPUSD: not a configured symbol/);
    await expect(open({ ...SIMULATED, source: 'replay', file: join(dir, 'nope.csv') })).rejects.toThrow(/nope\.csv: cannot read/);
    await expect(open({ ...SIMULATED, source: 'push' }, [{ ...EURUSD, ask: 1 }])).rejects.toThrow(/EURUSD: ask/);
    await expect(open(SIMULATED, [EURUSD, EURUSD])).rejects.toThrow(/twice/);
  });

  it('starts once', async () => {
    const { market } = await open({ ...SIMULATED, source: 'push' });
    market.start();
    expect(() => market.start()).toThrow(/running/);
    market.stop();
    expect(() => market.start()).toThrow(/stopped/);
  });
});

describe('marketSymbolOf', () => {
  const fixture: FixtureSymbol = {
    name: 'EURUSD', digits: 5, contract_size: 100_000, bid: 1.08011, ask: 1.0802, volatility: 0.0001, tick_ms: 100,
    max_volume: 100, session: '24x7', base_currency: 'EUR', quote_currency: 'USD',
  };

  it('takes the fixture prices as exact ticks', () => {
    expect(marketSymbolOf(fixture)).toEqual({ name: 'EURUSD', digits: 5, session: '24x7', bid: 108011, ask: 108020, volatility: 0.0001, tickMs: 100 });
  });

  it('refuses a fixture price with too many decimals, naming it', () => {
    expect(() => marketSymbolOf({ ...fixture, ask: 1.080205 })).toThrow('symbols.EURUSD.ask: 1.080205 has more than 5 decimals');
  });
});
