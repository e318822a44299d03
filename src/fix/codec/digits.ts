// Decimal digits of non-negative integers, written right to left. Values that fit an int32 (tags,
// lengths, sequence numbers, most prices in ticks) use int32 division, which V8 turns into a
// multiply; larger safe integers fall back to float division.
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** Number of decimal digits of a non-negative safe integer (1 for 0). */
export function digitCount(v: number): number {
  let n = 1;
  while (n < 16 && v >= (POW10[n] as number)) n++;
  return n;
}

/** Writes `value` as exactly `width` digits (leading zeros) ending at buf[p + width - 1]. */
export function putDigits(buf: Uint8Array, p: number, value: number, width: number): void {
  let i = p + width - 1;
  if (value <= 0x7fffffff) {
    let x = value | 0;
    for (; i >= p; i--) {
      const q = (x / 10) | 0;
      buf[i] = 0x30 + x - q * 10;
      x = q;
    }
    return;
  }
  let v = value;
  for (; i >= p; i--) {
    const q = Math.floor(v / 10);
    buf[i] = 0x30 + v - q * 10;
    v = q;
  }
}

/**
 * Writes units × 10^-scale (units a non-negative safe integer) with exactly `scale` decimals
 * ({ 108500, 5 } → "1.08500", { 5, 3 } → "0.005"); returns the end.
 */
export function putDecimal(buf: Uint8Array, p: number, units: number, scale: number): number {
  if (scale === 0) {
    const n = digitCount(units);
    putDigits(buf, p, units, n);
    return p + n;
  }
  const divisor = POW10[scale] ?? 10 ** scale;
  const intPart = Math.floor(units / divisor);
  const intDigits = digitCount(intPart);
  putDigits(buf, p, intPart, intDigits);
  buf[p + intDigits] = 0x2e;
  putDigits(buf, p + intDigits + 1, units - intPart * divisor, scale);
  return p + intDigits + 1 + scale;
}
