// Single-threaded ring arithmetic: one writer and one reader on the same SharedArrayBuffer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEAD, TAIL, createDoorbell, createRing, type RingChannel } from '../../src/ring/layout.js';
import { RingReader } from '../../src/ring/ring-reader.js';
import { RingWriter } from '../../src/ring/ring-writer.js';

function ring(capacity: number): { channel: RingChannel; writer: RingWriter; reader: RingReader } {
  const channel = createRing(capacity, createDoorbell());
  return { channel, writer: new RingWriter(channel), reader: new RingReader(channel) };
}

function payload(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (seed * 31 + i * 7 + 1) & 0xff;
  return bytes;
}

function drainAll(reader: RingReader, max = Infinity): Uint8Array[] {
  const frames: Uint8Array[] = [];
  reader.drain(max, (view) => frames.push(view.slice()));
  return frames;
}

/**
 * What the ring must do, by its own rules: slot = 4 + length rounded up to 4; a slot that does
 * not fit before the end costs the rest of DATA as padding; a write is accepted iff padding + slot
 * fits in the free bytes.
 */
class ModelRing {
  head = 0;
  tail = 0;
  readonly queue: { bytes: Uint8Array; cost: number; padding: number }[] = [];
  constructor(readonly capacity: number) {}

  write(bytes: Uint8Array): boolean {
    const slot = 4 + Math.ceil(bytes.length / 4) * 4;
    const offset = this.head % this.capacity;
    const padding = slot > this.capacity - offset ? this.capacity - offset : 0;
    if (this.capacity - (this.head - this.tail) < padding + slot) return false;
    this.head += padding + slot;
    this.queue.push({ bytes, cost: slot, padding });
    return true;
  }

  drain(max: number): Uint8Array[] {
    const out = this.queue.splice(0, max);
    for (const frame of out) this.tail += frame.padding + frame.cost;
    return out.map((frame) => frame.bytes);
  }
}

/** An empty ring whose counters both stand at `bytes` (as after that much traffic). */
const sharedBell = createDoorbell();
function emptyRingAt(capacity: number, bytes: number): { writer: RingWriter; reader: RingReader } {
  const channel = createRing(capacity, sharedBell);
  const control = new Int32Array(channel.ring, 0, 48);
  control[HEAD] = bytes | 0;
  control[TAIL] = bytes | 0;
  return { writer: new RingWriter(channel), reader: new RingReader(channel) };
}

describe('createRing', () => {
  it('takes only power-of-two capacities from 16 B to 1 GiB', () => {
    const bell = createDoorbell();
    for (const bad of [0, 8, 15, 24, 1000, 2 ** 31, 1.5, Number.NaN]) {
      expect(() => createRing(bad, bell)).toThrow(RangeError);
    }
    expect(createRing(16, bell).ring.byteLength).toBe(192 + 16);
  });

  it('refuses buffers that are not a ring or a doorbell', () => {
    const { channel } = ring(64);
    expect(() => new RingWriter({ ring: new SharedArrayBuffer(256), doorbell: channel.doorbell })).toThrow(/not a ring/);
    expect(() => new RingReader({ ring: channel.ring, doorbell: new SharedArrayBuffer(64) })).toThrow(/not a ring doorbell/);
    expect(() => createRing(64, channel.ring)).toThrow(/not a ring doorbell/);
  });
});

describe('RingWriter / RingReader', () => {
  it('returns false on a full ring, writes nothing, and accepts the same frame once space is released', () => {
    const { writer, reader } = ring(64);
    const frame = payload(12, 1); // 16 B slots: four fit
    for (let i = 0; i < 4; i++) expect(writer.tryWrite(frame)).toBe(true);
    expect(writer.tryWrite(frame)).toBe(false);
    expect(drainAll(reader, 1)).toEqual([frame]);
    expect(writer.tryWrite(payload(12, 2))).toBe(true);
    expect(drainAll(reader)).toEqual([frame, frame, frame, payload(12, 2)]);
    expect(reader.readable).toBe(false);
  });

  it('refuses a frame larger than half the capacity with a clear error, and stays usable', () => {
    const { writer, reader } = ring(256);
    expect(writer.maxPayloadBytes).toBe(124);
    expect(() => writer.tryWrite(new Uint8Array(125))).toThrow(/frame of 125 B exceeds this ring's largest frame of 124 B/);
    expect(() => writer.tryWrite(new Uint8Array(256))).toThrow(RangeError);
    expect(reader.readable).toBe(false);
    expect(writer.tryWrite(payload(124, 3))).toBe(true);
    expect(drainAll(reader)).toEqual([payload(124, 3)]);
  });

  it('writes a sub-range of the source and rejects a range outside it', () => {
    const { writer, reader } = ring(64);
    const source = payload(20, 4);
    expect(writer.tryWrite(source, 5, 13)).toBe(true);
    expect(drainAll(reader)).toEqual([source.slice(5, 13)]);
    expect(() => writer.tryWrite(source, 10, 5)).toThrow(RangeError);
    expect(() => writer.tryWrite(source, 0, 21)).toThrow(RangeError);
    expect(() => writer.tryWrite(source, -1, 4)).toThrow(RangeError);
  });

  it('delivers every size at every write offset, wrapping exactly when the slot would not fit', () => {
    const capacity = 256;
    const maxPayload = capacity / 2 - 4;
    const wrong: string[] = [];
    for (let offset = 0; offset < capacity; offset += 4) {
      for (let length = 0; length <= maxPayload; length++) {
        const { writer, reader } = emptyRingAt(capacity, offset);
        const frame = payload(length, offset + length);
        if (!writer.tryWrite(frame)) wrong.push(`offset ${offset}, ${length} B: refused by an empty ring`);
        const slot = 4 + Math.ceil(length / 4) * 4;
        const expectedStart = slot <= capacity - offset ? offset + 4 : 4;
        const seen: string[] = [];
        reader.drainInPlace(10, (data, start, end) => {
          if (start !== expectedStart) seen.push(`at ${start}, expected ${expectedStart}`);
          if (Buffer.compare(data.subarray(start, end), frame) !== 0) seen.push('bytes differ');
          seen.push('frame');
        });
        if (seen.join() !== 'frame' || reader.readable) wrong.push(`offset ${offset}, ${length} B: ${seen.join(', ')}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('consumes a frame whose handler throws, propagates the error and goes on with the next', () => {
    const { writer, reader } = ring(64);
    writer.tryWrite(payload(3, 1));
    writer.tryWrite(payload(3, 2));
    expect(() => reader.drain(10, () => { throw new Error('handler failed'); })).toThrow('handler failed');
    expect(drainAll(reader)).toEqual([payload(3, 2)]);
  });

  it('hands out at most maxFrames frames per drain, in place', () => {
    const { writer, reader } = ring(128);
    for (let i = 0; i < 5; i++) writer.tryWrite(payload(8, i));
    const ranges: [number, number][] = [];
    expect(reader.drainInPlace(2, (data, start, end) => {
      expect(data).toBe(reader.data);
      ranges.push([start, end]);
    })).toBe(2);
    expect(ranges).toEqual([[4, 12], [16, 24]]);
    expect(reader.drain(0, () => undefined)).toBe(0);
    expect(drainAll(reader)).toEqual([payload(8, 2), payload(8, 3), payload(8, 4)]);
  });

  it('matches the model ring on any interleaving of writes and drains (fast-check)', () => {
    const op = fc.oneof(
      fc.record({ write: fc.nat({ max: 1 << 9 }) }),
      fc.record({ drain: fc.integer({ min: 1, max: 8 }) }),
    );
    fc.assert(fc.property(fc.integer({ min: 4, max: 10 }), fc.array(op, { maxLength: 300 }), (log2, ops) => {
      const capacity = 2 ** log2;
      const { writer, reader } = ring(capacity);
      const model = new ModelRing(capacity);
      let seed = 0;
      for (const step of ops) {
        if ('write' in step) {
          const frame = payload(step.write % (writer.maxPayloadBytes + 1), seed++);
          expect(writer.tryWrite(frame)).toBe(model.write(frame));
        } else {
          expect(drainAll(reader, step.drain)).toEqual(model.drain(step.drain));
        }
      }
      expect(drainAll(reader)).toEqual(model.drain(Infinity));
    }), { numRuns: 300 });
  });

  it('keeps counting correctly across the 2^32 wrap of its byte counters', () => {
    const capacity = 64;
    const { writer, reader } = emptyRingAt(capacity, 2 ** 32 - 8); // after 4 GiB of traffic
    const model = new ModelRing(capacity);
    model.head = model.tail = 2 ** 32 - 8;
    for (let i = 0; i < 100; i++) {
      const frame = payload((i * 13) % 29, i);
      expect(writer.tryWrite(frame)).toBe(model.write(frame));
      if (i % 3 === 2) expect(drainAll(reader)).toEqual(model.drain(Infinity));
    }
    expect(model.head).toBeGreaterThan(2 ** 32);
  });
});
