// TickBatcher with fake timers: an isolated tick leaves at the end of its turn; ticks within the
// window of the last hand-over wait for the window's end and leave together, per symbol, in order.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Quote } from '../../src/engine/types.js';
import { TickBatcher } from '../../src/gateway/stream/tick-batcher.js';

const q = (symbol: string, bid: number): Quote => ({ symbol, bid, ask: bid + 1, ts: bid });

describe('TickBatcher', () => {
  beforeEach(() => { vi.useFakeTimers({ toFake: ['setTimeout', 'setImmediate', 'performance'] }); });
  afterEach(() => { vi.useRealTimers(); });

  it('hands an isolated tick on at once and batches the ones that follow within the window', () => {
    const out: [string, number[]][] = [];
    const b = new TickBatcher(2, (symbol, quotes) => out.push([symbol, quotes.map((x) => x.bid)]));
    b.add(q('A', 1));
    b.add(q('B', 1));
    vi.advanceTimersToNextTimer();
    expect(out).toEqual([['A', [1]], ['B', [1]]]);

    b.add(q('A', 2));
    b.add(q('A', 3));
    b.add(q('B', 2));
    vi.advanceTimersByTime(1);
    expect(out).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(out.slice(2)).toEqual([['A', [2, 3]], ['B', [2]]]);

    // Quiet for longer than the window: the next tick goes at the end of its turn again.
    vi.advanceTimersByTime(10);
    b.add(q('A', 4));
    vi.advanceTimersToNextTimer();
    expect(out.slice(4)).toEqual([['A', [4]]]);
  });
});
