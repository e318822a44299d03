// The hand-written event block: every event the engine can emit decodes equal to what was encoded,
// key for key (an `amended` key only where it was), with the block's repeated strings shared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEvents, EventEncoder } from '../../src/shard/event-codec.js';
import type { EngineEvent } from '../../src/engine/types.js';
import { event } from '../support/records.js';

const events: fc.Arbitrary<EngineEvent[]> = fc.array(event, { maxLength: 30 });

describe('event block', () => {
  it('decodes every event as it was encoded, key for key', () => {
    const encoder = new EventEncoder();
    fc.assert(fc.property(events, (sent) => {
      const received = decodeEvents(encoder.encode(sent));
      expect(received).toStrictEqual(sent);
      received.forEach((e, i) => expect(Object.keys(e)).toEqual(Object.keys(sent[i]!)));
    }), { numRuns: 300 });
  });

  it('reuses its buffer: a block stays valid after the next one is encoded, and grows past its first size', () => {
    const encoder = new EventEncoder();
    const big: EngineEvent[] = Array.from({ length: 2000 }, (_, i) => ({
      type: 'order', seq: i, ts: 1_700_000_000_000 + i,
      order: {
        id: String(i), login: '100001', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 1, price: 108_510, requestedPrice: null, sl: null, tp: null,
        status: 'filled', ticket: 1_000_000 + i, source: 'api', keyId: 'k'.repeat(i % 50), clientId: `c-${i}`, webhookId: null,
        createdAt: 1_700_000_000_000, filledAt: 1_700_000_000_000, closedAt: null, reason: null,
      },
    }));
    const first = encoder.encode(big);
    const second = encoder.encode(big.slice(0, 3));
    expect(decodeEvents(first)).toStrictEqual(big);
    expect(decodeEvents(second)).toStrictEqual(big.slice(0, 3));
    // Each distinct string once: the block is far smaller than the strings it carries.
    expect(first.length).toBeLessThan(2000 * 20 * 8 + 2000 * 16 + 50 * 60);
  });
});
