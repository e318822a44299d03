// FIX CheckSum: the sum of all bytes mod 256, four bytes per step. Bytes are summed in two 16-bit
// lanes per 32-bit word (mask 0x00ff00ff), folded every 128 words before a lane could carry into
// the next or the lane sum leave the int32 range V8 keeps it in; byte order does not matter.
const FOLD_WORDS = 128;

/** Sum of bytes[start, end), with `words` a Uint32Array over the same memory at offset 0. */
export function byteSum(bytes: Uint8Array, words: Uint32Array, start: number, end: number): number {
  let sum = 0;
  let i = start;
  const alignedStart = (start + 3) & ~3;
  for (; i < end && i < alignedStart; i++) sum += bytes[i] as number;
  const wordEnd = end >>> 2;
  let w = i >>> 2;
  while (w < wordEnd) {
    const stop = Math.min(wordEnd, w + FOLD_WORDS);
    let lo = 0;
    let hi = 0;
    for (; w < stop; w++) {
      const x = words[w] as number;
      lo += x & 0x00ff00ff;
      hi += (x >>> 8) & 0x00ff00ff;
    }
    sum += (lo & 0xffff) + (lo >>> 16) + (hi & 0xffff) + (hi >>> 16);
  }
  for (i = Math.max(i, wordEnd << 2); i < end; i++) sum += bytes[i] as number;
  return sum;
}

/** A buffer whose memory starts at offset 0 of its own ArrayBuffer, with its word view. */
export function wordBuffer(bytes: number): { readonly buf: Buffer; readonly words: Uint32Array } {
  const buf = Buffer.allocUnsafeSlow((bytes + 3) & ~3);
  return { buf, words: new Uint32Array(buf.buffer, buf.byteOffset, buf.length >>> 2) };
}
