/*
 * Shared-memory layout of an SPSC ring and of the doorbell its consumer sleeps on.
 *
 * RING (one SharedArrayBuffer, 192 + capacity bytes; capacity a power of two, 16 B .. 1 GiB):
 *
 *   byte 0          64            128           192                          192 + capacity
 *   ├─ META line ───┼─ HEAD line ──┼─ TAIL line ──┼─ DATA ───────────────────────────┤
 *   │ w0 magic      │ w16 head     │ w32 tail     │ slot │ slot │ ... │ WRAP pad     │
 *   │ w1 capacity   │ (padding)    │ (padding)    │                                  │
 *
 *   META  written once by createRing before the buffer is shared; read-only afterwards.
 *   HEAD  bytes ever published by the producer, mod 2^32. Only the producer stores it.
 *   TAIL  bytes ever released by the consumer, mod 2^32. Only the consumer stores it.
 *         head - tail (mod 2^32) is the bytes in use; head & (capacity - 1) the write offset.
 *   Each counter has its own 64 B cache line: the producer's stream of HEAD stores must not
 *   invalidate the line the consumer stores TAIL into, and vice versa (false sharing).
 *
 *   A slot starts 4-aligned:  ┌ length: i32 ┬ payload (length bytes) ┬ 0..3 B to align ┐
 *   length -1 is the WRAP marker: the bytes from it to the end of DATA are padding and the next
 *   slot starts at offset 0. The producer writes it whenever a slot would not fit before the end,
 *   so every payload is contiguous and is read in place from a view of DATA, never copied.
 *   A payload is at most capacity/2 - 4 bytes: a slot that does not fit before the end then fits
 *   after the wrap, so an empty ring accepts every legal frame (no frame can wait forever).
 *
 * Memory ordering (every JS Atomics operation is sequentially consistent):
 *   producer  plain stores of slot header + payload, then Atomics.store(HEAD) publishes them.
 *   consumer  Atomics.load(HEAD), then plain loads of the slots below it, which happen after the
 *             producer's stores; after onFrame returns, Atomics.store(TAIL) hands the slot back.
 *   producer  Atomics.load(TAIL) before reusing bytes: the consumer's loads of them came first.
 *   Each side caches the other's counter and reloads it only when the ring looks empty (consumer)
 *   or too full (producer), so the HEAD/TAIL lines move between cores only then.
 *
 * DOORBELL (one SharedArrayBuffer of one cache line per consuming thread, shared by all the
 * rings that thread reads):  w0 seq (bumped per wake-up) · w1 asleep flag · w2 parks · w3 id.
 *   consumer  load seq, store asleep=1, re-check every ring, then Atomics.waitAsync(seq, old).
 *   producer  after its HEAD store, load asleep; only when 1: CAS asleep 1→0, bump seq, notify.
 *   SC order makes the two store-then-load pairs a Dekker handshake: either the producer sees
 *   asleep=1 and rings, or the consumer's re-check sees the new HEAD. Waiting on seq (not on
 *   asleep) means a ring that lands between the re-check and waitAsync still wakes it.
 */
import { randomInt } from 'node:crypto';

export const META_MAGIC = 0;
export const META_CAPACITY = 1;
export const HEAD = 16;
export const TAIL = 32;
export const DATA_OFFSET = 192;
export const SLOT_HEADER_BYTES = 4;
export const WRAP = -1;

export const BELL_SEQ = 0;
export const BELL_ASLEEP = 1;
export const BELL_PARKS = 2;
export const BELL_ID = 3;
const BELL_BYTES = 64;

const RING_MAGIC = 0x52494e47; // 'RING'
const MIN_CAPACITY = 16;
const MAX_CAPACITY = 2 ** 30;

/** The memory a producer and a consumer share: the ring itself and the consumer's doorbell. */
export interface RingChannel {
  readonly ring: SharedArrayBuffer;
  readonly doorbell: SharedArrayBuffer;
}

/** Views of a validated ring, as both ends use them. */
export interface RingViews {
  readonly capacity: number;
  readonly control: Int32Array;
  readonly data: Uint8Array;
  readonly data32: Int32Array;
  readonly bell: Int32Array;
}

/** One doorbell per consuming thread; every ring that thread reads is created with it. */
export function createDoorbell(): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(BELL_BYTES);
  // The id lets an Inbox check that all its rings ring the same bell: SharedArrayBuffer
  // identity does not survive a postMessage, its contents do.
  new Int32Array(sab)[BELL_ID] = randomInt(1, 2 ** 31 - 1);
  return sab;
}

export function createRing(capacityBytes: number, doorbell: SharedArrayBuffer): RingChannel {
  if (!Number.isInteger(capacityBytes) || capacityBytes < MIN_CAPACITY || capacityBytes > MAX_CAPACITY
    || (capacityBytes & (capacityBytes - 1)) !== 0) {
    throw new RangeError(`ring capacity must be a power of two from ${MIN_CAPACITY} to ${MAX_CAPACITY} bytes, got ${capacityBytes}`);
  }
  doorbellView(doorbell);
  const ring = new SharedArrayBuffer(DATA_OFFSET + capacityBytes);
  const control = new Int32Array(ring, 0, DATA_OFFSET / 4);
  control[META_CAPACITY] = capacityBytes;
  control[META_MAGIC] = RING_MAGIC;
  return { ring, doorbell };
}

export function doorbellView(doorbell: SharedArrayBuffer): Int32Array {
  if (!(doorbell instanceof SharedArrayBuffer) || doorbell.byteLength !== BELL_BYTES) {
    throw new TypeError('not a ring doorbell: expected the SharedArrayBuffer from createDoorbell()');
  }
  const bell = new Int32Array(doorbell);
  if (bell[BELL_ID] === 0) throw new TypeError('not a ring doorbell: it has no id (use createDoorbell())');
  return bell;
}

export function openRing(channel: RingChannel): RingViews {
  const { ring } = channel;
  if (!(ring instanceof SharedArrayBuffer) || ring.byteLength < DATA_OFFSET + MIN_CAPACITY) {
    throw new TypeError('not a ring: expected the SharedArrayBuffer from createRing()');
  }
  const control = new Int32Array(ring, 0, DATA_OFFSET / 4);
  const capacity = control[META_CAPACITY] ?? 0;
  if (control[META_MAGIC] !== RING_MAGIC || ring.byteLength !== DATA_OFFSET + capacity) {
    throw new TypeError('not a ring: bad magic or size (use createRing())');
  }
  return {
    capacity,
    control,
    data: new Uint8Array(ring, DATA_OFFSET, capacity),
    data32: new Int32Array(ring, DATA_OFFSET, capacity / 4),
    bell: doorbellView(channel.doorbell),
  };
}

/** Largest payload a ring of this capacity accepts (see the layout above for why half). */
export function maxPayloadBytes(capacity: number): number {
  return capacity / 2 - SLOT_HEADER_BYTES;
}

/** Bytes a payload occupies in DATA: header plus payload rounded up to 4. */
export function slotBytes(payloadBytes: number): number {
  return SLOT_HEADER_BYTES + ((payloadBytes + 3) & ~3);
}
