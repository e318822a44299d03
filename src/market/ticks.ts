// Exact conversions between the decimal numbers of the wire formats and the integer units of the
// core (prices in ticks = price × 10^digits, volumes in centilots = lots × 100).
//
// Why the check `ticks / 10^d === value` is exact: 10^d is an exact double for d <= 22 and IEEE
// division is correctly rounded, so `ticks / 10^d` is THE double nearest to the decimal
// ticks × 10^-d. Equality therefore means `value` is that decimal as JSON.parse would have produced
// it from text with at most d decimals; anything else (1.08505 at 4 digits, 0.1 + 0.2) is refused.
// For |ticks| <= 2^51 the product value × 10^d is off by less than 0.5 before rounding, so
// Math.round recovers the one candidate, and distinct ticks map to distinct doubles (the gap
// between neighbours, 10^-d, is more than twice the double spacing there). Past 2^51 neighbouring
// decimals with 8 digits start to share a double, so exactness is only promised up to MAX_EXACT_TICKS.
import type { Centilots, Ticks } from '../engine/types.js';

/** Largest |ticks| (or centilots) these conversions promise to round-trip exactly. */
export const MAX_EXACT_TICKS = 2 ** 51;
/** Digits supported by the conversions (10^15 keeps the scale well inside the exact doubles). */
export const MAX_DIGITS = 15;

const POW10: readonly number[] = Array.from({ length: MAX_DIGITS + 1 }, (_, d) => 10 ** d);
const CENTILOT_DIGITS = 2;
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function scaleOf(digits: number): number {
  const scale = POW10[digits];
  if (scale === undefined) throw new RangeError(`digits must be an integer 0..${MAX_DIGITS}, got ${digits}`);
  return scale;
}

/** value × 10^digits as an exact integer, or null (the argument above); the unit is the caller's. */
function toScaled(value: number, digits: number): number | null {
  const scale = scaleOf(digits);
  const scaled = Math.round(value * scale);
  if (scaled / scale !== value || scaled > MAX_EXACT_TICKS || scaled < -MAX_EXACT_TICKS) return null;
  // Math.round(-0.2) is -0; the core compares with ===, where -0 is fine, but JSON and Object.is are not.
  return scaled === 0 ? 0 : scaled;
}

/** The exact tick count of `value`, or null when it carries more than `digits` decimals or is not finite. */
export function toTicks(value: number, digits: number): Ticks | null {
  return toScaled(value, digits);
}

/** The decimal number of `ticks` (the double nearest to ticks × 10^-digits). */
export function fromTicks(ticks: Ticks, digits: number): number {
  return ticks / scaleOf(digits);
}

/**
 * Parses decimal text ("1.08510", "-3", "42.5") to text × 10^digits without going through a double,
 * so text with more decimals than `digits` is refused even where the double would hide it. Trailing
 * zeros past `digits` are accepted. No exponents, no spaces, no leading '+'. The unit is the caller's.
 */
function parseScaled(text: string, digits: number): number | null {
  const scale = scaleOf(digits);
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const whole = m[2] ?? '';
  const fraction = (m[3] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  const magnitude = Number(whole) * scale + (fraction === '' ? 0 : Number(fraction.padEnd(digits, '0')));
  if (magnitude > MAX_EXACT_TICKS) return null;
  return m[1] === '-' && magnitude !== 0 ? -magnitude : magnitude;
}

/** Decimal price text to ticks, exact or null (parseScaled). */
export function parseTicks(text: string, digits: number): Ticks | null {
  return parseScaled(text, digits);
}

/** Decimal lots text ("0.5", "2") to centilots, exact or null (parseScaled with two digits). */
export function parseLots(text: string): Centilots | null {
  return parseScaled(text, CENTILOT_DIGITS);
}

/** Lots (0.01 steps) to centilots, exact or null. */
export function lotsToCentilots(lots: number): Centilots | null {
  return toScaled(lots, CENTILOT_DIGITS);
}

/** The decimal lots of `volume` (the double nearest to volume / 100, exact as fromTicks is). */
export function centilotsToLots(volume: Centilots): number {
  return volume / scaleOf(CENTILOT_DIGITS);
}
