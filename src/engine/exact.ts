// Exact integer arithmetic for money. Products of prices, volumes and contract sizes pass 2^53 (a
// cross-currency profit is ~1e16 before its division), so a product stays a Number while it is a
// safe integer and becomes a BigInt the moment it would not be; division rounds once, at the end.

export type ExactInt = number | bigint;

/** a × b, exact. Inputs must be integers (the validators guarantee it). */
export function mulExact(a: ExactInt, b: ExactInt): ExactInt {
  if (typeof a === 'number' && typeof b === 'number') {
    const p = a * b;
    // If the true product fits the safe range the double product is exact; if it does not, the
    // rounded double is at least 2^53 in magnitude and fails this test, so nothing inexact slips through.
    if (p <= Number.MAX_SAFE_INTEGER && p >= -Number.MAX_SAFE_INTEGER) return p === 0 ? 0 : p;
  }
  return BigInt(a) * BigInt(b);
}

function sameSign(n: ExactInt, d: ExactInt): boolean {
  return (n < 0) === (d < 0);
}

/** n / d rounded half away from zero. `d` must not be 0. */
export function divRound(n: ExactInt, d: ExactInt): number {
  if (typeof n === 'number' && typeof d === 'number') {
    // % is exact on doubles, and n − r is an exact multiple of d, so q is exact too.
    const r = n % d;
    let q = (n - r) / d;
    if (2 * Math.abs(r) >= Math.abs(d)) q += sameSign(n, d) ? 1 : -1;
    return q === 0 ? 0 : q;
  }
  const bn = BigInt(n);
  const bd = BigInt(d);
  let q = bn / bd;
  const r = bn % bd;
  if (2n * (r < 0n ? -r : r) >= (bd < 0n ? -bd : bd)) q += sameSign(bn, bd) ? 1n : -1n;
  return Number(q);
}

/** ⌊n / d⌋. `d` must not be 0. */
export function divFloor(n: ExactInt, d: ExactInt): number {
  if (typeof n === 'number' && typeof d === 'number') {
    const r = n % d;
    let q = (n - r) / d;
    if (r !== 0 && !sameSign(r, d)) q -= 1;
    return q === 0 ? 0 : q;
  }
  const bn = BigInt(n);
  const bd = BigInt(d);
  let q = bn / bd;
  const r = bn % bd;
  if (r !== 0n && !sameSign(r, bd)) q -= 1n;
  return Number(q);
}

/** A positive fraction of integers. */
export interface Ratio { readonly num: ExactInt; readonly den: ExactInt }

export const RATIO_ONE: Ratio = { num: 1, den: 1 };

const MAX_DECIMALS = 12;

/**
 * The exact decimal value a configured factor was written as (0.57 → 57/100), so sizing rules
 * floor exactly: 100 × 0.57 is 56.99999999999999 in floating point but 57 centilots here.
 * Null for non-finite, non-positive or over-precise numbers.
 */
export function decimalRatio(x: number): Ratio | null {
  if (!Number.isFinite(x) || x <= 0) return null;
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) return null;
  const fraction = m[2] ?? '';
  const exponent = Number(m[3] ?? '0') - fraction.length;
  if (exponent < -MAX_DECIMALS || exponent > 15) return null;
  const digits = Number((m[1] ?? '') + fraction);
  const num = exponent >= 0 ? digits * 10 ** exponent : digits;
  const den = exponent >= 0 ? 1 : 10 ** -exponent;
  if (!Number.isSafeInteger(num) || !Number.isSafeInteger(den)) return null;
  return { num, den };
}
