// A QuoteSink that keeps what it is given, in order, and answers `last` from it like the Market.
import type { Quote } from '../../../src/engine/types.js';
import type { QuoteSink } from '../../../src/market/feeds/source.js';

export class RecordingSink implements QuoteSink {
  readonly quotes: Quote[] = [];
  private readonly latest = new Map<string, Quote>();

  publish(quote: Quote): void {
    this.quotes.push(quote);
    this.latest.set(quote.symbol, quote);
  }

  last(symbol: string): Quote | null {
    return this.latest.get(symbol) ?? null;
  }

  of(symbol: string): Quote[] {
    return this.quotes.filter((q) => q.symbol === symbol);
  }
}
