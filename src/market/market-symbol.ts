// What the market needs to know of a symbol: its digits and session, and where and how fast its
// simulated walk moves. Built from the bootstrap fixture (DECISIONS "Bootstrap fixture").
import type { FixtureSymbol } from '../config/types.js';
import type { SessionSpec, Ticks } from '../engine/types.js';
import { MAX_DIGITS, MAX_EXACT_TICKS, toTicks } from './ticks.js';

export interface MarketSymbol {
  readonly name: string;
  readonly digits: number;
  readonly session: SessionSpec;
  /** The symbol's first quote, and where the walk starts. */
  readonly bid: Ticks;
  readonly ask: Ticks;
  /** Standard deviation of one simulated step in price units (0.0001 at 5 digits = 10 ticks); 0 keeps the price. */
  readonly volatility: number;
  /** Milliseconds between simulated steps. */
  readonly tickMs: number;
}

/** The fixture's decimal prices as ticks; throws naming the field when one is not exact. */
export function marketSymbolOf(s: FixtureSymbol): MarketSymbol {
  const ticks = (field: 'bid' | 'ask'): Ticks => {
    const t = toTicks(s[field], s.digits);
    if (t === null) throw new RangeError(`symbols.${s.name}.${field}: ${s[field]} has more than ${s.digits} decimals`);
    return t;
  };
  return { name: s.name, digits: s.digits, session: s.session, bid: ticks('bid'), ask: ticks('ask'), volatility: s.volatility, tickMs: s.tick_ms };
}

/** Throws a RangeError naming the symbol and field that cannot be priced. */
export function checkMarketSymbol(s: MarketSymbol): void {
  const bad = (what: string): never => { throw new RangeError(`market: ${s.name}: ${what}`); };
  if (!Number.isInteger(s.digits) || s.digits < 0 || s.digits > MAX_DIGITS) bad(`digits must be an integer 0..${MAX_DIGITS}, got ${s.digits}`);
  if (!Number.isSafeInteger(s.bid) || s.bid < 1) bad(`bid must be at least one tick, got ${s.bid}`);
  if (!Number.isSafeInteger(s.ask) || s.ask < s.bid || s.ask > MAX_EXACT_TICKS) bad(`ask must be >= bid, got ${s.ask}`);
  if (!Number.isFinite(s.volatility) || s.volatility < 0) bad(`volatility must be >= 0, got ${s.volatility}`);
  if (!Number.isSafeInteger(s.tickMs) || s.tickMs < 1) bad(`tick_ms must be a positive integer, got ${s.tickMs}`);
}
