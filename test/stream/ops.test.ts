// The client-op parser (pure) and the hand-built quote text, which must be exactly what
// JSON.stringify would print.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quoteText } from '../../src/gateway/stream/messages.js';
import { parseOp } from '../../src/gateway/stream/ops.js';

describe('parseOp', () => {
  it('reads subscribe, unsubscribe and ping', () => {
    expect(parseOp('{"op":"subscribe","id":1,"channels":["quotes","orders","quotes"],"symbols":["A","B","A"],"login":"1","since_seq":4}')).toEqual({
      ok: true, op: { op: 'subscribe', id: 1, channels: ['quotes', 'orders'], symbols: ['A', 'B'], login: '1', sinceSeq: 4 },
    });
    expect(parseOp('{"op":"unsubscribe","channels":["quotes"]}')).toEqual({ ok: true, op: { op: 'unsubscribe', id: null, channels: ['quotes'], symbols: null, login: null } });
    expect(parseOp('{"op":"ping","id":"abc"}')).toEqual({ ok: true, op: { op: 'ping', id: 'abc' } });
  });

  it('refuses what is not a well-formed op, naming the field and echoing a usable id', () => {
    const refused = (text: string) => {
      const r = parseOp(text);
      if (r.ok) throw new Error(`accepted ${text}`);
      return r.problem;
    };
    expect(refused('nope')).toMatchObject({ id: null });
    expect(refused('null')).toMatchObject({ id: null });
    expect(refused('{"op":"subscribe","id":3,"channels":["trades"]}')).toMatchObject({ id: 3, field: 'channels' });
    expect(refused('{"op":"subscribe","id":3,"channels":["orders"],"symbols":["A"]}')).toMatchObject({ field: 'symbols' });
    expect(refused('{"op":"subscribe","id":3,"channels":["quotes"],"symbols":[]}')).toMatchObject({ field: 'symbols' });
    expect(refused('{"op":"subscribe","channels":["quotes"],"symbols":["A"],"login":"1"}')).toMatchObject({ field: 'login' });
    expect(refused('{"op":"subscribe","channels":["orders"],"since_seq":1.5}')).toMatchObject({ field: 'since_seq' });
    expect(refused('{"op":"unsubscribe","channels":["orders"],"since_seq":1}')).toMatchObject({ field: 'since_seq' });
    expect(refused('{"op":"ping","id":true}')).toMatchObject({ id: null, field: 'id' });
    expect(refused(`{"op":"ping","id":"${'x'.repeat(65)}"}`)).toMatchObject({ id: null, field: 'id' });
  });

  it('never throws, whatever the text', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ op: 'subscribe', channels: v, symbols: v, id: v }))), (text) => {
      const r = parseOp(text);
      expect(typeof r.ok).toBe('boolean');
    }));
  });
});

describe('quoteText', () => {
  it('prints what JSON.stringify prints', () => {
    fc.assert(fc.property(
      fc.stringMatching(/^[A-Z0-9]{1,16}$/), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 0, max: 2 ** 45 }),
      (symbol, digits, bid, ask, ts) => {
        const text = quoteText(JSON.stringify(symbol), digits, { symbol, bid, ask, ts });
        expect(text).toBe(JSON.stringify({ channel: 'quote', symbol, bid: bid / 10 ** digits, ask: ask / 10 ** digits, ts }));
      },
    ));
  });
});
