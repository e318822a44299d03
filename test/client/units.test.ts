// The SDK's pure parts: the signature (against an independent HMAC), the signed stream URL, the
// backoff's bounds and growth, and the subscription book behind restores and exactly-once events.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoff, RestClient, sign, signedStreamUrl, type AckMessage, type StreamChannel } from '../../src/client/index.js';
import { SubscriptionBook } from '../../src/client/subscriptions.js';

describe('signing', () => {
  it('is hex HMAC-SHA256 over timestamp + method + path-with-query + body', () => {
    fc.assert(fc.property(fc.string(), fc.nat(), fc.constantFrom('GET', 'POST', 'DELETE'), fc.string(), fc.string(), (secret, ts, method, path, body) => {
      expect(sign(secret, ts, method, path, body)).toBe(createHmac('sha256', secret).update(`${ts}${method}${path}${body}`).digest('hex'));
    }));
  });

  it('signs the stream connection as GET /v1, whatever the URL carries', () => {
    const url = new URL(signedStreamUrl('wss://example.test:9443/v1', 'k1', 's3cret', 1_700_000_000_000));
    expect(url.origin).toBe('wss://example.test:9443');
    expect(url.pathname).toBe('/v1');
    expect(url.searchParams.get('key')).toBe('k1');
    expect(url.searchParams.get('ts')).toBe('1700000000000');
    expect(url.searchParams.get('sig')).toBe(createHmac('sha256', 's3cret').update('1700000000000GET/v1').digest('hex'));
  });
});

describe('RestClient timestamps', () => {
  it('strictly increase, so identical calls in one millisecond never share a signature (a replay)', async () => {
    const seen: string[] = [];
    const fetchStub: typeof fetch = async (_url, init) => {
      seen.push((init?.headers as Record<string, string>)['x-svc-timestamp']!);
      return new Response(JSON.stringify({ id: '1', status: 'cancelled' }), { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const rest = new RestClient({ baseUrl: 'http://127.0.0.1:1/v1', keyId: 'k', secret: 's', nowMs: () => 1_000, fetch: fetchStub });
    await Promise.all([rest.cancelOrder('7'), rest.cancelOrder('7'), rest.cancelOrder('7')]);
    expect(seen).toEqual(['1000', '1001', '1002']);
  });
});

describe('Backoff', () => {
  it('grows exponentially to its cap, with delays between half and all of the current cap', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 12, maxLength: 12 }), (draws) => {
      let i = 0;
      const b = new Backoff({ initialMs: 100, maxMs: 5000 }, () => draws[i++]!);
      const delays = draws.map(() => b.next());
      delays.forEach((d, n) => {
        const cap = Math.min(5000, 100 * 2 ** n);
        expect(d).toBeGreaterThanOrEqual(cap / 2);
        expect(d).toBeLessThanOrEqual(cap);
      });
      expect(b.attempts).toBe(12);
    }));
  });

  it('starts over after reset and refuses nonsense settings', () => {
    const b = new Backoff({ initialMs: 100, maxMs: 1000 }, () => 1);
    b.next(); b.next(); b.next();
    b.reset();
    expect(b.next()).toBe(100);
    expect(() => new Backoff({ initialMs: 0 })).toThrow(RangeError);
    expect(() => new Backoff({ initialMs: 500, maxMs: 100 })).toThrow(RangeError);
  });
});

describe('SubscriptionBook', () => {
  const ack = (channel: 'subscribed' | 'unsubscribed', channels: StreamChannel[], symbols: string[] = [], login?: string): AckMessage =>
    ({ channel, id: 1, channels, symbols, ...(login !== undefined ? { login } : {}) });

  it('restores what the server confirmed, resuming events after the last seq handed out', () => {
    const book = new SubscriptionBook();
    expect(book.restoreOps()).toEqual([]);
    book.confirm(ack('subscribed', ['quotes'], ['EURUSD', 'BTCUSD']), { op: 'subscribe' });
    book.confirm(ack('subscribed', ['orders', 'positions', 'account'], [], '100001'), { op: 'subscribe' });
    // No snapshot yet: a restore would ask for one again.
    expect(book.restoreOps()).toContainEqual({ op: 'subscribe', channels: ['orders', 'positions'], login: '100001' });
    book.snapshot('100001', 40);
    expect(book.fresh('100001', 41)).toBe(true);
    expect(book.fresh('100001', 42)).toBe(true);
    expect(book.restoreOps()).toEqual([
      { op: 'subscribe', channels: ['quotes'], symbols: ['EURUSD', 'BTCUSD'] },
      { op: 'subscribe', channels: ['orders', 'positions'], login: '100001', since_seq: 42 },
      { op: 'subscribe', channels: ['account'], login: '100001' },
    ]);
    book.confirm(ack('unsubscribed', ['quotes', 'account'], ['EURUSD'], '100001'), { op: 'unsubscribe' });
    expect(book.restoreOps()).toEqual([
      { op: 'subscribe', channels: ['quotes'], symbols: ['BTCUSD'] },
      { op: 'subscribe', channels: ['orders', 'positions'], login: '100001', since_seq: 42 },
    ]);
  });

  it('hands each seq out once, whatever order overlaps arrive in', () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 200 }), (arrivals) => {
      const book = new SubscriptionBook();
      book.snapshot('1', 0);
      const handed = arrivals.filter((seq) => book.fresh('1', seq));
      expect(new Set(handed).size).toBe(handed.length);
      expect(handed).toEqual([...handed].sort((a, b) => a - b));
      expect(book.lastSeq('1')).toBe(handed.length > 0 ? handed[handed.length - 1] : 0);
    }));
  });

  it('starts a cursor at since_seq or the first snapshot, keeps a running one, and forgets it on request', () => {
    const book = new SubscriptionBook();
    book.confirm(ack('subscribed', ['orders'], [], '7'), { op: 'subscribe', since_seq: 10 });
    expect(book.lastSeq('7')).toBe(10);
    book.snapshot('7', 25);
    expect(book.lastSeq('7')).toBe(10);
    expect(book.fresh('7', 10)).toBe(false);
    book.forgetCursor('7');
    book.snapshot('7', 25);
    expect(book.lastSeq('7')).toBe(25);
    book.confirm(ack('unsubscribed', ['orders'], [], '7'), { op: 'unsubscribe' });
    expect(book.lastSeq('7')).toBeUndefined();
    expect(book.restoreOps()).toEqual([]);
  });
});
