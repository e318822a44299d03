// Arbitrary engine records for the property tests of the codecs that carry them (the ring's event
// block, the checkpoint's values): every field of every record, nulls, any text, the extremes of
// the integers.
import fc from 'fast-check';
import type { AccountRecord, EngineEvent, FieldChange, OrderEvent, OrderRecord, PositionEvent, PositionRecord } from '../../src/engine/types.js';

// Few values, so strings repeat within a block; any text, so UTF-8 and long strings are covered.
export const text = fc.oneof(fc.constantFrom('100001', 'EURUSD', 'buy', 'webhook', '', 'ä€𝄞'), fc.string({ unit: 'grapheme', maxLength: 40 }));
export const nullableText = fc.option(text, { nil: null });
export const int = fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.maxSafeInteger(), fc.constant(-Number.MAX_SAFE_INTEGER));
export const nullableInt = fc.option(int, { nil: null });

export const order: fc.Arbitrary<OrderRecord> = fc.record({
  id: text, login: text, symbol: text, side: fc.constantFrom('buy', 'sell'), type: fc.constantFrom('market', 'limit', 'stop'),
  volume: int, price: int, requestedPrice: nullableInt, sl: nullableInt, tp: nullableInt,
  status: fc.constantFrom('pending', 'filled', 'cancelled', 'rejected'), ticket: nullableInt,
  source: fc.constantFrom('manual', 'api', 'webhook', 'strategy', 'copy'), keyId: nullableText, clientId: nullableText, webhookId: nullableText,
  createdAt: int, filledAt: nullableInt, closedAt: nullableInt, reason: nullableText,
}, { noNullPrototype: true });

export const position: fc.Arbitrary<PositionRecord> = fc.record({
  ticket: int, login: text, symbol: text, side: fc.constantFrom('buy', 'sell'), volume: int, openPrice: int, sl: nullableInt, tp: nullableInt,
  source: fc.constantFrom('manual', 'api', 'webhook', 'strategy', 'copy'), keyId: nullableText, webhookId: nullableText, orderId: text,
  margin: int, openedAt: int,
}, { noNullPrototype: true });

export const changes: fc.Arbitrary<FieldChange[]> = fc.array(
  fc.record({ field: fc.constantFrom('price', 'volume', 'sl', 'tp'), from: nullableInt, to: nullableInt }, { noNullPrototype: true }),
  { maxLength: 4 },
);

export const orderEvent: fc.Arbitrary<OrderEvent> = fc.tuple(int, int, order, fc.option(changes, { nil: undefined }))
  .map(([seq, ts, o, amended]) => (amended === undefined ? { type: 'order', seq, ts, order: o } : { type: 'order', seq, ts, order: o, amended }));

export const positionEvent: fc.Arbitrary<PositionEvent> = fc.tuple(
  int, int, fc.constantFrom('open', 'partially_closed', 'closed'), position,
  fc.option(fc.constantFrom('client', 'sl', 'tp', 'kill_switch', 'webhook', 'dead_man', 'stop_out'), { nil: null }),
  nullableInt, nullableInt, nullableInt, fc.option(changes, { nil: undefined }),
).map(([seq, ts, status, p, reason, closePrice, closedVolume, profit, amended]) => {
  const e: PositionEvent = { type: 'position', seq, ts, status, position: p, reason, closePrice, closedVolume, profit };
  return amended === undefined ? e : { ...e, amended };
});

export const event: fc.Arbitrary<EngineEvent> = fc.oneof(orderEvent, positionEvent);

export const account: fc.Arbitrary<AccountRecord> = fc.record({
  login: text, user: text, type: fc.constantFrom('live', 'demo'), group: text, currency: text, leverage: int, server: text,
  balance: int, margin: int, seq: int, accountHalted: fc.boolean(), userHalted: fc.boolean(),
}, { noNullPrototype: true });
