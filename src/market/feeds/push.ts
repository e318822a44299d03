// Quotes pushed by a caller (the console's POST /console/api/quotes {symbol,bid,ask}). Decimal
// prices become ticks exactly; a price with more decimals than the symbol's digits is refused, not
// rounded. A valid push is published like any other tick.
import type { Quote, Ticks } from '../../engine/types.js';
import type { Clock } from '../../base/clock.js';
import { toTicks } from '../ticks.js';
import type { PriceSource, QuoteSink } from './source.js';

/** The request body as received: anything, validated here. */
export interface PushInput { readonly symbol?: unknown; readonly bid?: unknown; readonly ask?: unknown }

export type PushResult =
  | { readonly ok: true; readonly quote: Quote }
  /** `field` null: the input was fine but the market is not running. */
  | { readonly ok: false; readonly field: 'symbol' | 'bid' | 'ask' | null; readonly message: string };

export class PushSource implements PriceSource {
  readonly kind = 'push';
  private sink: QuoteSink | null = null;

  /** `digitsBySymbol`: every symbol a push may price. */
  constructor(private readonly digitsBySymbol: ReadonlyMap<string, number>, private readonly clock: Clock) {}

  start(sink: QuoteSink): void {
    this.sink = sink;
  }

  stop(): void {
    this.sink = null;
  }

  push(input: PushInput): PushResult {
    const { symbol, bid, ask } = input;
    if (typeof symbol !== 'string') return { ok: false, field: 'symbol', message: 'symbol must be a string' };
    const digits = this.digitsBySymbol.get(symbol);
    if (digits === undefined) return { ok: false, field: 'symbol', message: `unknown symbol ${JSON.stringify(symbol)}` };
    const bidTicks = priceTicks(bid, digits);
    if (bidTicks === null) return { ok: false, field: 'bid', message: `bid must be a positive number with at most ${digits} decimals` };
    const askTicks = priceTicks(ask, digits);
    if (askTicks === null) return { ok: false, field: 'ask', message: `ask must be a positive number with at most ${digits} decimals` };
    if (askTicks < bidTicks) return { ok: false, field: 'ask', message: 'ask must not be below bid' };
    const sink = this.sink;
    if (!sink) return { ok: false, field: null, message: 'the market is not running' };
    const quote: Quote = { symbol, bid: bidTicks, ask: askTicks, ts: this.clock.nowMs() };
    sink.publish(quote);
    return { ok: true, quote };
  }
}

function priceTicks(value: unknown, digits: number): Ticks | null {
  if (typeof value !== 'number') return null;
  const ticks = toTicks(value, digits);
  return ticks !== null && ticks >= 1 ? ticks : null;
}
