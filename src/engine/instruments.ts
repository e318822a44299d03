// The symbol table, the last quote per symbol, each symbol's compiled trading session, and the
// currency conversion routes (DECISIONS "Prices": through the quote of the matching pair). Shared by
// the engine and the main thread's read model; it holds quotes but never reads a clock.
import { compileSession, isSessionOpen, SessionSpecError, type CompiledSession } from './market-session.js';
import { describe, EngineInitError, isRecord, symbolSpecProblem } from './checks.js';
import { mulExact, RATIO_ONE, type ExactInt, type Ratio } from './exact.js';
import type { Quote, SymbolSpec, UnixMs } from './types.js';

export interface Instrument {
  readonly spec: SymbolSpec;
  readonly session: CompiledSession;
  /** 10^digits: ticks per price unit. */
  readonly scale: number;
  quote: Quote | null;
  /** Conversion routes into each account currency seen so far (see Instruments.routesFor). */
  readonly routes: Map<string, SymbolRoutes>;
}

/** How a symbol's margin and profit reach one account currency; null = no route. */
export interface SymbolRoutes { readonly margin: Route | null; readonly profit: Route | null }

/** One conversion step through a pair's quote: from→to pair × bid, to→from pair ÷ ask. */
interface RouteLeg { readonly via: Instrument; readonly multiply: boolean }
/** Empty when both currencies are the same. */
export type Route = readonly RouteLeg[];

const CROSS_CURRENCY = 'USD';

export class Instruments {
  readonly specs: readonly SymbolSpec[];
  private readonly bySymbol = new Map<string, Instrument>();
  /** "BASE/QUOTE" → the first symbol trading that pair. */
  private readonly pairs = new Map<string, Instrument>();
  private readonly routes = new Map<string, Map<string, Route | null>>();
  private version = 0;

  /** Throws EngineInitError on an invalid or repeated symbol spec. */
  constructor(specs: readonly SymbolSpec[]) {
    this.specs = specs;
    for (const spec of specs) {
      const problem = symbolSpecProblem(spec);
      if (problem !== null) throw new EngineInitError(`symbol ${describe(isRecord(spec) ? spec.name : spec)}: ${problem}`);
      if (this.bySymbol.has(spec.name)) throw new EngineInitError(`symbol ${spec.name} is listed twice`);
      let session: CompiledSession;
      try {
        session = compileSession(spec.session);
      } catch (err) {
        if (err instanceof SessionSpecError) throw new EngineInitError(`symbol ${spec.name}: session ${err.field}: ${err.message}`);
        throw err;
      }
      const sym: Instrument = { spec, session, scale: 10 ** spec.digits, quote: null, routes: new Map() };
      this.bySymbol.set(spec.name, sym);
      if (spec.baseCurrency !== null) {
        const pair = `${spec.baseCurrency}/${spec.quoteCurrency}`;
        if (!this.pairs.has(pair)) this.pairs.set(pair, sym);
      }
    }
  }

  symbol(name: string): Instrument | undefined {
    return this.bySymbol.get(name);
  }

  quote(name: string): Quote | null {
    return this.bySymbol.get(name)?.quote ?? null;
  }

  /** False (and nothing stored) for an unknown symbol. */
  setQuote(quote: Quote): boolean {
    const sym = this.bySymbol.get(quote.symbol);
    if (sym === undefined) return false;
    // A quote at the same prices leaves every price-derived value as it was (floating profit,
    // equity): their caches stay valid, and a stop-out check after it is O(accounts), not
    // O(positions) (a feed repeating its prices, or a symbol with volatility 0).
    const moved = sym.quote === null || sym.quote.bid !== quote.bid || sym.quote.ask !== quote.ask;
    sym.quote = quote;
    if (moved) this.version++;
    return true;
  }

  /** Changes with every change of a price: a value computed from quotes at one version holds until it changes. */
  get quoteVersion(): number {
    return this.version;
  }

  isOpen(sym: Instrument, nowMs: UnixMs): boolean {
    return isSessionOpen(sym.session, nowMs);
  }

  /** How to convert `from` into `to`: same currency, one pair, or two pairs crossed through USD. */
  route(from: string, to: string): Route | null {
    let byTarget = this.routes.get(from);
    if (byTarget === undefined) {
      byTarget = new Map();
      this.routes.set(from, byTarget);
    }
    let route = byTarget.get(to);
    if (route === undefined) {
      route = this.findRoute(from, to);
      byTarget.set(to, route);
    }
    return route;
  }

  /** The conversion factor of a route at the current quotes; null while a leg has no quote. */
  rate(route: Route): Ratio | null {
    if (route.length === 0) return RATIO_ONE;
    let num: ExactInt = 1;
    let den: ExactInt = 1;
    for (const leg of route) {
      const q = leg.via.quote;
      if (q === null) return null;
      if (leg.multiply) {
        num = mulExact(num, q.bid);
        den = mulExact(den, leg.via.scale);
      } else {
        num = mulExact(num, leg.via.scale);
        den = mulExact(den, q.ask);
      }
    }
    return { num, den };
  }

  /** The margin (base or quote currency) and profit (quote currency) routes into `currency`. */
  routesFor(sym: Instrument, currency: string): SymbolRoutes {
    let routes = sym.routes.get(currency);
    if (routes === undefined) {
      routes = { margin: this.route(sym.spec.baseCurrency ?? sym.spec.quoteCurrency, currency), profit: this.route(sym.spec.quoteCurrency, currency) };
      sym.routes.set(currency, routes);
    }
    return routes;
  }

  /** Quote currency → `currency` at the current quotes. */
  profitRate(sym: Instrument, currency: string): Ratio | null {
    const route = this.routesFor(sym, currency).profit;
    return route === null ? null : this.rate(route);
  }

  private findRoute(from: string, to: string): Route | null {
    if (from === to) return [];
    const direct = this.leg(from, to);
    if (direct !== null) return [direct];
    if (from === CROSS_CURRENCY || to === CROSS_CURRENCY) return null;
    const first = this.leg(from, CROSS_CURRENCY);
    const second = this.leg(CROSS_CURRENCY, to);
    return first !== null && second !== null ? [first, second] : null;
  }

  private leg(from: string, to: string): RouteLeg | null {
    const forward = this.pairs.get(`${from}/${to}`);
    if (forward !== undefined) return { via: forward, multiply: true };
    const inverse = this.pairs.get(`${to}/${from}`);
    return inverse === undefined ? null : { via: inverse, multiply: false };
  }
}
