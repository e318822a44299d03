// Profit, margin and account figures in integer cents (DECISIONS "Orders and positions", "Prices").
// Pure functions over a Instruments so the main thread's read model computes exactly what the engine does.
import { divRound, mulExact, type Ratio } from './exact.js';
import type { Instruments, Instrument } from './instruments.js';
import type { AccountMetrics, Cents, Centilots, PositionRecord, Quote, Side, SymbolSpec, Ticks } from './types.js';

/** Buys fill at ask, sells at bid. */
export function entryPrice(side: Side, quote: Quote): Ticks {
  return side === 'buy' ? quote.ask : quote.bid;
}

/** Buys close at bid, sells at ask. */
export function exitPrice(side: Side, quote: Quote): Ticks {
  return side === 'buy' ? quote.bid : quote.ask;
}

/** Margin is held in the base currency, or in the quote currency for a CFD. */
export function marginCurrency(spec: SymbolSpec): string {
  return spec.baseCurrency ?? spec.quoteCurrency;
}

/**
 * (close − open) × volume × contractSize / 10^digits quote-currency cents (sign by side), times the
 * quote→account rate, rounded once, half away from zero.
 */
export function profitCents(sym: Instrument, side: Side, openPrice: Ticks, closePrice: Ticks, volume: Centilots, rate: Ratio): Cents {
  const move = side === 'buy' ? closePrice - openPrice : openPrice - closePrice;
  const quoteCents = mulExact(mulExact(move, volume), sym.spec.contractSize);
  return divRound(mulExact(quoteCents, rate.num), mulExact(sym.scale, rate.den));
}

/**
 * lots × contractSize / leverage in the base currency, or lots × contractSize × price / leverage in
 * the quote currency for a CFD; times the margin-currency→account rate.
 */
export function marginCents(sym: Instrument, volume: Centilots, price: Ticks, leverage: number, rate: Ratio): Cents {
  const units = mulExact(volume, sym.spec.contractSize);
  if (sym.spec.baseCurrency !== null) return divRound(mulExact(units, rate.num), mulExact(leverage, rate.den));
  return divRound(mulExact(mulExact(units, price), rate.num), mulExact(mulExact(sym.scale, leverage), rate.den));
}

/** Floating profit at the current quotes; null while the symbol or a conversion leg has no quote. */
export function floatingProfitCents(position: PositionRecord, market: Instruments, accountCurrency: string): Cents | null {
  const sym = market.symbol(position.symbol);
  if (sym === undefined || sym.quote === null) return null;
  const rate = market.profitRate(sym, accountCurrency);
  if (rate === null) return null;
  return profitCents(sym, position.side, position.openPrice, exitPrice(position.side, sym.quote), position.volume, rate);
}

/** Σ floating profit; a position whose profit cannot be priced yet counts 0. */
export function floatingTotalCents(positions: Iterable<PositionRecord>, market: Instruments, accountCurrency: string): Cents {
  let total = 0;
  for (const p of positions) total += floatingProfitCents(p, market, accountCurrency) ?? 0;
  return total;
}

/** equity / margin × 100 with two decimals, 0 while no margin is used. */
export function marginLevel(equity: Cents, margin: Cents): number {
  return margin === 0 ? 0 : divRound(mulExact(equity, 10_000), margin) / 100;
}

export function accountMetrics(
  account: { readonly balance: Cents; readonly margin: Cents; readonly currency: string },
  positions: Iterable<PositionRecord>,
  market: Instruments,
): AccountMetrics {
  const equity = account.balance + floatingTotalCents(positions, market, account.currency);
  return {
    balance: account.balance,
    equity,
    margin: account.margin,
    freeMargin: equity - account.margin,
    marginLevel: marginLevel(equity, account.margin),
  };
}
