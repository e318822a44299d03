// Quote fan-out through uWS pub/sub: one topic per symbol, so a tick is serialised once and uWS
// copies it to every subscriber in C++. Ticks are batched per symbol (tick-batcher.ts): under load
// a frame carries several quotes, `\n`-separated, and uWS merges the publishes of one batch into
// one write per socket.
//
// Slow consumers (DECISIONS: quotes conflated to the latest per symbol): a subscriber whose send
// buffer passes `conflateAtBytes` leaves its topics, so it costs the publishes nothing; the symbols
// that tick meanwhile are remembered, and once its buffer is back under `resumeAtBytes` it gets the
// latest quote of each (one frame) and rejoins the topics. Nothing published is ever lost on the
// way: uWS's maxBackpressure is set above the hard limit, so it never drops a message itself.
// Buffers are looked at on every `drain` and by a sweep every `sweepMs` (a reader that stopped
// reading gets no drain events); a subscriber past `hardLimitBytes` is handed to `overflow`.
import type { TemplatedApp, WebSocket } from 'uWebSockets.js';
import type { Quote, SymbolSpec } from '../../engine/types.js';
import { quoteText } from './messages.js';
import { TickBatcher } from './tick-batcher.js';

/** What the fan-out needs of a connection. */
export interface QuoteOutlet {
  readonly ws: WebSocket<unknown>;
  /** Sends in order with the connection's other messages. */
  push(text: string): void;
  /** uWS buffer plus anything queued and not yet handed to uWS. */
  bufferedBytes(): number;
  /** The buffer passed the hard limit. */
  overflow(bufferedBytes: number): void;
}

export interface FanoutOptions {
  readonly conflateAtBytes: number;
  readonly resumeAtBytes: number;
  readonly hardLimitBytes: number;
  readonly sweepMs: number;
  /** Quotes not sent to conflating subscribers (each gets the latest on resuming); for the metrics. */
  readonly onSkipped?: (quotes: number) => void;
  /** Entering (true) or leaving (false) conflation; for the log. */
  readonly onConflation?: (outlet: QuoteOutlet, conflating: boolean, bufferedBytes: number) => void;
}

interface SymbolEntry {
  readonly name: string;
  readonly topic: string;
  readonly json: string;
  readonly digits: number;
  /** Latest published quote (what a new or recovering subscriber is sent). */
  last: Quote | null;
  /** Conflating subscribers of this symbol. */
  readonly conflating: Set<Subscriber>;
}

interface Subscriber {
  readonly outlet: QuoteOutlet;
  readonly symbols: Set<string>;
  conflating: boolean;
  /** Symbols that ticked while conflating. */
  readonly dirty: Set<string>;
}

export class QuoteFanout {
  private readonly entries = new Map<string, SymbolEntry>();
  private readonly subscribers = new Map<QuoteOutlet, Subscriber>();
  private readonly batcher: TickBatcher;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(
    private readonly app: TemplatedApp,
    symbols: Iterable<SymbolSpec>,
    /** Latest quote per symbol at start (published before the fan-out existed). */
    initial: (symbol: string) => Quote | null,
    private readonly opts: FanoutOptions,
  ) {
    for (const s of symbols) {
      this.entries.set(s.name, { name: s.name, topic: `q:${s.name}`, json: JSON.stringify(s.name), digits: s.digits, last: initial(s.name), conflating: new Set() });
    }
    this.batcher = new TickBatcher((symbol, quotes) => this.publish(this.entries.get(symbol)!, quotes));
    this.sweepTimer = setInterval(() => this.sweep(), opts.sweepMs);
    this.sweepTimer.unref();
  }

  has(symbol: string): boolean { return this.entries.has(symbol); }

  /** Symbols the outlet is subscribed to. */
  symbolsOf(outlet: QuoteOutlet): ReadonlySet<string> { return this.subscribers.get(outlet)?.symbols ?? EMPTY; }

  /** Subscribes to known symbols and pushes the latest quote of each newly added one. */
  add(outlet: QuoteOutlet, symbols: readonly string[]): void {
    let sub = this.subscribers.get(outlet);
    if (!sub) {
      sub = { outlet, symbols: new Set(), conflating: false, dirty: new Set() };
      this.subscribers.set(outlet, sub);
    }
    const latest: string[] = [];
    for (const symbol of symbols) {
      const entry = this.entries.get(symbol);
      if (!entry || sub.symbols.has(symbol)) continue;
      sub.symbols.add(symbol);
      if (sub.conflating) entry.conflating.add(sub);
      else outlet.ws.subscribe(entry.topic);
      // The latest published quote, not the market's latest: a tick of this turn is published at its end.
      if (entry.last) latest.push(quoteText(entry.json, entry.digits, entry.last));
    }
    if (latest.length > 0) outlet.push(latest.join('\n'));
  }

  /** Removes symbols (all of them when null). */
  remove(outlet: QuoteOutlet, symbols: readonly string[] | null): void {
    const sub = this.subscribers.get(outlet);
    if (!sub) return;
    for (const symbol of symbols ?? [...sub.symbols]) {
      const entry = this.entries.get(symbol);
      if (!entry || !sub.symbols.delete(symbol)) continue;
      sub.dirty.delete(symbol);
      if (sub.conflating) entry.conflating.delete(sub);
      else outlet.ws.unsubscribe(entry.topic);
    }
    if (sub.symbols.size === 0) this.subscribers.delete(outlet);
  }

  /** The connection is closed: uWS dropped its topics; forget it. */
  drop(outlet: QuoteOutlet): void {
    const sub = this.subscribers.get(outlet);
    if (!sub) return;
    if (sub.conflating) for (const symbol of sub.symbols) this.entries.get(symbol)?.conflating.delete(sub);
    this.subscribers.delete(outlet);
  }

  onQuote(quote: Quote): void {
    if (this.entries.has(quote.symbol)) this.batcher.add(quote);
  }

  /** The outlet's socket drained some of its buffer. */
  onDrain(outlet: QuoteOutlet): void {
    const sub = this.subscribers.get(outlet);
    if (sub) this.check(sub);
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }

  private publish(entry: SymbolEntry, quotes: readonly Quote[]): void {
    entry.last = quotes[quotes.length - 1]!;
    for (const sub of entry.conflating) sub.dirty.add(entry.name);
    if (entry.conflating.size > 0) this.opts.onSkipped?.(entry.conflating.size * quotes.length);
    if (this.app.numSubscribers(entry.topic) === 0) return;
    const frame = quotes.length === 1
      ? quoteText(entry.json, entry.digits, quotes[0]!)
      : quotes.map((q) => quoteText(entry.json, entry.digits, q)).join('\n');
    this.app.publish(entry.topic, frame, false, false);
  }

  private sweep(): void {
    for (const sub of this.subscribers.values()) this.check(sub);
  }

  private check(sub: Subscriber): void {
    const buffered = sub.outlet.bufferedBytes();
    if (buffered > this.opts.hardLimitBytes) {
      sub.outlet.overflow(buffered);
    } else if (!sub.conflating && buffered > this.opts.conflateAtBytes) {
      this.conflate(sub, buffered);
    } else if (sub.conflating && buffered < this.opts.resumeAtBytes) {
      this.resume(sub, buffered);
    }
  }

  private conflate(sub: Subscriber, buffered: number): void {
    sub.conflating = true;
    for (const symbol of sub.symbols) {
      const entry = this.entries.get(symbol)!;
      sub.outlet.ws.unsubscribe(entry.topic);
      entry.conflating.add(sub);
    }
    this.opts.onConflation?.(sub.outlet, true, buffered);
  }

  private resume(sub: Subscriber, buffered: number): void {
    sub.conflating = false;
    const latest: string[] = [];
    for (const symbol of sub.symbols) {
      const entry = this.entries.get(symbol)!;
      entry.conflating.delete(sub);
      sub.outlet.ws.subscribe(entry.topic);
      if (sub.dirty.has(symbol) && entry.last) latest.push(quoteText(entry.json, entry.digits, entry.last));
    }
    sub.dirty.clear();
    if (latest.length > 0) sub.outlet.push(latest.join('\n'));
    this.opts.onConflation?.(sub.outlet, false, buffered);
  }
}

const EMPTY: ReadonlySet<string> = new Set();
