// The producer end of an SPSC ring (layout and memory ordering in layout.ts). Exactly one thread
// may write a ring; a full ring is reported, never dropped: tryWrite returns false and writes
// nothing, and the caller keeps the frame until a retry is accepted.
import { HEAD, SLOT_HEADER_BYTES, TAIL, WRAP, maxPayloadBytes, openRing, slotBytes, type RingChannel } from './layout.js';
import { copyBytes } from './copy-bytes.js';
import { wakeConsumer } from './inbox.js';

export class RingWriter {
  readonly maxPayloadBytes: number;
  readonly #capacity: number;
  readonly #mask: number;
  readonly #control: Int32Array;
  readonly #data: Uint8Array;
  readonly #data32: Int32Array;
  readonly #bell: Int32Array;
  #head: number;
  #tailSeen: number;

  constructor(channel: RingChannel) {
    const views = openRing(channel);
    this.#capacity = views.capacity;
    this.#mask = views.capacity - 1;
    this.#control = views.control;
    this.#data = views.data;
    this.#data32 = views.data32;
    this.#bell = views.bell;
    this.maxPayloadBytes = maxPayloadBytes(views.capacity);
    this.#head = Atomics.load(this.#control, HEAD);
    this.#tailSeen = Atomics.load(this.#control, TAIL);
  }

  /**
   * Appends bytes[start, end) as one frame. False when the ring has no room for it: nothing was
   * written and the same frame may be retried. Throws RangeError for a frame that can never fit.
   */
  tryWrite(bytes: Uint8Array, start = 0, end = bytes.length): boolean {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > bytes.length) {
      throw new RangeError(`frame range [${start}, ${end}) is outside the ${bytes.length}-byte source`);
    }
    const length = end - start;
    if (length > this.maxPayloadBytes) {
      throw new RangeError(`frame of ${length} B exceeds this ring's largest frame of ${this.maxPayloadBytes} B ` +
        `(half of its ${this.#capacity} B capacity, less the 4 B header)`);
    }
    const offset = this.#head & this.#mask;
    const slot = slotBytes(length);
    const untilEnd = this.#capacity - offset;
    const padding = slot > untilEnd ? untilEnd : 0;
    if (!this.#hasRoom(padding + slot)) return false;

    let at = offset;
    if (padding !== 0) {
      this.#data32[offset >> 2] = WRAP;
      at = 0;
    }
    this.#data32[at >> 2] = length;
    copyBytes(bytes, start, this.#data, at + SLOT_HEADER_BYTES, length);
    // Publishes the header and payload stores above (see layout.ts, memory ordering).
    this.#head = (this.#head + padding + slot) | 0;
    Atomics.store(this.#control, HEAD, this.#head);
    wakeConsumer(this.#bell);
    return true;
  }

  #hasRoom(bytes: number): boolean {
    if (this.#capacity - ((this.#head - this.#tailSeen) >>> 0) >= bytes) return true;
    this.#tailSeen = Atomics.load(this.#control, TAIL);
    return this.#capacity - ((this.#head - this.#tailSeen) >>> 0) >= bytes;
  }
}
