// msgpackr frames over a ring: one FrameWriter (producer thread) and one FrameReader (consumer
// thread) per ring. The ring is an internal, trusted channel: frames are decoded as T unchecked.
//
// Codec choice: msgpackr records in `sequential` mode. A ring is one ordered, lossless stream with
// one encoder and one decoder, so each object shape (key list) travels in-band once, in the first
// frame that uses it, and later frames refer to it by a one-byte id: no structure table to share
// or negotiate between threads. Measured (bench/ring.bench.ts, "codec" rows, median per op): a
// protocol tick frame is 33 B instead of 63 B as plain msgpack maps, encodes about as fast
// (0.24 µs) and decodes 2.4x faster (0.15 vs 0.36 µs); per-frame inline records (the
// non-sequential default) are 65 B and decode in 0.7-0.85 µs. A static `structures` table compiled
// into both threads needs no negotiation either, but would have to list every engine type's
// shape, and each shape it misses costs an inline definition in every frame.
//
// The one hazard of sequential mode: a frame the encoder packed but that never reached the ring
// (ring full, frame too large, or pack threw midway) may define shapes the decoder will never see,
// and later frames would refer to them. The writer then starts a fresh encoder, whose frames
// define every shape before referring to it, which the decoder accepts over its old definitions.
import { Packr, Unpackr, RESET_BUFFER_MODE, REUSE_BUFFER_MODE } from 'msgpackr';
import type { RingChannel } from './layout.js';
import { copyBytes } from './copy-bytes.js';
import { RingReader } from './ring-reader.js';
import { RingWriter } from './ring-writer.js';

// REUSE returns msgpackr's own (per-thread, reused) buffer with the value at [start, end) instead
// of allocating a subarray (halves the pack cost of a tick); RESET rewinds that buffer so the
// next pack reuses the same bytes. The frame is copied into the ring before the next pack.
// Encoding straight into the ring via useBuffer() is not used: msgpackr's target buffer is
// module-global, so it would redirect every other Packr on the thread into the ring.
const PACK_INTO_REUSED_BUFFER = REUSE_BUFFER_MODE | RESET_BUFFER_MODE;

type ReusedBuffer = Buffer & { readonly start: number; readonly end: number };

const RECORD_EXTENSION = 0x72;
const FIXEXT1 = 0xd4;
const FIXEXT2 = 0xd5;

function streamPackr(): Packr {
  return new Packr({ sequential: true });
}

/**
 * Whether bytes[start, end) may contain a record definition (fixext1/fixext2 of type 'r').
 * A false positive only costs an unneeded encoder reset; a definition is never missed.
 */
function mayDefineRecord(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end - 1; i++) {
    const b = bytes[i];
    if ((b === FIXEXT1 || b === FIXEXT2) && bytes[i + 1] === RECORD_EXTENSION) return true;
  }
  return false;
}

export class FrameWriter<T> {
  readonly #ring: RingWriter;
  #packr = streamPackr();
  /**
   * The last frame refused for want of room, encoded: its retry copies these bytes instead of
   * encoding again (a kill switch's 1.5 MB batch frame re-packed on each 1 ms retry cost its shard
   * 10-20 ms). A copy, since the packed buffer is msgpackr's and the next pack reuses it.
   */
  #refused: { readonly value: T; readonly bytes: Uint8Array } | null = null;

  constructor(channel: RingChannel) {
    this.#ring = new RingWriter(channel);
  }

  /** Largest encoded frame the ring accepts. */
  get maxPayloadBytes(): number {
    return this.#ring.maxPayloadBytes;
  }

  /**
   * Encodes value and appends it as one frame. False when the ring is full: nothing was written
   * and the caller retries later (the same value object is not encoded twice). Throws (writing nothing) when value cannot be encoded or its
   * encoding is larger than maxPayloadBytes.
   */
  tryWrite(value: T): boolean {
    const refused = this.#refused;
    if (refused !== null) {
      if (refused.value === value) {
        if (!this.#ring.tryWrite(refused.bytes)) return false;
        this.#refused = null;
        return true;
      }
      // Another frame goes first: the shapes the refused one defined never reach the reader.
      this.#refused = null;
      if (mayDefineRecord(refused.bytes, 0, refused.bytes.length)) this.#packr = streamPackr();
    }
    let packed: ReusedBuffer;
    try {
      packed = this.#packr.pack(value, PACK_INTO_REUSED_BUFFER) as ReusedBuffer;
    } catch (err) {
      this.#packr = streamPackr();
      throw err;
    }
    let written: boolean;
    try {
      written = this.#ring.tryWrite(packed, packed.start, packed.end);
    } catch (err) {
      if (mayDefineRecord(packed, packed.start, packed.end)) this.#packr = streamPackr();
      throw err;
    }
    // A copy: Buffer's slice() is a view, and every Packr of this thread packs into that buffer.
    if (!written) this.#refused = { value, bytes: Uint8Array.prototype.slice.call(packed, packed.start, packed.end) };
    return written;
  }
}

// Frames are copied out of the ring into this (private, reused) buffer and decoded there, not
// decoded in place. msgpackr hands strings to its native extractor (msgpackr-extract), which
// rejects SharedArrayBuffer ("source must be an ArrayBuffer"); msgpackr catches that, about 10 µs
// per frame, and skips the extractor only for sources under 140 B. So in place, only a view per
// frame under 140 B avoids the throw (and allocates a view and a DataView); a shard's batch
// frames are larger. Measured on a 33 B tick ("codec" rows of bench/ring.bench.ts): copy + decode
// 0.23-0.38 µs, view per frame 0.35 µs, in place from the ring's region 9.4-9.8 µs.
const FIRST_DECODE_BUFFER_BYTES = 4096;

export class FrameReader<T> {
  readonly #ring: RingReader;
  readonly #unpackr = new Unpackr({ sequential: true, copyBuffers: true });
  #copy = Buffer.allocUnsafeSlow(FIRST_DECODE_BUFFER_BYTES);

  constructor(channel: RingChannel) {
    this.#ring = new RingReader(channel);
  }

  get readable(): boolean {
    return this.#ring.readable;
  }

  /**
   * Decodes up to maxFrames frames, oldest first, hands each value to onFrame and returns how
   * many it handed out. A frame whose callback throws is consumed; the error propagates.
   */
  drain(maxFrames: number, onFrame: (value: T) => void): number {
    return this.#ring.drainInPlace(maxFrames, (data, start, end) => {
      const length = end - start;
      if (length > this.#copy.length) this.#copy = Buffer.allocUnsafeSlow(Math.max(length, this.#copy.length * 2));
      copyBytes(data, start, this.#copy, 0, length);
      onFrame(this.#unpackr.unpack(this.#copy, length) as T);
    });
  }
}
