// The SDK's pure parts: the signature (against an independent HMAC), the signed stream URL, and
// the backoff's bounds and growth.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoff, sign, signedStreamUrl } from '../../src/client/index.js';

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
