// Decoding FIX values to strings. One String.fromCharCode call of fixed arity builds a value of
// up to twenty bytes (identifiers, symbols, accounts) several times faster than Buffer#toString,
// whose per-call cost dominates for values this short (measured: ~30-45 ns against ~80-115 ns);
// longer values (texts) go through toString.

// Every index passed is inside [s, e) of the buffer, so no argument is ever undefined.
const fromCodes = String.fromCharCode as (...codes: (number | undefined)[]) => string;

/** bytes[s, e) as a latin1 string (each byte one character). */
export function latin1(b: Buffer, s: number, e: number): string {
  switch (e - s) {
    case 0: return '';
    case 1: return fromCodes(b[s]);
    case 2: return fromCodes(b[s], b[s + 1]);
    case 3: return fromCodes(b[s], b[s + 1], b[s + 2]);
    case 4: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3]);
    case 5: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4]);
    case 6: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5]);
    case 7: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6]);
    case 8: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7]);
    case 9: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8]);
    case 10: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9]);
    case 11: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10]);
    case 12: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11]);
    case 13: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12]);
    case 14: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13]);
    case 15: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14]);
    case 16: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15]);
    case 17: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15], b[s + 16]);
    case 18: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15], b[s + 16], b[s + 17]);
    case 19: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15], b[s + 16], b[s + 17], b[s + 18]);
    case 20: return fromCodes(b[s], b[s + 1], b[s + 2], b[s + 3], b[s + 4], b[s + 5], b[s + 6], b[s + 7], b[s + 8], b[s + 9], b[s + 10], b[s + 11], b[s + 12], b[s + 13], b[s + 14], b[s + 15], b[s + 16], b[s + 17], b[s + 18], b[s + 19]);
    default: return b.toString('latin1', s, e);
  }
}
