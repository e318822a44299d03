// The consumer end of an SPSC ring (layout and memory ordering in layout.ts). Exactly one thread
// may read a ring. Frames are handed out in place: a view is valid only until its callback
// returns, because the slot is released to the producer right after.
import { HEAD, SLOT_HEADER_BYTES, TAIL, WRAP, openRing, slotBytes, type RingChannel } from './layout.js';

/** Receives one frame as DATA[start, end); the bytes are overwritten once it returns. */
export type InPlaceFrameHandler = (data: Uint8Array, start: number, end: number) => void;

export class RingReader {
  /** The ring's DATA region, the `data` every InPlaceFrameHandler receives. */
  readonly data: Uint8Array;
  readonly #mask: number;
  readonly #control: Int32Array;
  readonly #data32: Int32Array;
  #tail: number;
  #headSeen: number;

  constructor(channel: RingChannel) {
    const views = openRing(channel);
    this.data = views.data;
    this.#mask = views.capacity - 1;
    this.#control = views.control;
    this.#data32 = views.data32;
    this.#tail = Atomics.load(this.#control, TAIL);
    this.#headSeen = Atomics.load(this.#control, HEAD);
  }

  /** Whether a frame is waiting (one Atomics.load of the producer's counter). */
  get readable(): boolean {
    return this.#tail !== this.#headSeen || this.#tail !== Atomics.load(this.#control, HEAD);
  }

  /**
   * Hands up to maxFrames frames, oldest first, to onFrame as in-place ranges of `data`, and
   * returns how many it handed out. Each slot is released when its onFrame returns or throws
   * (a frame that throws is consumed, so it cannot wedge the ring); the error propagates.
   */
  drainInPlace(maxFrames: number, onFrame: InPlaceFrameHandler): number {
    const data32 = this.#data32;
    const mask = this.#mask;
    let frames = 0;
    while (frames < maxFrames) {
      if (this.#tail === this.#headSeen) {
        this.#headSeen = Atomics.load(this.#control, HEAD);
        if (this.#tail === this.#headSeen) break;
      }
      const offset = this.#tail & mask;
      const length = data32[offset >> 2] as number;
      if (length === WRAP) {
        this.#release(mask + 1 - offset);
        continue;
      }
      frames++;
      try {
        onFrame(this.data, offset + SLOT_HEADER_BYTES, offset + SLOT_HEADER_BYTES + length);
      } finally {
        this.#release(slotBytes(length));
      }
    }
    return frames;
  }

  /** drainInPlace with each frame as its own view (valid only during the callback). */
  drain(maxFrames: number, onFrame: (view: Uint8Array) => void): number {
    return this.drainInPlace(maxFrames, (data, start, end) => onFrame(data.subarray(start, end)));
  }

  #release(bytes: number): void {
    this.#tail = (this.#tail + bytes) | 0;
    // Hands the slot back: every load from it above happened before this store.
    Atomics.store(this.#control, TAIL, this.#tail);
  }
}
