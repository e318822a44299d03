import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalRatio, divFloor, divRound, mulExact } from '../../src/engine/exact.js';

function refRound(n: bigint, d: bigint): bigint {
  const neg = (n < 0n) !== (d < 0n);
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (2n * an + ad) / (2n * ad);
  return neg ? -q : q;
}

function refFloor(n: bigint, d: bigint): bigint {
  const q = n / d;
  return (n % d !== 0n) && ((n < 0n) !== (d < 0n)) ? q - 1n : q;
}

const bigish = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.maxSafeInteger(), fc.integer());
const nonZero = bigish.filter((d) => d !== 0);

describe('exact integer arithmetic', () => {
  it('rounds half away from zero', () => {
    expect(divRound(5, 2)).toBe(3);
    expect(divRound(-5, 2)).toBe(-3);
    expect(divRound(5, -2)).toBe(-3);
    expect(divRound(7, 3)).toBe(2);
    expect(divRound(-7, 3)).toBe(-2);
    expect(divRound(1, 3)).toBe(0);
    expect(Object.is(divRound(-1, 3), 0)).toBe(true);
  });

  it('floors toward minus infinity', () => {
    expect(divFloor(7, 2)).toBe(3);
    expect(divFloor(-7, 2)).toBe(-4);
    expect(divFloor(6, 3)).toBe(2);
    expect(Object.is(divFloor(-0, 5), 0)).toBe(true);
  });

  it('switches to BigInt when a product leaves the safe range, and stays exact', () => {
    const p = mulExact(Number.MAX_SAFE_INTEGER, 3);
    expect(typeof p).toBe('bigint');
    expect(p).toBe(BigInt(Number.MAX_SAFE_INTEGER) * 3n);
    expect(mulExact(2 ** 26, 2 ** 26)).toBe(2 ** 52);
    expect(typeof mulExact(2 ** 27, 2 ** 26)).toBe('bigint');
  });

  it('products of up to four factors divided and rounded equal the BigInt reference', () => {
    fc.assert(fc.property(fc.array(bigish, { minLength: 1, maxLength: 4 }), nonZero, nonZero, (factors, d1, d2) => {
      let n: number | bigint = 1;
      let ref = 1n;
      for (const f of factors) {
        n = mulExact(n, f);
        ref *= BigInt(f);
      }
      const d = mulExact(d1, d2);
      const refD = BigInt(d1) * BigInt(d2);
      expect(BigInt(divRound(n, d))).toBe(BigInt(Number(refRound(ref, refD))));
      expect(BigInt(divFloor(n, d))).toBe(BigInt(Number(refFloor(ref, refD))));
    }));
  });

  it('reads configured decimals exactly', () => {
    expect(decimalRatio(0.57)).toEqual({ num: 57, den: 100 });
    expect(decimalRatio(2)).toEqual({ num: 2, den: 1 });
    expect(decimalRatio(1.5e-7)).toEqual({ num: 15, den: 100_000_000 });
    expect(decimalRatio(0)).toBeNull();
    expect(decimalRatio(-1)).toBeNull();
    expect(decimalRatio(Number.NaN)).toBeNull();
    expect(decimalRatio(Infinity)).toBeNull();
    expect(decimalRatio(1e-13)).toBeNull();
  });
});
