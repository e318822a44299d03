// Engine records as the JSON the spec promises: decimal prices and lots, ISO 8601 UTC times with
// milliseconds. Integers are divided by powers of ten only here, at the edge; an integer divided
// by 10^d is the double nearest the decimal, which JSON prints as that decimal.
import type { Cents, CloseResult, OrderRecord, SymbolSpec, UnixMs } from '../engine/types.js';
import { centilotsToLots as lots, fromTicks } from '../market/ticks.js';

export const money = (cents: Cents): number => cents / 100;
export const iso = (ms: UnixMs): string => new Date(ms).toISOString();

export interface OrderJson {
  id: string;
  login: string;
  symbol: string;
  side: string;
  type: string;
  status: string;
  price: number;
  volume: number;
  ticket: number | null;
  source: string;
  key_id?: string;
  client_id?: string;
  sl: number | null;
  tp: number | null;
  created_at: string;
  filled_at: string | null;
  reason?: string;
}

export function orderJson(o: OrderRecord, symbol: SymbolSpec): OrderJson {
  const d = symbol.digits;
  const out: OrderJson = {
    id: o.id,
    login: o.login,
    symbol: o.symbol,
    side: o.side,
    type: o.type,
    status: o.status,
    price: fromTicks(o.price, d),
    volume: lots(o.volume),
    ticket: o.ticket,
    source: o.source,
    sl: o.sl === null ? null : fromTicks(o.sl, d),
    tp: o.tp === null ? null : fromTicks(o.tp, d),
    created_at: iso(o.createdAt),
    filled_at: o.filledAt === null ? null : iso(o.filledAt),
  };
  if (o.source === 'api' && o.keyId !== null) out.key_id = o.keyId;
  if (o.clientId !== null) out.client_id = o.clientId;
  if (o.reason !== null) out.reason = o.reason;
  return out;
}

export function closeJson(r: CloseResult, symbol: SymbolSpec): { ticket: number; status: string; close_price: number; profit: number; volume: number } {
  return { ticket: r.ticket, status: r.status, close_price: fromTicks(r.closePrice, symbol.digits), profit: money(r.profit), volume: lots(r.volume) };
}
