// Token-bucket arithmetic with an injected clock: exact refill, burst, the three header values and
// Retry-After, per key, per account and per address.
import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../src/base/token-bucket.js';
import { RestLimiter, REST_LIMITS } from '../../src/gateway/limits/rest-limiter.js';

const T0 = 1_700_000_000_000;
const header = (h: ReadonlyArray<readonly [string, string]>, name: string): string | undefined => h.find(([n]) => n === name)?.[1];

describe('TokenBucket', () => {
  it('starts full, takes one token per call and refuses when empty', () => {
    const b = new TokenBucket(20, 40, T0);
    expect(b.state(T0)).toEqual({ limit: 20, remaining: 40, resetMs: T0 });
    for (let i = 0; i < 40; i++) expect(b.take(T0)).toBe(true);
    expect(b.take(T0)).toBe(false);
    // Empty: full again after 40 tokens at 20/s = 2000 ms.
    expect(b.state(T0)).toEqual({ limit: 20, remaining: 0, resetMs: T0 + 2000 });
  });

  it('refills rate tokens per second, exactly, in whole milliseconds', () => {
    const b = new TokenBucket(20, 40, T0);
    for (let i = 0; i < 40; i++) b.take(T0);
    // One token takes 1000/20 = 50 ms.
    expect(b.waitMs(T0)).toBe(50);
    expect(b.take(T0 + 49)).toBe(false);
    expect(b.take(T0 + 50)).toBe(true);
    expect(b.take(T0 + 50)).toBe(false);
    // 1000 ms later: 20 tokens (the fraction left over from before stays exact).
    expect(b.state(T0 + 1050).remaining).toBe(20);
    expect(b.state(T0 + 1050).resetMs).toBe(T0 + 2050);
    // Never above the burst.
    expect(b.state(T0 + 60_000).remaining).toBe(40);
    expect(b.isFull(T0 + 60_000)).toBe(true);
  });

  it('keeps fractions exact for rates that do not divide a second', () => {
    const b = new TokenBucket(3, 6, T0);
    for (let i = 0; i < 6; i++) b.take(T0);
    // 1000/3 ms per token: 333 ms is not enough, 334 is (units: 333×3 = 999 < 1000 ≤ 1002).
    expect(b.take(T0 + 333)).toBe(false);
    expect(b.take(T0 + 334)).toBe(true);
    expect(b.waitMs(T0 + 334)).toBe(333); // 2 units left: (1000 − 2) / 3 = 332.67 → 333
    // A million 1 ms steps accumulate exactly what one big step does.
    const stepped = new TokenBucket(7, 14, T0);
    const jumped = new TokenBucket(7, 14, T0);
    for (let i = 0; i < 14; i++) { stepped.take(T0); jumped.take(T0); }
    for (let t = 1; t <= 1500; t++) stepped.state(T0 + t);
    expect(stepped.state(T0 + 1500)).toEqual(jumped.state(T0 + 1500));
    expect(stepped.state(T0 + 1500).remaining).toBe(10);
  });

  it('ignores a clock that steps back', () => {
    const b = new TokenBucket(10, 20, T0);
    for (let i = 0; i < 20; i++) b.take(T0);
    expect(b.take(T0 - 5000)).toBe(false);
    expect(b.state(T0 - 5000).remaining).toBe(0);
    expect(b.take(T0 + 100)).toBe(true);
  });

  it('refuses rates and bursts that are not positive integers', () => {
    expect(() => new TokenBucket(0, 1, T0)).toThrow(RangeError);
    expect(() => new TokenBucket(1.5, 3, T0)).toThrow(RangeError);
    expect(() => new TokenBucket(1, 0, T0)).toThrow(RangeError);
  });
});

describe('RestLimiter', () => {
  it('limits reads per key at its rate_limit with burst twice that, with the headers of the bucket', () => {
    const l = new RestLimiter();
    for (let i = 0; i < 20; i++) expect(l.read('k1', 10, T0).allowed).toBe(true);
    const refused = l.read('k1', 10, T0);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterS).toBe(1);
    expect(header(refused.headers, 'x-ratelimit-limit')).toBe('10');
    expect(header(refused.headers, 'x-ratelimit-remaining')).toBe('0');
    expect(header(refused.headers, 'x-ratelimit-reset')).toBe(String(T0 + 2000));
    expect(header(refused.headers, 'retry-after')).toBe('1');
    // Another key has its own bucket.
    expect(header(l.read('k2', 10, T0).headers, 'x-ratelimit-remaining')).toBe('19');
    expect(header(l.read('k2', 10, T0).headers, 'retry-after')).toBeUndefined();
  });

  it('limits trade calls per account at 10/s, burst 20', () => {
    const l = new RestLimiter();
    for (let i = 0; i < REST_LIMITS.tradeBurst; i++) expect(l.trade('100001', T0).allowed).toBe(true);
    expect(l.trade('100001', T0).allowed).toBe(false);
    expect(l.trade('100001', T0 + 99).allowed).toBe(false);
    expect(l.trade('100001', T0 + 100).allowed).toBe(true);
    expect(l.trade('100002', T0).allowed).toBe(true);
  });

  it('reports without taking when asked to', () => {
    const l = new RestLimiter();
    l.trade('100001', T0);
    for (let i = 0; i < 5; i++) expect(header(l.trade('100001', T0, false).headers, 'x-ratelimit-remaining')).toBe('19');
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    const l = new RestLimiter();
    l.read('slow', 1, T0);
    l.read('slow', 1, T0);
    const refused = l.read('slow', 1, T0 + 1);
    // The next token is 999 ms away: 1 s.
    expect(refused.retryAfterS).toBe(1);
    expect(header(refused.headers, 'x-ratelimit-reset')).toBe(String(T0 + 2000));
  });

  it('starts a fresh bucket when a key\'s rate changes', () => {
    const l = new RestLimiter();
    for (let i = 0; i < 40; i++) l.read('k', 20, T0);
    expect(l.read('k', 20, T0).allowed).toBe(false);
    expect(header(l.read('k', 50, T0).headers, 'x-ratelimit-remaining')).toBe('99');
  });

  it('limits unauthenticated requests per address, 20/s burst 40', () => {
    const l = new RestLimiter();
    for (let i = 0; i < REST_LIMITS.anonymousBurst; i++) expect(l.anonymous('192.0.2.1', T0).allowed).toBe(true);
    expect(l.anonymous('192.0.2.1', T0).allowed).toBe(false);
    expect(l.anonymous('192.0.2.2', T0).allowed).toBe(true);
  });

  it('forgets only full buckets when swept', () => {
    const l = new RestLimiter();
    l.read('k', 10, T0);
    l.trade('100001', T0);
    l.anonymous('192.0.2.1', T0);
    l.sweep(T0 + 49);
    expect(l.bucketCount).toBe(3);
    // One token refills in 50 ms at 20/s (anonymous) and in 100 ms at 10/s (the key, the account).
    l.sweep(T0 + 50);
    expect(l.bucketCount).toBe(2);
    l.sweep(T0 + 100);
    expect(l.bucketCount).toBe(0);
  });
});
