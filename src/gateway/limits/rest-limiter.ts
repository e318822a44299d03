// The REST limits (spec "Limits", DECISIONS "Rate limits"), all token buckets on the main thread,
// where the key → account binding is known, so no limit decision crosses a thread:
//   read  (GET)                      per key,     the key's rate_limit per second, burst twice that
//   trade (POST/DELETE /orders, …)   per account, 10 per second, burst 20
//   anonymous (failed authentication, unknown routes, refused stream upgrades)
//                                    per client address, 20 per second, burst 40
// Every decision yields the three X-RateLimit headers, plus Retry-After when refused.
import type { UnixMs } from '../../engine/types.js';
import { ApiError } from '../errors.js';
import type { Headers } from '../http.js';
import { TokenBucket, type BucketState } from '../../base/token-bucket.js';

export const REST_LIMITS = {
  readBurstFactor: 2,
  tradePerSec: 10,
  tradeBurst: 20,
  anonymousPerSec: 20,
  anonymousBurst: 40,
} as const;

export interface LimitVerdict {
  readonly allowed: boolean;
  readonly state: BucketState;
  /** Whole seconds, at least 1; null when allowed. */
  readonly retryAfterS: number | null;
  readonly headers: Headers;
}

export function rateLimitHeaders(state: BucketState, retryAfterS: number | null): Headers {
  const headers: [string, string][] = [
    ['x-ratelimit-limit', String(state.limit)],
    ['x-ratelimit-remaining', String(state.remaining)],
    ['x-ratelimit-reset', String(state.resetMs)],
  ];
  if (retryAfterS !== null) headers.push(['retry-after', String(retryAfterS)]);
  return headers;
}

export function rateLimited(verdict: LimitVerdict, what: string): ApiError {
  return new ApiError('rate_limited', `${what}: retry in ${verdict.retryAfterS ?? 1} s`);
}

/** What a call charged to its address's anonymous bucket answers, and the bucket's verdict. */
export interface AnonymousAnswer<E> {
  /** The call's own error, or 429 once the bucket is empty. */
  readonly error: E | ApiError;
  readonly verdict: LimitVerdict;
}

function decide(bucket: TokenBucket, nowMs: UnixMs, take: boolean): LimitVerdict {
  const allowed = !take || bucket.take(nowMs);
  const state = bucket.state(nowMs);
  const retryAfterS = allowed ? null : Math.max(1, Math.ceil(bucket.waitMs(nowMs) / 1000));
  return { allowed, state, retryAfterS, headers: rateLimitHeaders(state, retryAfterS) };
}

/** Buckets by id. A full bucket equals a fresh one, so sweeping full buckets forgets nothing. */
class BucketTable {
  private readonly buckets = new Map<string, TokenBucket>();

  /** The id's bucket; a changed rate (the console edited the key) starts a fresh one. */
  get(id: string, ratePerSec: number, burst: number, nowMs: UnixMs): TokenBucket {
    let bucket = this.buckets.get(id);
    if (bucket === undefined || bucket.ratePerSec !== ratePerSec || bucket.burst !== burst) {
      bucket = new TokenBucket(ratePerSec, burst, nowMs);
      this.buckets.set(id, bucket);
    }
    return bucket;
  }

  sweep(nowMs: UnixMs): void {
    for (const [id, bucket] of this.buckets) if (bucket.isFull(nowMs)) this.buckets.delete(id);
  }

  get size(): number { return this.buckets.size; }
}

export class RestLimiter {
  private readonly keys = new BucketTable();
  private readonly accounts = new BucketTable();
  private readonly addresses = new BucketTable();

  /** A read call of a key whose rate_limit is `ratePerSec`; `take` false only reports. */
  read(keyId: string, ratePerSec: number, nowMs: UnixMs, take = true): LimitVerdict {
    return decide(this.keys.get(keyId, ratePerSec, ratePerSec * REST_LIMITS.readBurstFactor, nowMs), nowMs, take);
  }

  trade(login: string, nowMs: UnixMs, take = true): LimitVerdict {
    return decide(this.accounts.get(login, REST_LIMITS.tradePerSec, REST_LIMITS.tradeBurst, nowMs), nowMs, take);
  }

  anonymous(address: string, nowMs: UnixMs): LimitVerdict {
    return decide(this.addresses.get(address, REST_LIMITS.anonymousPerSec, REST_LIMITS.anonymousBurst, nowMs), nowMs, true);
  }

  /** A call that failed before any key vouched for it (`failure`), charged to its address. */
  unauthenticated<E>(address: string, nowMs: UnixMs, failure: E): AnonymousAnswer<E> {
    const verdict = this.anonymous(address, nowMs);
    return { verdict, error: verdict.allowed ? failure : rateLimited(verdict, 'too many unauthenticated requests from this address') };
  }

  /** Drops full buckets, bounding memory by the clients active in the last few seconds. */
  sweep(nowMs: UnixMs): void {
    this.keys.sweep(nowMs);
    this.accounts.sweep(nowMs);
    this.addresses.sweep(nowMs);
  }

  get bucketCount(): number { return this.keys.size + this.accounts.size + this.addresses.size; }
}
