// Simulated prices: a seeded random walk per symbol, one step every `tickMs` while the symbol's
// session is open. The walk steps from the latest published quote whatever its source, so a pushed
// price moves the simulation too (DECISIONS "Prices": a pushed quote is a tick like any other).
import type { Quote } from '../../engine/types.js';
import type { CancelTimer, Clock, Scheduler } from '../../base/clock.js';
import { checkMarketSymbol, type MarketSymbol } from '../market-symbol.js';
import { Xoshiro128 } from '../prng.js';
import { compileSession, isSessionOpen, type CompiledSession } from '../../engine/market-session.js';
import { MAX_EXACT_TICKS } from '../ticks.js';
import type { PriceSource, QuoteSink } from './source.js';

const MS_PER_MINUTE = 60_000;

export interface SimulatedOptions {
  readonly symbols: readonly MarketSymbol[];
  readonly seed: number;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
}

/** One step of the walk from `from`: the spread (ask − bid) is kept, bid stays >= 1 (reflected at the bounds). */
export function stepQuote(from: Quote, volatilityTicks: number, rng: Xoshiro128, ts: number): Quote {
  const step = Math.round(volatilityTicks * rng.nextNormal());
  const spread = from.ask - from.bid;
  const inside = (bid: number): boolean => bid >= 1 && bid + spread <= MAX_EXACT_TICKS;
  const bid = inside(from.bid + step) ? from.bid + step : inside(from.bid - step) ? from.bid - step : from.bid;
  return { symbol: from.symbol, bid, ask: bid + spread, ts };
}

interface Walker {
  readonly symbol: MarketSymbol;
  readonly session: CompiledSession;
  readonly volatilityTicks: number;
  readonly rng: Xoshiro128;
  cancel: CancelTimer | null;
}

export class SimulatedSource implements PriceSource {
  readonly kind = 'simulated';
  private readonly walkers: readonly Walker[];
  private sink: QuoteSink | null = null;

  constructor(private readonly options: SimulatedOptions) {
    this.walkers = options.symbols.map((symbol) => {
      checkMarketSymbol(symbol);
      return {
        symbol,
        session: compileSession(symbol.session),
        volatilityTicks: symbol.volatility * 10 ** symbol.digits,
        rng: Xoshiro128.seeded(options.seed, symbol.name),
        cancel: null,
      };
    });
  }

  start(sink: QuoteSink): void {
    if (this.sink) return;
    this.sink = sink;
    for (const walker of this.walkers) this.arm(walker, walker.symbol.tickMs);
  }

  stop(): void {
    this.sink = null;
    for (const walker of this.walkers) {
      walker.cancel?.();
      walker.cancel = null;
    }
  }

  private arm(walker: Walker, delayMs: number): void {
    walker.cancel = this.options.scheduler.schedule(delayMs, () => this.tick(walker));
  }

  private tick(walker: Walker): void {
    const sink = this.sink;
    if (!sink) return;
    const nowMs = this.options.clock.nowMs();
    if (!isSessionOpen(walker.session, nowMs)) {
      // Sessions open and close on whole minutes, so the next minute is the earliest change.
      this.arm(walker, MS_PER_MINUTE - (((nowMs % MS_PER_MINUTE) + MS_PER_MINUTE) % MS_PER_MINUTE));
      return;
    }
    this.arm(walker, walker.symbol.tickMs);
    const { name, bid, ask } = walker.symbol;
    const from = sink.last(name) ?? { symbol: name, bid, ask, ts: nowMs };
    sink.publish(stepQuote(from, walker.volatilityTicks, walker.rng, nowMs));
  }
}
