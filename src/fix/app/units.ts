// Exact conversions between FIX decimals and the engine's integers (DECISIONS "FIX 4.4": OrderQty,
// LastQty and CumQty are units = lots × contract size). A quantity that is not a whole number of
// centilots, or a price with more decimals than the symbol has, is refused, never rounded.
import { type FixDecimal, decimalToScale, parseDecimal } from '../codec/decimal.js';
import type { Centilots, Cents, SymbolSpec, Ticks } from '../../engine/types.js';

/** Centilots per lot. */
const CENTILOTS_PER_LOT = 100n;

/** A symbol's contract size as an exact decimal (e.g. 100000 → {100000, 0}, 0.5 → {5, 1}). */
export function contractDecimal(spec: SymbolSpec): FixDecimal {
  const text = Buffer.from(String(spec.contractSize), 'latin1');
  const d = parseDecimal(text, 0, text.length);
  if (d === null || d.units <= 0) throw new RangeError(`symbol ${spec.name}: contract size ${spec.contractSize} has no exact decimal form`);
  return d;
}

/** Drops trailing fraction zeros: { 1000000, 2 } → { 10000, 0 }. */
function normalized(units: bigint, scale: number): FixDecimal {
  let u = units;
  let s = scale;
  while (s > 0 && u % 10n === 0n) {
    u /= 10n;
    s--;
  }
  return { units: Number(u), scale: s };
}

/** volume × contract size as units of the base currency (or of the instrument). */
export function unitsOf(volume: Centilots, contract: FixDecimal): FixDecimal {
  return normalized(BigInt(volume) * BigInt(contract.units), contract.scale + 2);
}

/** Units (OrderQty) as centilots: exact and at least 1, else null. */
export function centilotsOf(qty: FixDecimal, contract: FixDecimal): Centilots | null {
  if (qty.units <= 0) return null;
  // centilots = qty × 100 / contract = (q.u × 10^c.s × 100) / (c.u × 10^q.s)
  const numerator = BigInt(qty.units) * 10n ** BigInt(contract.scale) * CENTILOTS_PER_LOT;
  const denominator = BigInt(contract.units) * 10n ** BigInt(qty.scale);
  if (numerator % denominator !== 0n) return null;
  const centilots = numerator / denominator;
  return centilots <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(centilots) : null;
}

/** A FIX price as ticks of the symbol: positive and with at most `digits` decimals, else null. */
export function ticksOf(price: FixDecimal, spec: SymbolSpec): Ticks | null {
  if (price.units <= 0) return null;
  return decimalToScale(price, spec.digits);
}

export function priceOf(ticks: Ticks, spec: SymbolSpec): FixDecimal {
  return { units: ticks, scale: spec.digits };
}

export function moneyOf(cents: Cents): FixDecimal {
  return { units: cents, scale: 2 };
}

export const ZERO: FixDecimal = { units: 0, scale: 0 };

/** "1.085" for texts (58). */
export function decimalText(d: FixDecimal): string {
  if (d.scale === 0) return String(d.units);
  const negative = d.units < 0;
  const digits = String(Math.abs(d.units)).padStart(d.scale + 1, '0');
  return `${negative ? '-' : ''}${digits.slice(0, digits.length - d.scale)}.${digits.slice(digits.length - d.scale)}`;
}
