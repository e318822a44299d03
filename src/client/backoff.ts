// Reconnect delays: exponential with "equal jitter" (half the capped delay fixed, half random), so
// a fleet of clients cut off together does not come back in lockstep, and none retries at once.

export interface BackoffOptions {
  /** First delay's cap (default 250 ms). */
  readonly initialMs?: number;
  /** Largest delay (default 30 s). */
  readonly maxMs?: number;
  /** Growth per attempt (default 2). */
  readonly factor?: number;
}

export class Backoff {
  private attempt = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;

  constructor(opts: BackoffOptions = {}, private readonly random: () => number = Math.random) {
    this.initialMs = opts.initialMs ?? 250;
    this.maxMs = opts.maxMs ?? 30_000;
    this.factor = opts.factor ?? 2;
    if (!(this.initialMs > 0 && this.maxMs >= this.initialMs && this.factor >= 1)) {
      throw new RangeError('backoff needs 0 < initialMs <= maxMs and factor >= 1');
    }
  }

  /** Attempts since the last reset. */
  get attempts(): number { return this.attempt; }

  /** The delay before the next attempt. */
  next(): number {
    const cap = Math.min(this.maxMs, this.initialMs * this.factor ** this.attempt);
    this.attempt++;
    return Math.round(cap / 2 + this.random() * (cap / 2));
  }

  reset(): void { this.attempt = 0; }
}
