// A close as reports show it (webhook fan-out, kill switch): the engine's close result says
// everything, so no caller looks for its event. One object literal per shape: reports hold tens of
// thousands of these.
import type { CloseResult, SymbolSpec } from '../engine/types.js';
import { centilotsToLots, fromTicks } from '../market/ticks.js';
import { money } from './wire.js';

export interface ClosedJson {
  readonly login: string;
  readonly ticket: number;
  readonly status: string;
  readonly profit: number;
  readonly symbol: string;
  readonly side: string;
  readonly source: string;
  /** Volume closed by this close (lots). */
  readonly volume: number;
  readonly close_price: number;
}

export function closedJson(login: string, r: CloseResult, symbols: ReadonlyMap<string, SymbolSpec>): ClosedJson {
  const digits = symbols.get(r.symbol)?.digits ?? 0;
  return {
    login, ticket: r.ticket, status: r.status, profit: money(r.profit), symbol: r.symbol, side: r.side, source: r.source,
    volume: centilotsToLots(r.closedVolume), close_price: fromTicks(r.closePrice, digits),
  };
}
