// Small frames dominate the rings (a tick is 33 B encoded): below this a byte loop beats building
// a view for TypedArray.set, which costs an allocation (measured on the 2-core box).
const LOOP_COPY_MAX_BYTES = 32;

export function copyBytes(from: Uint8Array, fromStart: number, to: Uint8Array, toStart: number, length: number): void {
  if (length <= LOOP_COPY_MAX_BYTES) {
    for (let i = 0; i < length; i++) to[toStart + i] = from[fromStart + i] as number;
  } else {
    to.set(new Uint8Array(from.buffer, from.byteOffset + fromStart, length), toStart);
  }
}
