// msgpackr frames over a ring, single-threaded: the sequential-records stream must survive
// frames the ring refused (full, too large) and values msgpackr could not encode.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameReader, FrameWriter } from '../../src/ring/frames.js';
import { createDoorbell, createRing } from '../../src/ring/layout.js';
import type { ShardInbound } from '../../src/shard/protocol.js';

function frames<T>(capacity: number): { writer: FrameWriter<T>; reader: FrameReader<T> } {
  const channel = createRing(capacity, createDoorbell());
  return { writer: new FrameWriter<T>(channel), reader: new FrameReader<T>(channel) };
}

function drainAll<T>(reader: FrameReader<T>, max = Infinity): T[] {
  const values: T[] = [];
  reader.drain(max, (value) => values.push(value));
  return values;
}

const plain: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer(),
    fc.double().map((d) => (Object.is(d, -0) ? 0 : d)),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    // Few keys, so shapes recur (a frame refers to shapes earlier frames defined), and random
    // keys, so there are more shapes than msgpackr keeps ids for and ids get reused.
    fc.dictionary(fc.constantFrom('a', 'b', 'c', 'd', 'e'), tie('value'), { maxKeys: 3 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('FrameWriter / FrameReader', () => {
  it('round-trips the protocol frames in order', () => {
    const { writer, reader } = frames<ShardInbound>(4096);
    const sent: ShardInbound[] = [
      { t: 'tick', quote: { symbol: 'EURUSD', bid: 108_123, ask: 108_125, ts: 1_700_000_000_000 } },
      { t: 'query', corr: 7, query: { kind: 'account', login: '1001' } },
      { t: 'watch', login: '1001', on: true },
      { t: 'tick', quote: { symbol: 'GBPUSD', bid: 126_001, ask: 126_004, ts: 1_700_000_000_001 } },
      { t: 'stop' },
    ];
    for (const frame of sent) expect(writer.tryWrite(frame)).toBe(true);
    expect(drainAll(reader)).toEqual(sent);
  });

  it('a refused frame that introduced a shape does not break the frames after it', () => {
    const { writer, reader } = frames<Record<string, number>>(64);
    while (writer.tryWrite({ a: 1 }));
    expect(writer.tryWrite({ newShape: 1, other: 2 })).toBe(false); // full, and it defined {newShape, other}
    expect(drainAll(reader)).toEqual(expect.arrayContaining([{ a: 1 }]));
    expect(writer.tryWrite({ newShape: 3, other: 4 })).toBe(true);
    expect(writer.tryWrite({ a: 5 })).toBe(true);
    expect(drainAll(reader)).toEqual([{ newShape: 3, other: 4 }, { a: 5 }]);
  });

  it('a refused frame retried is copied, not encoded again, and arrives once in its place', () => {
    const { writer, reader } = frames<Record<string, unknown>>(256);
    while (writer.tryWrite({ a: 1 }));
    let encoded = 0;
    const big = Object.defineProperty({ shape: 'new' }, 'list', { enumerable: true, get: () => { encoded++; return [1, 2, 3]; } });
    expect(writer.tryWrite(big)).toBe(false);
    expect(writer.tryWrite(big)).toBe(false);
    const before = drainAll(reader);
    expect(writer.tryWrite(big)).toBe(true);
    expect(encoded).toBe(1);
    expect(writer.tryWrite({ shape: 'again', list: [] })).toBe(true);
    expect(before.every((v) => v['a'] === 1)).toBe(true);
    expect(drainAll(reader)).toEqual([{ shape: 'new', list: [1, 2, 3] }, { shape: 'again', list: [] }]);
  });

  it('a refused frame survives other writers encoding on the same thread before its retry', () => {
    // msgpackr packs into one buffer per thread: the kept bytes must be a copy, not a view of it.
    const full = frames<Record<string, unknown>>(256);
    const other = frames<Record<string, unknown>>(4096);
    while (full.writer.tryWrite({ a: 1 }));
    const held = { tick: 'EURUSD', bid: 108_500 };
    expect(full.writer.tryWrite(held)).toBe(false);
    expect(other.writer.tryWrite({ cmd: 'place', login: 'someone-else', volume: 123_456 })).toBe(true);
    drainAll(full.reader);
    expect(full.writer.tryWrite(held)).toBe(true);
    expect(drainAll(full.reader)).toEqual([held]);
    expect(drainAll(other.reader)).toEqual([{ cmd: 'place', login: 'someone-else', volume: 123_456 }]);
  });

  it('a value msgpackr cannot encode throws, writes nothing and leaves the stream intact', () => {
    const { writer, reader } = frames<Record<string, unknown>>(1024);
    expect(writer.tryWrite({ x: 1 })).toBe(true);
    expect(() => writer.tryWrite({ y: { z: 1, big: 10n ** 30n } })).toThrow(/too large/);
    expect(writer.tryWrite({ y: { z: 2, big: 3 } })).toBe(true);
    expect(drainAll(reader)).toEqual([{ x: 1 }, { y: { z: 2, big: 3 } }]);
  });

  it('refuses an encoding larger than the ring takes, with a clear error', () => {
    const { writer, reader } = frames<{ s: string }>(256);
    expect(() => writer.tryWrite({ s: 'x'.repeat(200) })).toThrow(/exceeds this ring's largest frame of 124 B/);
    expect(writer.tryWrite({ s: 'ok' })).toBe(true);
    expect(drainAll(reader)).toEqual([{ s: 'ok' }]);
  });

  it('delivers every accepted value, in order, whatever the ring refuses on the way (fast-check)', () => {
    const step = fc.oneof(
      { weight: 4, arbitrary: plain.map((value) => ({ value })) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 6 }).map((drain) => ({ drain })) },
      // The writer's retry path: the last refused value again (after a drain, it may fit).
      { weight: 1, arbitrary: fc.constant({ retry: true }) },
    );
    fc.assert(fc.property(fc.integer({ min: 6, max: 10 }), fc.array(step, { maxLength: 150 }), (log2, steps) => {
      const { writer, reader } = frames<unknown>(2 ** log2);
      const accepted: unknown[] = [];
      const received: unknown[] = [];
      let refused: { value: unknown } | null = null;
      for (const s of steps) {
        if ('drain' in s) {
          received.push(...drainAll(reader, s.drain));
          continue;
        }
        const value: unknown = 'retry' in s ? refused?.value : s.value;
        if ('retry' in s && refused === null) continue;
        try {
          if (writer.tryWrite(value)) { accepted.push(value); refused = null; } else refused = { value };
        } catch (err) {
          expect(err).toBeInstanceOf(RangeError); // only "too large for this ring"
        }
      }
      received.push(...drainAll(reader));
      expect(received).toEqual(accepted);
    }), { numRuns: 200 });
  });
});
