import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centilotsToLots, fromTicks, lotsToCentilots, MAX_EXACT_TICKS, parseTicks, toTicks } from '../../src/market/ticks.js';

const anyTicks = fc.integer({ min: -MAX_EXACT_TICKS, max: MAX_EXACT_TICKS });
const anyDigits = fc.integer({ min: 0, max: 8 });

describe('toTicks / fromTicks', () => {
  it('converts prices whose double is just below the decimal without drifting', () => {
    expect(Math.trunc(1.08011 * 1e5)).toBe(108010); // the naive product is 108010.99999999999
    expect(toTicks(1.08011, 5)).toBe(108011);
    expect(toTicks(1.0851, 5)).toBe(108510);
    expect(toTicks(1.085, 5)).toBe(108500);
    expect(toTicks(0.07, 2)).toBe(7);
    expect(toTicks(1.15, 2)).toBe(115);
    expect(toTicks(4.35, 2)).toBe(435);
    expect(toTicks(152.347, 3)).toBe(152347);
    expect(toTicks(30000, 0)).toBe(30000);
    expect(toTicks(0.3, 5)).toBe(30000);
  });

  it('refuses more decimals than digits instead of rounding', () => {
    expect(toTicks(1.08505, 4)).toBeNull();
    expect(toTicks(0.1 + 0.2, 5)).toBeNull(); // 0.30000000000000004 is not 0.3
    expect(toTicks(0.001, 2)).toBeNull();
    expect(toTicks(1.5, 0)).toBeNull();
  });

  it('refuses non-finite values and magnitudes past MAX_EXACT_TICKS', () => {
    expect(toTicks(Number.NaN, 5)).toBeNull();
    expect(toTicks(Infinity, 5)).toBeNull();
    expect(toTicks(-Infinity, 0)).toBeNull();
    expect(toTicks(MAX_EXACT_TICKS, 0)).toBe(MAX_EXACT_TICKS);
    expect(toTicks(MAX_EXACT_TICKS + 2, 0)).toBeNull();
    expect(toTicks(1e12, 5)).toBeNull();
  });

  it('gives 0, never -0', () => {
    expect(Object.is(toTicks(-0, 5), 0)).toBe(true);
  });

  it('throws on digits it cannot scale by', () => {
    expect(() => toTicks(1, -1)).toThrow(RangeError);
    expect(() => toTicks(1, 16)).toThrow(RangeError);
    expect(() => fromTicks(1, 1.5)).toThrow(RangeError);
  });

  it('round-trips every tick count up to MAX_EXACT_TICKS at digits 0..8', () => {
    fc.assert(fc.property(anyTicks, anyDigits, (t, d) => toTicks(fromTicks(t, d), d) === t), { numRuns: 20_000 });
  });

  it('round-trips the edges of the range at every digit count', () => {
    for (let d = 0; d <= 15; d++) {
      for (const t of [1, -1, 7, MAX_EXACT_TICKS, -MAX_EXACT_TICKS, MAX_EXACT_TICKS - 1, 2 ** 50 + 1]) {
        expect(toTicks(fromTicks(t, d), d)).toBe(t);
      }
    }
  });

  it('agrees with the decimal text: what JSON.parse reads from d decimals converts to exactly that', () => {
    const decimal = fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), anyDigits).map(([t, d]) => ({ t, d, text: (t / 10 ** d).toFixed(d) }));
    fc.assert(fc.property(decimal, ({ t, d, text }) => toTicks(JSON.parse(text) as number, d) === t), { numRuns: 20_000 });
  });

  it('refuses a value with one decimal too many', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 7 }), (t, d) => {
      fc.pre(t % 10 !== 0);
      return toTicks(fromTicks(t, d + 1), d) === null;
    }), { numRuns: 20_000 });
  });
});

describe('parseTicks', () => {
  it('parses decimal text exactly', () => {
    expect(parseTicks('1.0851', 5)).toBe(108510);
    expect(parseTicks('1.08510', 5)).toBe(108510);
    expect(parseTicks('1.0851000', 5)).toBe(108510);
    expect(parseTicks('42', 2)).toBe(4200);
    expect(parseTicks('-0.5', 1)).toBe(-5);
    expect(Object.is(parseTicks('-0.0', 1), 0)).toBe(true);
  });

  it('refuses text a double would hide and anything not a plain decimal', () => {
    expect(parseTicks('1.08510000000000001', 5)).toBeNull();
    expect(parseTicks('1.085105', 5)).toBeNull();
    for (const bad of ['', '.5', '1.', '1e5', '+1', ' 1', '1,5', '0x10', 'abc', '1.2.3', 'NaN']) expect(parseTicks(bad, 5)).toBeNull();
    expect(parseTicks('99999999999999999999', 0)).toBeNull();
  });

  it('agrees with toTicks on every plain decimal', () => {
    fc.assert(fc.property(anyTicks, anyDigits, (t, d) => parseTicks(fromTicks(t, d).toFixed(d), d) === t), { numRuns: 10_000 });
  });
});

describe('lots and centilots', () => {
  it('converts lots exactly or refuses', () => {
    expect(lotsToCentilots(0.01)).toBe(1);
    expect(lotsToCentilots(0.1)).toBe(10);
    expect(lotsToCentilots(1.13)).toBe(113);
    expect(lotsToCentilots(100)).toBe(10_000);
    expect(lotsToCentilots(0.015)).toBeNull();
    expect(lotsToCentilots(0.1 + 0.2)).toBeNull();
    expect(centilotsToLots(113)).toBe(1.13);
  });

  it('round-trips every centilot count', () => {
    fc.assert(fc.property(anyTicks, (c) => lotsToCentilots(centilotsToLots(c)) === c), { numRuns: 10_000 });
  });
});
