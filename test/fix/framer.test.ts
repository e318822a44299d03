import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FixFramer, GarbleReason } from '../../src/fix/codec/framer.js';
import { FixWriter } from '../../src/fix/codec/writer.js';
import { ascii, fromAscii, frameChunks, messagesOf, newOrderSingle, sampleStream } from './support/samples.js';

const messages = sampleStream();
const stream = Buffer.concat(messages);
const texts = messages.map((m) => m.toString('latin1'));

/** Sets BodyLength (first 9= field) to `value` and leaves everything else, CheckSum included, alone. */
function withBodyLength(msg: Buffer, value: string): Buffer {
  return fromAscii(ascii(msg).replace(/\|9=\d+\|/, `|9=${value}|`));
}

function withCheckSum(msg: Buffer, value: string): Buffer {
  return fromAscii(ascii(msg).replace(/\|10=\d{3}\|$/, `|10=${value}|`));
}

/** Recomputes 9 and 10 after editing a body, like a sender padding BodyLength. */
function reframe(body: string, lengthDigits: number): Buffer {
  const b = fromAscii(body);
  const head = fromAscii(`8=FIX.4.4|9=${String(b.length).padStart(lengthDigits, '0')}|`);
  const both = Buffer.concat([head, b]);
  let sum = 0;
  for (const x of both) sum += x;
  return Buffer.concat([both, fromAscii(`10=${String(sum % 256).padStart(3, '0')}|`)]);
}

describe('FixFramer', () => {
  it('finds every message of a stream delivered in one read', () => {
    expect(frameChunks([stream])).toEqual(texts.map((text) => ({ kind: 'message', text })));
  });

  it('finds the same messages at every split point of the stream', () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const events = frameChunks([stream.subarray(0, cut), stream.subarray(cut)]);
      expect(events.every((e) => e.kind === 'message'), `cut at ${cut}`).toBe(true);
      expect(messagesOf(events), `cut at ${cut}`).toEqual(texts);
    }
  });

  it('finds the same messages fed one byte at a time', () => {
    const bytes = [...stream].map((b) => Uint8Array.of(b));
    expect(messagesOf(frameChunks(bytes))).toEqual(texts);
  });

  it('finds the same messages under any chunking (merged and split reads)', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 12 }), (cuts) => {
      const points = [0, ...cuts.sort((a, b) => a - b), stream.length];
      const chunks = points.slice(1).map((end, i) => stream.subarray(points[i], end));
      expect(frameChunks(chunks)).toEqual(texts.map((text) => ({ kind: 'message', text })));
    }));
  });

  it('accepts a BodyLength with leading zeros, as jspurefix sends it (9=0000136)', () => {
    const body = ascii(messages[1] as Buffer).replace(/^8=FIX\.4\.4\|9=\d+\|/, '').replace(/10=\d{3}\|$/, '');
    const padded = reframe(body, 7);
    expect(ascii(padded)).toMatch(/^8=FIX\.4\.4\|9=0000\d{3}\|35=D\|/);
    expect(messagesOf(frameChunks([padded]))).toEqual([padded.toString('latin1')]);
  });

  it('drops a frame whose BodyLength is too small, and keeps the next message', () => {
    const bad = withBodyLength(messages[1] as Buffer, '20');
    const events = frameChunks([Buffer.concat([bad, messages[2] as Buffer])]);
    expect(events[0]).toMatchObject({ kind: 'garbled', reason: GarbleReason.BodyLength });
    expect(messagesOf(events)).toEqual([texts[2]]);
  });

  it('drops a frame whose BodyLength is too large, and keeps the next message without waiting for more bytes', () => {
    const bad = withBodyLength(messages[1] as Buffer, '900');
    const events = frameChunks([Buffer.concat([bad, messages[2] as Buffer])]);
    expect(events.every((e) => e.kind === 'garbled' || e.text === texts[2])).toBe(true);
    expect(events[0]).toMatchObject({ kind: 'garbled', reason: GarbleReason.BodyLength });
    expect(messagesOf(events)).toEqual([texts[2]]);
  });

  it('drops a truncated frame followed by a complete one, at every split point', () => {
    const truncated = (messages[3] as Buffer).subarray(0, 60);
    const joined = Buffer.concat([truncated, messages[1] as Buffer]);
    for (let cut = 0; cut <= joined.length; cut++) {
      expect(messagesOf(frameChunks([joined.subarray(0, cut), joined.subarray(cut)])), `cut at ${cut}`).toEqual([texts[1]]);
    }
  });

  it('drops a non-numeric or absent BodyLength', () => {
    for (const value of ['1x2', '', '-5']) {
      const events = frameChunks([Buffer.concat([withBodyLength(messages[2] as Buffer, value), messages[4] as Buffer])]);
      expect(events[0]).toMatchObject({ kind: 'garbled', reason: GarbleReason.BodyLength });
      expect(messagesOf(events)).toEqual([texts[4]]);
    }
  });

  it('drops a frame with a wrong CheckSum, and keeps the next message', () => {
    const original = /10=(\d{3})\|$/.exec(ascii(messages[1] as Buffer))?.[1];
    const wrong = original === '000' ? '001' : '000';
    const events = frameChunks([Buffer.concat([withCheckSum(messages[1] as Buffer, wrong), messages[2] as Buffer])]);
    expect(events).toEqual([
      { kind: 'garbled', reason: GarbleReason.CheckSum, dropped: (messages[1] as Buffer).length },
      { kind: 'message', text: texts[2] },
    ]);
  });

  it('drops a non-numeric CheckSum', () => {
    const events = frameChunks([Buffer.concat([withCheckSum(messages[1] as Buffer, '1a3'), messages[2] as Buffer])]);
    expect(events[0]).toMatchObject({ kind: 'garbled', reason: GarbleReason.CheckSum });
    expect(messagesOf(events)).toEqual([texts[2]]);
  });

  it('drops another BeginString and garbage, resynchronising on the next 8=FIX', () => {
    const fix42 = fromAscii(ascii(messages[2] as Buffer).replace('8=FIX.4.4', '8=FIX.4.2'));
    const events = frameChunks([Buffer.concat([fromAscii('garbage|'), fix42, messages[4] as Buffer])]);
    expect(events.filter((e) => e.kind === 'garbled').every((e) => e.kind === 'garbled' && e.reason === GarbleReason.BeginString)).toBe(true);
    expect(messagesOf(events)).toEqual([texts[4]]);
  });

  it('drops a message larger than maxMessageBytes and finds the next one', () => {
    const w = new FixWriter();
    const big = newOrderSingle(w, 9, 'X'.repeat(600));
    const events = frameChunks([Buffer.concat([big, messages[2] as Buffer])], 512);
    expect(events[0]).toMatchObject({ kind: 'garbled', reason: GarbleReason.TooLarge });
    expect(messagesOf(events)).toEqual([texts[2]]);
  });

  it('keeps a message that straddles reads after garbage held back as a possible start', () => {
    const events = frameChunks([fromAscii('xx8=FI'), Buffer.concat([fromAscii('X.4.4|'), (messages[2] as Buffer).subarray(10)])]);
    expect(events).toEqual([{ kind: 'garbled', reason: GarbleReason.BeginString, dropped: 2 }, { kind: 'message', text: texts[2] }]);
  });

  it('reuses its buffer: views point into one growable buffer', () => {
    const framer = new FixFramer({ maxMessageBytes: 4096 });
    framer.push(stream);
    framer.next();
    const first = framer.bytes;
    framer.next();
    expect(framer.bytes).toBe(first);
    expect(framer.frameStart).toBe((messages[0] as Buffer).length);
  });

  const garbage = fc.oneof(
    fc.uint8Array({ maxLength: 80 }),
    fc.constantFrom(...messages).chain((m) => fc.integer({ min: 0, max: m.length - 1 }).map((n) => m.subarray(0, n))),
    fc.constantFrom(...messages).chain((m) => fc.tuple(fc.integer({ min: 0, max: m.length - 1 }), fc.integer({ min: 0, max: 255 }))
      .map(([at, b]) => { const c = Buffer.from(m); c[at] = c[at] === b ? (b + 1) % 256 : b; return c; })),
    fc.constantFrom(fromAscii('8=FIX.4.4|9='), fromAscii('8=FIX.4.4|9=99999|35=D|'), fromAscii('|8=FIX'), fromAscii('10=000|')),
  );

  it('never throws on fuzzed bytes, bounds what it holds, and always finds a good message after garbage', () => {
    fc.assert(fc.property(fc.array(garbage, { maxLength: 6 }), fc.constantFrom(...messages), fc.array(fc.nat(), { maxLength: 5 }), (junk, good, cutSeeds) => {
      const bytes = Buffer.concat([...junk, good]);
      const cuts = cutSeeds.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b);
      const points = [0, ...cuts, bytes.length];
      const framer = new FixFramer({ maxMessageBytes: 1024 });
      const events = frameChunks(points.slice(1).map((end, i) => bytes.subarray(points[i], end)), 1024, framer);
      expect(framer.pendingBytes).toBeLessThanOrEqual(1024);
      expect(messagesOf(events).at(-1)).toBe(good.toString('latin1'));
    }), { numRuns: 2000 });
  });
});
