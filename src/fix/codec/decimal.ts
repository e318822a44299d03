// Exact decimals for FIX PRICE/QTY/AMT values: never parsed through a float, so a price with more
// decimals than its symbol allows is detected instead of rounded.
import * as ascii from './ascii.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { DOT, MINUS, ZERO } = ascii;

/** units × 10^-scale: 1.085 = { units: 1085, scale: 3 }; price ticks are { units: ticks, scale: digits }. */
export interface FixDecimal {
  readonly units: number;
  readonly scale: number;
}

/** Fifteen significant digits always fit a double exactly (2^53 ≈ 9.007e15). */
const MAX_SIGNIFICANT_DIGITS = 15;

/**
 * Parses "[-]digits[.digits]" (".5" and "5." too, as QuickFIX does) without a float. Trailing
 * fraction zeros are dropped ("1.50" is { 15, 1 }). Null for anything else or more than fifteen
 * significant digits.
 */
export function parseDecimal(bytes: Uint8Array, start: number, end: number): FixDecimal | null {
  let p = start;
  const negative = bytes[p] === MINUS;
  if (negative) p++;
  let units = 0;
  let scale = 0;
  let significant = 0;
  let digits = 0;
  let pendingZeros = 0;
  let inFraction = false;
  for (; p < end; p++) {
    const b = bytes[p] as number;
    if (b === DOT) {
      if (inFraction) return null;
      inFraction = true;
      continue;
    }
    const d = b - ZERO;
    if (d < 0 || d > 9) return null;
    digits++;
    if (inFraction && d === 0) {
      pendingZeros++;
      continue;
    }
    if (inFraction) {
      // Fraction zeros count only once a non-zero digit follows them.
      for (; pendingZeros > 0; pendingZeros--) {
        units *= 10;
        scale++;
        if (units !== 0) significant++;
      }
      scale++;
    }
    units = units * 10 + d;
    if (units !== 0) significant++;
    if (significant > MAX_SIGNIFICANT_DIGITS) return null;
  }
  if (digits === 0) return null;
  return { units: negative && units !== 0 ? -units : units, scale };
}

/**
 * The value as an integer count of 10^-digits (price ticks for a symbol with `digits` decimals),
 * exactly. Null when that is not an integer (too many decimals) or not a safe integer.
 */
export function decimalToScale(value: FixDecimal, digits: number): number | null {
  if (value.scale <= digits) {
    const scaled = value.units * 10 ** (digits - value.scale);
    return Number.isSafeInteger(scaled) ? scaled : null;
  }
  const divisor = 10 ** (value.scale - digits);
  return value.units % divisor === 0 ? value.units / divisor : null;
}
