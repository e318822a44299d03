// Guessing defences of the console login (DECISIONS "Console"). Per user: 5 failed attempts (a
// wrong password or TOTP code at login, or a wrong fresh TOTP code in a session) within 15 minutes
// lock the user's login and fresh-TOTP actions for 15 minutes. Per client address: a token bucket
// of login attempts, so one address cannot try many users. Both are kept in memory (a restart
// forgets them) and are pure over the injected time.
import { TokenBucket } from '../base/token-bucket.js';
import type { UnixMs } from '../engine/types.js';

export const LOCKOUT_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;

interface UserFailures { failedAtMs: UnixMs[]; lockedUntilMs: UnixMs }

/** Past this many tracked names, the ones with nothing left to remember are dropped. */
const SWEEP_ABOVE = 10_000;

/**
 * Names that are not users are counted too, so a lockout does not tell who exists; the per-address
 * throttle bounds how fast they can be added, and the sweep bounds how many are kept.
 */
export class Lockout {
  private readonly users = new Map<string, UserFailures>();

  /** When the user's lock ends, or null when not locked. */
  lockedUntil(user: string, nowMs: UnixMs): UnixMs | null {
    const f = this.users.get(user);
    return f !== undefined && f.lockedUntilMs > nowMs ? f.lockedUntilMs : null;
  }

  /** Counts a failure; returns when the lock ends if this one locked the user. */
  fail(user: string, nowMs: UnixMs): UnixMs | null {
    const f = this.users.get(user) ?? { failedAtMs: [], lockedUntilMs: 0 };
    f.failedAtMs = [...f.failedAtMs.filter((t) => nowMs - t < LOCKOUT_WINDOW_MS), nowMs];
    if (f.failedAtMs.length >= LOCKOUT_FAILURES) {
      f.lockedUntilMs = nowMs + LOCKOUT_MS;
      f.failedAtMs = [];
    }
    this.users.set(user, f);
    if (this.users.size > SWEEP_ABOVE) this.sweep(nowMs);
    return f.lockedUntilMs > nowMs ? f.lockedUntilMs : null;
  }

  /** A successful login forgets the failures before it. */
  succeed(user: string): void { this.users.delete(user); }

  private sweep(nowMs: UnixMs): void {
    for (const [user, f] of this.users) {
      if (f.lockedUntilMs <= nowMs && f.failedAtMs.every((t) => nowMs - t >= LOCKOUT_WINDOW_MS)) this.users.delete(user);
    }
  }
}

/** Login attempts per client address: 20 at once, then one every 3 seconds. */
export const IP_BURST = 20;
export const IP_REFILL_PER_MIN = 20;
const SWEEP_EVERY = 1000;

export class IpThrottle {
  private readonly buckets = new Map<string, TokenBucket>();
  private takes = 0;

  /** 0 when the attempt may go ahead, else the milliseconds until it may. */
  take(ip: string, nowMs: UnixMs): number {
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(nowMs);
    let bucket = this.buckets.get(ip);
    if (bucket === undefined) {
      // TokenBucket counts whole tokens per second; a per-minute rate is a per-second bucket of a
      // 60× longer clock, so its time runs at 1/60 speed.
      bucket = new TokenBucket(IP_REFILL_PER_MIN, IP_BURST, Math.floor(nowMs / 60));
      this.buckets.set(ip, bucket);
    }
    const slowMs = Math.floor(nowMs / 60);
    return bucket.take(slowMs) ? 0 : bucket.waitMs(slowMs) * 60;
  }

  /** Full buckets equal fresh ones: dropping them bounds the memory by the recent addresses. */
  private sweep(nowMs: UnixMs): void {
    const slowMs = Math.floor(nowMs / 60);
    for (const [ip, bucket] of this.buckets) if (bucket.isFull(slowMs)) this.buckets.delete(ip);
  }
}
