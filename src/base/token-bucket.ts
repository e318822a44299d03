// A token bucket (DECISIONS "Rate limits"): `ratePerSec` tokens refill every second, up to `burst`.
// Pure: time comes in as Unix ms, so tests drive it with an injected clock.
//
// Exact integer arithmetic: one token is 1000 units, so a rate of r tokens/s refills exactly r
// units per elapsed millisecond. Rates and times are integers, so the level is always an integer
// number of units and never drifts the way accumulated float fractions would.
import type { UnixMs } from '../engine/types.js';

export const UNITS_PER_TOKEN = 1000;

/** What the three X-RateLimit headers report. */
export interface BucketState {
  /** Tokens per second (the window is one second). */
  readonly limit: number;
  /** Whole tokens left. */
  readonly remaining: number;
  /** Unix ms when the bucket is full again (now, when it is full). */
  readonly resetMs: UnixMs;
}

export class TokenBucket {
  private units: number;
  private atMs: UnixMs;

  constructor(readonly ratePerSec: number, readonly burst: number, nowMs: UnixMs) {
    if (!Number.isSafeInteger(ratePerSec) || ratePerSec < 1) throw new RangeError(`rate must be a positive integer, got ${ratePerSec}`);
    if (!Number.isSafeInteger(burst) || burst < 1) throw new RangeError(`burst must be a positive integer, got ${burst}`);
    this.units = burst * UNITS_PER_TOKEN;
    this.atMs = nowMs;
  }

  private get capacity(): number { return this.burst * UNITS_PER_TOKEN; }

  /** A clock that steps back refills nothing (and never drains). */
  private refill(nowMs: UnixMs): void {
    if (nowMs <= this.atMs) return;
    this.units = Math.min(this.capacity, this.units + (nowMs - this.atMs) * this.ratePerSec);
    this.atMs = nowMs;
  }

  /** Takes one token if there is one. */
  take(nowMs: UnixMs): boolean {
    this.refill(nowMs);
    if (this.units < UNITS_PER_TOKEN) return false;
    this.units -= UNITS_PER_TOKEN;
    return true;
  }

  state(nowMs: UnixMs): BucketState {
    this.refill(nowMs);
    return {
      limit: this.ratePerSec,
      remaining: Math.floor(this.units / UNITS_PER_TOKEN),
      resetMs: this.atMs + Math.ceil((this.capacity - this.units) / this.ratePerSec),
    };
  }

  /** Milliseconds until one token is available (0 when one is). */
  waitMs(nowMs: UnixMs): number {
    this.refill(nowMs);
    return this.units >= UNITS_PER_TOKEN ? 0 : Math.ceil((UNITS_PER_TOKEN - this.units) / this.ratePerSec);
  }

  /** Full now: indistinguishable from a fresh bucket, so a keeper may drop it. */
  isFull(nowMs: UnixMs): boolean {
    this.refill(nowMs);
    return this.units === this.capacity;
  }
}
