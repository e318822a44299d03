// The per-webhook signal limit (spec "Limits": 5 signals per 10 seconds, burst 10, window 10 s
// fixed) as the token bucket DECISIONS "Rate limits" asks for: the bucket holds at most 10 tokens
// and starts full; at every fixed 10-second boundary of the clock (:00, :10, :20, …) 5 tokens are
// added, never above 10. A signal takes one token; with none left it is refused until the next
// boundary. So a quiet webhook may send 10 at once, and a busy one 5 per window on average.
import type { UnixMs } from '../../engine/types.js';
import type { Headers } from '../http.js';

export const SIGNALS_PER_WINDOW = 5;
export const SIGNAL_BURST = 10;
export const SIGNAL_WINDOW_MS = 10_000;

export interface SignalLimitVerdict {
  readonly allowed: boolean;
  /** X-RateLimit-* (and Retry-After when refused). */
  readonly headers: Headers;
}

export class SignalBucket {
  private tokens = SIGNAL_BURST;
  private window: number;

  constructor(nowMs: UnixMs) {
    this.window = Math.floor(nowMs / SIGNAL_WINDOW_MS);
  }

  /** Takes a token when there is one. */
  take(nowMs: UnixMs): SignalLimitVerdict {
    this.refill(nowMs);
    const allowed = this.tokens >= 1;
    if (allowed) this.tokens -= 1;
    const headers = this.headers(nowMs);
    if (allowed) return { allowed, headers };
    const retryAfterS = Math.max(1, Math.ceil((this.windowEndMs() - nowMs) / 1000));
    return { allowed, headers: [...headers, ['retry-after', String(retryAfterS)]] };
  }

  /** The headers without taking a token (answers that never reached the limit). */
  peek(nowMs: UnixMs): Headers {
    this.refill(nowMs);
    return this.headers(nowMs);
  }

  private refill(nowMs: UnixMs): void {
    const window = Math.floor(nowMs / SIGNAL_WINDOW_MS);
    if (window <= this.window) return;
    this.tokens = Math.min(SIGNAL_BURST, this.tokens + (window - this.window) * SIGNALS_PER_WINDOW);
    this.window = window;
  }

  private windowEndMs(): UnixMs { return (this.window + 1) * SIGNAL_WINDOW_MS; }

  /** DECISIONS: Limit = rate per window, Remaining = whole tokens, Reset = when the bucket is full again. */
  private headers(nowMs: UnixMs): Headers {
    const missing = SIGNAL_BURST - this.tokens;
    const fullAtMs = missing === 0 ? nowMs : this.windowEndMs() + (Math.ceil(missing / SIGNALS_PER_WINDOW) - 1) * SIGNAL_WINDOW_MS;
    return [
      ['x-ratelimit-limit', String(SIGNALS_PER_WINDOW)],
      ['x-ratelimit-remaining', String(this.tokens)],
      ['x-ratelimit-reset', String(fullAtMs)],
    ];
  }
}

/** One bucket per webhook, made on first use. */
export class SignalLimits {
  private readonly buckets = new Map<string, SignalBucket>();

  bucket(webhookId: string, nowMs: UnixMs): SignalBucket {
    let b = this.buckets.get(webhookId);
    if (b === undefined) { b = new SignalBucket(nowMs); this.buckets.set(webhookId, b); }
    return b;
  }
}
