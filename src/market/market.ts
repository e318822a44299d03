// The main thread's market: owns the quote board and the price sources, and for every tick writes
// the board first (so a subscriber reading the board sees the tick) and then calls each subscriber
// synchronously (the shard router, the WebSocket fan-out). Each symbol is priced by one source
// (`prices.source`, or its entry in `prices.symbols`); pushes work for every symbol in every mode.
import type { Quote } from '../engine/types.js';
import type { Clock, Scheduler } from '../base/clock.js';
import { PushSource, type PushInput, type PushResult } from './feeds/push.js';
import { loadReplayFile } from './feeds/replay-file.js';
import { ReplaySource, type ReplaySpeed } from './feeds/replay.js';
import { SimulatedSource } from './feeds/simulated.js';
import type { PriceSource, PriceSourceKind, QuoteSink } from './feeds/source.js';
import { checkMarketSymbol, type MarketSymbol } from './market-symbol.js';
import { QuoteBoard, type QuoteBoardWriter } from './quote-board.js';

/** Config key `prices` (snake_case as in JSON). */
export interface PricesConfig {
  readonly source: PriceSourceKind;
  /** Seed of the simulated walks: the same seed and fixture give the same prices. */
  readonly seed: number;
  /** CSV for `replay` (ts,symbol,bid,ask). */
  readonly file: string | null;
  /** Replay rate (1 = as recorded) or 'max'. */
  readonly speed: ReplaySpeed;
  /** Per-symbol override of `source`. */
  readonly symbols?: Readonly<Record<string, PriceSourceKind>>;
}

export interface MarketOptions {
  readonly symbols: readonly MarketSymbol[];
  readonly prices: PricesConfig;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** Receives whatever a subscriber throws; the tick still reaches the other subscribers. */
  readonly onSubscriberError: (error: unknown, quote: Quote) => void;
  /**
   * In a cluster, where one node prices each symbol for all: every quote this market makes (its
   * sources while it prices, pushes always) goes here instead of the board, and comes back to
   * every node's market through accept().
   */
  readonly relay?: (quote: Quote) => void;
}

export type QuoteListener = (quote: Quote) => void;

type State = 'new' | 'running' | 'stopped';

/** Which source prices each symbol; throws naming the config key that is wrong. */
function assignSources(symbols: readonly MarketSymbol[], prices: PricesConfig): Map<string, PriceSourceKind> {
  const assigned = new Map(symbols.map((s) => [s.name, prices.source] as const));
  for (const [name, kind] of Object.entries(prices.symbols ?? {})) {
    if (!assigned.has(name)) throw new RangeError(`prices.symbols.${name}: not a configured symbol`);
    assigned.set(name, kind);
  }
  return assigned;
}

export class Market {
  readonly board: QuoteBoardWriter;
  /** Settles when the replay has published its last row (or was stopped); null without a replay. */
  readonly replayDone: Promise<void> | null;
  private readonly latest: (Quote | null)[];
  private readonly pushSource: PushSource;
  private readonly sources: readonly PriceSource[];
  private listeners: readonly QuoteListener[] = [];
  private state: State = 'new';
  private readonly sink: QuoteSink;
  private pricing = false;

  /** Builds the market, reading and validating the replay file first when a symbol is replayed. */
  static async open(options: MarketOptions): Promise<Market> {
    const assigned = assignSources(options.symbols, options.prices);
    const replayed = options.symbols.filter((s) => assigned.get(s.name) === 'replay');
    if (replayed.length === 0) return new Market(options, assigned, null);
    if (options.prices.file === null) throw new RangeError('prices.file: required when a symbol is priced by replay');
    const tape = await loadReplayFile(options.prices.file, new Map(replayed.map((s) => [s.name, s.digits])));
    const replay = new ReplaySource({ tape, speed: options.prices.speed, clock: options.clock, scheduler: options.scheduler });
    return new Market(options, assigned, replay);
  }

  private constructor(private readonly options: MarketOptions, private readonly assigned: ReadonlyMap<string, PriceSourceKind>, replay: ReplaySource | null) {
    options.symbols.forEach(checkMarketSymbol);
    this.board = QuoteBoard.create(options.symbols.map((s) => s.name));
    this.latest = options.symbols.map(() => null);
    this.pushSource = new PushSource(new Map(options.symbols.map((s) => [s.name, s.digits])), options.clock);
    const simulated = options.symbols.filter((s) => assigned.get(s.name) === 'simulated');
    const sources: PriceSource[] = [this.pushSource];
    if (simulated.length > 0) {
      sources.push(new SimulatedSource({ symbols: simulated, seed: options.prices.seed, clock: options.clock, scheduler: options.scheduler }));
    }
    if (replay) sources.push(replay);
    this.sources = sources;
    this.replayDone = replay ? replay.done : null;
    const relay = options.relay;
    this.sink = { publish: relay === undefined ? (q) => this.publish(q) : relay, last: (s) => this.last(s) };
  }

  sourceOf(symbol: string): PriceSourceKind | null {
    return this.assigned.get(symbol) ?? null;
  }

  /** Called with every tick, synchronously, after the board holds it. Returns the unsubscribe. */
  subscribe(listener: QuoteListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => { this.listeners = this.listeners.filter((l) => l !== listener); };
  }

  /**
   * Publishes every symbol's configured quote (stamped now), then starts the sources. Once only.
   * With a relay, only pushes start: the node that prices the cluster calls price(true).
   */
  start(): void {
    if (this.state !== 'new') throw new Error(`market: cannot start a ${this.state} market`);
    this.state = 'running';
    this.pushSource.start(this.sink);
    if (this.options.relay === undefined) this.price(true);
  }

  /** Runs (or stops) the price sources; a symbol without a quote yet starts at its configured one. */
  price(on: boolean): void {
    if (on === this.pricing || this.state !== 'running') return;
    this.pricing = on;
    if (!on) {
      for (const source of this.sources) if (source !== this.pushSource) source.stop();
      return;
    }
    const nowMs = this.options.clock.nowMs();
    for (const s of this.options.symbols) if (this.last(s.name) === null) this.sink.publish({ symbol: s.name, bid: s.bid, ask: s.ask, ts: nowMs });
    for (const source of this.sources) if (source !== this.pushSource) source.start(this.sink);
  }

  /** A quote the cluster's pricing node made (through the relay): a tick like any other here, unless older than the last. */
  accept(quote: Quote): void {
    const i = this.board.indexOf(quote.symbol);
    if (i >= 0 && quote.ts >= (this.latest[i]?.ts ?? 0)) this.publish(quote);
  }

  stop(): void {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    for (const source of this.sources) source.stop();
  }

  /** A quote from outside (console). Invalid input changes nothing and says which field is wrong. */
  push(input: PushInput): PushResult {
    return this.pushSource.push(input);
  }

  last(symbol: string): Quote | null {
    const i = this.board.indexOf(symbol);
    return i < 0 ? null : this.latest[i] ?? null;
  }

  private publish(quote: Quote): void {
    const i = this.board.indexOf(quote.symbol);
    this.board.writeAt(i, quote.bid, quote.ask, quote.ts);
    this.latest[i] = quote;
    for (const listener of this.listeners) {
      try {
        listener(quote);
      } catch (error) {
        this.options.onSubscriberError(error, quote);
      }
    }
  }
}
