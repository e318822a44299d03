// The one interface every price source implements; the Market is the sink of all of them.
import type { Quote } from '../../engine/types.js';

export type PriceSourceKind = 'simulated' | 'replay' | 'push';

export interface QuoteSink {
  /** Publishes a valid quote (bid >= 1, ask >= bid, integer ticks) to the board and subscribers. */
  publish(quote: Quote): void;
  /** The latest published quote of `symbol` from any source, or null. */
  last(symbol: string): Quote | null;
}

export interface PriceSource {
  readonly kind: PriceSourceKind;
  /** Begins emitting into `sink`. Never publishes synchronously from inside start(). */
  start(sink: QuoteSink): void;
  /** Disarms every timer; nothing is published after it returns. Idempotent. */
  stop(): void;
}
