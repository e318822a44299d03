// TickBatcher: the ticks of one event-loop turn are handed on together at its end, per symbol and
// in order; a tick of a later turn goes in a later hand-over.
import { describe, expect, it } from 'vitest';
import type { Quote } from '../../src/engine/types.js';
import { TickBatcher } from '../../src/gateway/stream/tick-batcher.js';

const q = (symbol: string, bid: number): Quote => ({ symbol, bid, ask: bid + 1, ts: bid });
const endOfTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TickBatcher', () => {
  it('hands over the ticks of a turn together, per symbol, in order', async () => {
    const out: [string, number[]][] = [];
    const b = new TickBatcher((symbol, quotes) => out.push([symbol, quotes.map((x) => x.bid)]));
    b.add(q('A', 1));
    b.add(q('B', 1));
    b.add(q('A', 2));
    expect(out).toEqual([]);
    await endOfTurn();
    expect(out).toEqual([['A', [1, 2]], ['B', [1]]]);
    b.add(q('A', 3));
    await endOfTurn();
    expect(out.slice(2)).toEqual([['A', [3]]]);
  });
});
