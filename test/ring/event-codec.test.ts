// The hand-written event block: every event the engine can emit decodes equal to what was encoded,
// key for key (an `amended` key only where it was), with the block's repeated strings shared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEvents, EventEncoder } from '../../src/shard/event-codec.js';
import type { EngineEvent, FieldChange, OrderEvent, OrderRecord, PositionEvent, PositionRecord } from '../../src/engine/types.js';

// Few values, so strings repeat within a block; any text, so UTF-8 and long strings are covered.
const text = fc.oneof(fc.constantFrom('100001', 'EURUSD', 'buy', 'webhook', '', 'ä€𝄞'), fc.string({ unit: 'grapheme', maxLength: 40 }));
const nullableText = fc.option(text, { nil: null });
const int = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.maxSafeInteger(), fc.constant(-Number.MAX_SAFE_INTEGER));
const nullableInt = fc.option(int, { nil: null });

const order: fc.Arbitrary<OrderRecord> = fc.record({
  id: text, login: text, symbol: text, side: fc.constantFrom('buy', 'sell'), type: fc.constantFrom('market', 'limit', 'stop'),
  volume: int, price: int, requestedPrice: nullableInt, sl: nullableInt, tp: nullableInt,
  status: fc.constantFrom('pending', 'filled', 'cancelled', 'rejected'), ticket: nullableInt,
  source: fc.constantFrom('manual', 'api', 'webhook', 'strategy', 'copy'), keyId: nullableText, clientId: nullableText, webhookId: nullableText,
  createdAt: int, filledAt: nullableInt, closedAt: nullableInt, reason: nullableText,
}, { noNullPrototype: true });

const position: fc.Arbitrary<PositionRecord> = fc.record({
  ticket: int, login: text, symbol: text, side: fc.constantFrom('buy', 'sell'), volume: int, openPrice: int, sl: nullableInt, tp: nullableInt,
  source: fc.constantFrom('manual', 'api', 'webhook', 'strategy', 'copy'), keyId: nullableText, webhookId: nullableText, orderId: text,
  margin: int, openedAt: int,
}, { noNullPrototype: true });

const changes: fc.Arbitrary<FieldChange[]> = fc.array(
  fc.record({ field: fc.constantFrom('price', 'volume', 'sl', 'tp'), from: nullableInt, to: nullableInt }, { noNullPrototype: true }),
  { maxLength: 4 },
);

const orderEvent: fc.Arbitrary<OrderEvent> = fc.tuple(int, int, order, fc.option(changes, { nil: undefined }))
  .map(([seq, ts, o, amended]) => (amended === undefined ? { type: 'order', seq, ts, order: o } : { type: 'order', seq, ts, order: o, amended }));

const positionEvent: fc.Arbitrary<PositionEvent> = fc.tuple(
  int, int, fc.constantFrom('open', 'partially_closed', 'closed'), position,
  fc.option(fc.constantFrom('client', 'sl', 'tp', 'kill_switch', 'webhook', 'dead_man', 'stop_out'), { nil: null }),
  nullableInt, nullableInt, nullableInt, fc.option(changes, { nil: undefined }),
).map(([seq, ts, status, p, reason, closePrice, closedVolume, profit, amended]) => {
  const e: PositionEvent = { type: 'position', seq, ts, status, position: p, reason, closePrice, closedVolume, profit };
  return amended === undefined ? e : { ...e, amended };
});

const events: fc.Arbitrary<EngineEvent[]> = fc.array(fc.oneof(orderEvent, positionEvent), { maxLength: 30 });

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
