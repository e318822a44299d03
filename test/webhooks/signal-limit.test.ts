// The signal limit as a fixed-window token bucket: 10 at once, then 5 per fixed 10-second window.
import { describe, expect, it } from 'vitest';
import { SignalBucket } from '../../src/gateway/webhooks/signal-limit.js';

const header = (headers: ReadonlyArray<readonly [string, string]>, name: string): string | undefined => headers.find(([n]) => n === name)?.[1];

describe('SignalBucket', () => {
  const WINDOW_START = 1_700_000_000_000; // a multiple of 10 000

  it('lets a burst of 10 through, then refuses until the next 10-second boundary', () => {
    const bucket = new SignalBucket(WINDOW_START + 2_500);
    for (let i = 0; i < 10; i++) {
      const v = bucket.take(WINDOW_START + 2_500 + i);
      expect(v.allowed).toBe(true);
      expect(header(v.headers, 'x-ratelimit-remaining')).toBe(String(9 - i));
    }
    const refused = bucket.take(WINDOW_START + 3_000);
    expect(refused.allowed).toBe(false);
    // 7 s to the boundary; full again two windows later (5 + 5).
    expect(header(refused.headers, 'retry-after')).toBe('7');
    expect(header(refused.headers, 'x-ratelimit-limit')).toBe('5');
    expect(header(refused.headers, 'x-ratelimit-remaining')).toBe('0');
    expect(header(refused.headers, 'x-ratelimit-reset')).toBe(String(WINDOW_START + 20_000));
    expect(bucket.take(WINDOW_START + 9_999).allowed).toBe(false);
  });

  it('adds 5 tokens at each boundary, never above 10', () => {
    const bucket = new SignalBucket(WINDOW_START);
    for (let i = 0; i < 10; i++) bucket.take(WINDOW_START);
    const next = WINDOW_START + 10_000;
    for (let i = 0; i < 5; i++) expect(bucket.take(next + i).allowed).toBe(true);
    expect(bucket.take(next + 5).allowed).toBe(false);
    // Many windows later the bucket holds 10, not more.
    const later = WINDOW_START + 100_000;
    expect(header(bucket.peek(later), 'x-ratelimit-remaining')).toBe('10');
    expect(header(bucket.peek(later), 'x-ratelimit-reset')).toBe(String(later));
    for (let i = 0; i < 10; i++) expect(bucket.take(later).allowed).toBe(true);
    expect(bucket.take(later).allowed).toBe(false);
  });

  it('peeks without taking, and says Retry-After at least 1 s right before a boundary', () => {
    const bucket = new SignalBucket(WINDOW_START);
    expect(header(bucket.peek(WINDOW_START), 'x-ratelimit-remaining')).toBe('10');
    expect(header(bucket.peek(WINDOW_START), 'retry-after')).toBeUndefined();
    for (let i = 0; i < 10; i++) bucket.take(WINDOW_START);
    expect(header(bucket.take(WINDOW_START + 9_999).headers, 'retry-after')).toBe('1');
    // The boundary adds 5 and this takes one: 4 left, full after two more boundaries (+5, +5 capped).
    const taken = bucket.take(WINDOW_START + 10_000);
    expect(header(taken.headers, 'x-ratelimit-remaining')).toBe('4');
    expect(header(taken.headers, 'x-ratelimit-reset')).toBe(String(WINDOW_START + 30_000));
  });
});
