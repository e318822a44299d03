// The hand-written event block: every event the engine can emit decodes equal to what was encoded,
// key for key (an `amended` key only where it was), with the block's repeated strings shared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBlock, EventEncoder } from '../../src/shard/event-codec.js';
import type { AccountRecord, EngineEvent } from '../../src/engine/types.js';
import { account, event } from '../support/records.js';

const events: fc.Arbitrary<EngineEvent[]> = fc.array(event, { maxLength: 30 });
const accounts: fc.Arbitrary<AccountRecord[]> = fc.array(account, { maxLength: 10 });

describe('event block', () => {
  it('decodes every event and account as it was encoded, key for key', () => {
    const encoder = new EventEncoder();
    fc.assert(fc.property(events, accounts, (sent, changed) => {
      const received = decodeBlock(encoder.encode(sent, changed));
      expect(received).toStrictEqual({ events: sent, accounts: changed });
      received.events.forEach((e, i) => expect(Object.keys(e)).toEqual(Object.keys(sent[i]!)));
      received.accounts.forEach((a, i) => expect(Object.keys(a)).toEqual(Object.keys(changed[i]!)));
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
    expect(decodeBlock(first).events).toStrictEqual(big);
    expect(decodeBlock(second).events).toStrictEqual(big.slice(0, 3));
    // Each distinct string once: the block is far smaller than the strings it carries.
    expect(first.length).toBeLessThan(2000 * 20 * 8 + 2000 * 16 + 50 * 60);
  });
});
