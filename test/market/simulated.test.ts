import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/engine/types.js';
import { SimulatedSource, stepQuote } from '../../src/market/feeds/simulated.js';
import type { MarketSymbol } from '../../src/market/market-symbol.js';
import { Xoshiro128 } from '../../src/market/prng.js';
import { FX_SESSION } from '../../src/engine/market-session.js';
import { RecordingSink } from './support/recording-sink.js';
import { VirtualTime } from './support/virtual-time.js';

const MONDAY_NOON = Date.parse('2024-01-08T12:00:00Z');
const EURUSD: MarketSymbol = { name: 'EURUSD', digits: 5, session: '24x7', bid: 108500, ask: 108510, volatility: 0.0001, tickMs: 100 };
const BTCUSD: MarketSymbol = { name: 'BTCUSD', digits: 2, session: '24x7', bid: 4_200_000, ask: 4_205_000, volatility: 25, tickMs: 250 };

function run(symbols: readonly MarketSymbol[], seed: number, forMs: number, startMs = MONDAY_NOON): RecordingSink {
  const time = new VirtualTime(startMs);
  const sink = new RecordingSink();
  const source = new SimulatedSource({ symbols, seed, clock: time, scheduler: time });
  source.start(sink);
  time.advanceBy(forMs);
  source.stop();
  expect(time.pending()).toBe(0);
  return sink;
}

describe('Xoshiro128', () => {
  it('matches the reference xoshiro128** outputs for state {1, 2, 3, 4}', () => {
    const rng = Xoshiro128.fromState(1, 2, 3, 4);
    expect([rng.nextUint32(), rng.nextUint32(), rng.nextUint32()]).toEqual([11520, 0, 5927040]);
  });

  it('gives each (seed, name) its own repeatable stream', () => {
    const draw = (seed: number, name: string): number[] => {
      const rng = Xoshiro128.seeded(seed, name);
      return Array.from({ length: 8 }, () => rng.nextUint32());
    };
    expect(draw(42, 'EURUSD')).toEqual(draw(42, 'EURUSD'));
    expect(draw(42, 'EURUSD')).not.toEqual(draw(43, 'EURUSD'));
    expect(draw(42, 'EURUSD')).not.toEqual(draw(42, 'GBPUSD'));
    expect(draw(2 ** 40, 'EURUSD')).not.toEqual(draw(0, 'EURUSD'));
  });

  it('draws normals with mean 0, variance 1, bounded by ±2√3', () => {
    const rng = Xoshiro128.seeded(7, 'stats');
    let sum = 0;
    let squares = 0;
    let largest = 0;
    const n = 200_000;
    for (let i = 0; i < n; i++) {
      const z = rng.nextNormal();
      largest = Math.max(largest, Math.abs(z));
      sum += z;
      squares += z * z;
    }
    expect(largest).toBeLessThanOrEqual(2 * Math.sqrt(3));
    expect(largest).toBeGreaterThan(2.5);
    expect(Math.abs(sum / n)).toBeLessThan(0.01);
    expect(Math.abs(squares / n - 1)).toBeLessThan(0.02);
  });
});

describe('stepQuote', () => {
  it('keeps the spread, integer ticks and bid >= 1 from any start', () => {
    fc.assert(fc.property(
      fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 1000 }), fc.double({ min: 0, max: 1e6, noNaN: true }), fc.integer(),
      (bid, spread, volatilityTicks, seed) => {
        const rng = Xoshiro128.seeded(seed, 'X');
        let q: Quote = { symbol: 'X', bid, ask: bid + spread, ts: 0 };
        for (let i = 0; i < 50; i++) {
          q = stepQuote(q, volatilityTicks, rng, i);
          if (!Number.isSafeInteger(q.bid) || q.bid < 1 || q.ask - q.bid !== spread) return false;
        }
        return true;
      }));
  });

  it('moves by about volatility ticks per step', () => {
    const rng = Xoshiro128.seeded(1, 'EURUSD');
    let q: Quote = { symbol: 'EURUSD', bid: 1_000_000, ask: 1_000_010, ts: 0 };
    let squares = 0;
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const next = stepQuote(q, 10, rng, i);
      squares += (next.bid - q.bid) ** 2;
      q = next;
    }
    expect(Math.sqrt(squares / n)).toBeGreaterThan(9.5);
    expect(Math.sqrt(squares / n)).toBeLessThan(10.5);
  });
});

describe('SimulatedSource', () => {
  it('ticks every tick_ms per symbol, stamped with the clock', () => {
    const sink = run([EURUSD, BTCUSD], 1, 1000);
    expect(sink.of('EURUSD').map((q) => q.ts - MONDAY_NOON)).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(sink.of('BTCUSD').map((q) => q.ts - MONDAY_NOON)).toEqual([250, 500, 750, 1000]);
  });

  it('gives the same path for the same seed, another for another seed', () => {
    const a = run([EURUSD, BTCUSD], 1234, 60_000).quotes;
    const b = run([EURUSD, BTCUSD], 1234, 60_000).quotes;
    const c = run([EURUSD, BTCUSD], 1235, 60_000).quotes;
    expect(a).toEqual(b);
    expect(a.map((q) => q.bid)).not.toEqual(c.map((q) => q.bid));
  });

  it('gives a symbol the same path whatever other symbols are simulated beside it', () => {
    const alone = run([EURUSD], 99, 30_000).of('EURUSD');
    const together = run([BTCUSD, EURUSD], 99, 30_000).of('EURUSD');
    expect(together).toEqual(alone);
  });

  it('walks with a constant spread, never crossing, never at or below zero', () => {
    const tiny: MarketSymbol = { name: 'PENNY', digits: 2, session: '24x7', bid: 3, ask: 5, volatility: 0.5, tickMs: 10 };
    const sink = run([EURUSD, tiny], 5, 10 * 60_000);
    const bad = sink.quotes.filter((q) => !Number.isSafeInteger(q.bid) || !Number.isSafeInteger(q.ask) || q.bid < 1
      || q.ask - q.bid !== (q.symbol === 'PENNY' ? 2 : 10));
    expect(bad).toEqual([]);
    expect(sink.quotes.length).toBeGreaterThan(60_000);
    expect(new Set(sink.of('EURUSD').map((q) => q.bid)).size).toBeGreaterThan(100);
    expect(sink.of('PENNY').some((q) => q.bid === 1)).toBe(true); // it did hit the floor and bounce
  });

  it('keeps the price where it is set when volatility is 0', () => {
    const flat = { ...EURUSD, volatility: 0 };
    const sink = run([flat], 1, 5000);
    expect(sink.quotes).toHaveLength(50);
    for (const q of sink.quotes) expect([q.bid, q.ask]).toEqual([108500, 108510]);
  });

  it('steps from the latest published quote, whatever published it', () => {
    const time = new VirtualTime(MONDAY_NOON);
    const sink = new RecordingSink();
    const source = new SimulatedSource({ symbols: [{ ...EURUSD, volatility: 0 }], seed: 1, clock: time, scheduler: time });
    source.start(sink);
    time.advanceBy(100);
    sink.publish({ symbol: 'EURUSD', bid: 120000, ask: 120004, ts: time.nowMs() });
    time.advanceBy(100);
    source.stop();
    expect(sink.quotes.at(-1)).toEqual({ symbol: 'EURUSD', bid: 120000, ask: 120004, ts: MONDAY_NOON + 200 });
  });

  it('ticks only while the session is open: silent over the FX weekend, back at Sunday 23:05 +03:00', () => {
    const fx = { ...EURUSD, session: FX_SESSION, tickMs: 1000 };
    const fridayClose = Date.parse('2024-01-12T20:55:00Z');
    const sundayOpen = Date.parse('2024-01-14T20:05:00Z');
    const sink = run([fx], 3, sundayOpen + 5000 - (fridayClose - 5000), fridayClose - 5000);
    const times = sink.quotes.map((q) => q.ts);
    expect(times.filter((t) => t < fridayClose)).toEqual([-4000, -3000, -2000, -1000].map((d) => fridayClose + d));
    expect(times.filter((t) => t >= fridayClose && t < sundayOpen)).toEqual([]);
    expect(times.filter((t) => t >= sundayOpen)).toEqual([sundayOpen, sundayOpen + 1000, sundayOpen + 2000, sundayOpen + 3000, sundayOpen + 4000, sundayOpen + 5000]);
  });

  it('publishes nothing after stop, and nothing before start', () => {
    const time = new VirtualTime(MONDAY_NOON);
    const sink = new RecordingSink();
    const source = new SimulatedSource({ symbols: [EURUSD], seed: 1, clock: time, scheduler: time });
    time.advanceBy(1000);
    expect(sink.quotes).toEqual([]);
    source.start(sink);
    expect(sink.quotes).toEqual([]); // start itself publishes nothing
    time.advanceBy(300);
    source.stop();
    time.advanceBy(1000);
    expect(sink.quotes).toHaveLength(3);
    expect(time.pending()).toBe(0);
  });

  it('refuses symbols it cannot walk, naming them', () => {
    const time = new VirtualTime(0);
    const make = (s: Partial<MarketSymbol>) => () => new SimulatedSource({ symbols: [{ ...EURUSD, ...s }], seed: 1, clock: time, scheduler: time });
    expect(make({ bid: 0 })).toThrow(/EURUSD: bid/);
    expect(make({ ask: 108_499 })).toThrow(/EURUSD: ask/);
    expect(make({ bid: 1.5 })).toThrow(/EURUSD: bid/);
    expect(make({ volatility: -1 })).toThrow(/EURUSD: volatility/);
    expect(make({ tickMs: 0 })).toThrow(/EURUSD: tick_ms/);
    expect(make({ digits: 16 })).toThrow(/EURUSD: digits/);
    expect(make({ session: { tz: '+03:00', open: 'Sun 23:05', close: 'Fri 25:00' } })).toThrow(/close/);
  });
});
