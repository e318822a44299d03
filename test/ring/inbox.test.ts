// The Inbox's doorbell handshake, single-threaded (across threads: threads.test.ts).
import { describe, expect, it } from 'vitest';
import { Inbox, doorbellState } from '../../src/ring/inbox.js';
import { createDoorbell, createRing } from '../../src/ring/layout.js';
import { RingReader } from '../../src/ring/ring-reader.js';
import { RingWriter } from '../../src/ring/ring-writer.js';

describe('Inbox', () => {
  it('needs at least one ring, and rings that share its doorbell', () => {
    expect(() => new Inbox([])).toThrow(/at least one ring/);
    const a = createRing(64, createDoorbell());
    const b = createRing(64, createDoorbell());
    expect(() => new Inbox([a, b])).toThrow(/share one doorbell/);
    expect(() => new Inbox([a], { spinMicros: -1 })).toThrow(RangeError);
  });

  it('resolves at once, without parking, when a ring already holds a frame', async () => {
    const bell = createDoorbell();
    const channels = [createRing(64, bell), createRing(64, bell)];
    const inbox = new Inbox(channels);
    new RingWriter(channels[1]!).tryWrite(new Uint8Array([1]));
    await expect(inbox.whenReadable()).resolves.toBe(true);
    expect(doorbellState(bell)).toEqual({ asleep: false, parks: 0, rings: 0 });
    inbox.close();
  });

  it('parks when every ring is empty and wakes on the next frame into any of them', async () => {
    const bell = createDoorbell();
    const channels = [createRing(64, bell), createRing(64, bell)];
    const inbox = new Inbox(channels, { spinMicros: 0 });
    const woken = inbox.whenReadable();
    expect(inbox.whenReadable()).toBe(woken); // concurrent calls share the wait
    expect(doorbellState(bell)).toMatchObject({ asleep: true, parks: 1 });
    new RingWriter(channels[1]!).tryWrite(new Uint8Array([7]));
    expect(doorbellState(bell)).toMatchObject({ asleep: false, rings: 1 });
    await expect(woken).resolves.toBe(true);
    const frames: number[] = [];
    new RingReader(channels[1]!).drain(10, (view) => frames.push(view[0]!));
    expect(frames).toEqual([7]);
    inbox.close();
  });

  it('does not ring a consumer that is awake', () => {
    const bell = createDoorbell();
    const channel = createRing(64, bell);
    const writer = new RingWriter(channel);
    for (let i = 0; i < 5; i++) writer.tryWrite(new Uint8Array([i]));
    expect(doorbellState(bell).rings).toBe(0);
  });

  it('close() ends a pending wait and every later one with false', async () => {
    const channel = createRing(64, createDoorbell());
    const inbox = new Inbox([channel], { spinMicros: 0 });
    const pending = inbox.whenReadable();
    inbox.close();
    await expect(pending).resolves.toBe(false);
    await expect(inbox.whenReadable()).resolves.toBe(false);
  });
});
