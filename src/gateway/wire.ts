// Engine records as the JSON the spec promises: decimal prices and lots, ISO 8601 UTC times with
// milliseconds. Integers are divided by powers of ten only here, at the edge; an integer divided
// by 10^d is the double nearest the decimal, which JSON prints as that decimal.
import type {
  AccountMetrics, AccountRecord, Cents, CloseManyResult, CloseResult, FieldChange, OrderRecord, PositionRecord, SymbolSpec, UnixMs,
} from '../engine/types.js';
import { HTTP_STATUS } from './errors.js';
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

/** An amend's changes in wire units: prices in the symbol's decimals, volume in lots. */
export interface ChangeJson { field: FieldChange['field']; from: number | null; to: number | null }

export function amendedJson(changes: readonly FieldChange[], symbol: SymbolSpec): ChangeJson[] {
  const unit = (field: FieldChange['field'], v: number | null): number | null => {
    if (v === null) return null;
    return field === 'volume' ? lots(v) : fromTicks(v, symbol.digits);
  };
  return changes.map((c) => ({ field: c.field, from: unit(c.field, c.from), to: unit(c.field, c.to) }));
}

export function closeJson(r: CloseResult, symbol: SymbolSpec): { ticket: number; status: string; close_price: number; profit: number; volume: number } {
  return { ticket: r.ticket, status: r.status, close_price: fromTicks(r.closePrice, symbol.digits), profit: money(r.profit), volume: lots(r.volume) };
}

/** One position of a close-all: how it closed, or why it could not. */
export type CloseItemJson =
  | { ticket: number; symbol: string; status: 'closed'; close_price: number; profit: number; volume: number }
  | { ticket: number; symbol: string; status: 'failed'; error: { code: number; name: string; message: string; field?: string } };

export function closeManyJson(r: CloseManyResult, symbols: ReadonlyMap<string, SymbolSpec>, symbolOfTicket: (ticket: number) => string): CloseItemJson[] {
  const spec = (name: string): SymbolSpec => {
    const s = symbols.get(name);
    if (s === undefined) throw new Error(`position on unconfigured symbol ${name}`);
    return s;
  };
  const closed: CloseItemJson[] = r.closed.map((c) => ({
    ticket: c.ticket, symbol: c.symbol, status: 'closed', close_price: fromTicks(c.closePrice, spec(c.symbol).digits), profit: money(c.profit), volume: lots(c.closedVolume),
  }));
  const failed: CloseItemJson[] = r.failed.map(({ ticket, reject }) => {
    const error: { code: number; name: string; message: string; field?: string } = { code: HTTP_STATUS[reject.name], name: reject.name, message: reject.message };
    if (reject.field !== undefined) error.field = reject.field;
    return { ticket, symbol: symbolOfTicket(ticket), status: 'failed', error };
  });
  return [...closed, ...failed].sort((a, b) => a.ticket - b.ticket);
}

export interface PositionJson {
  ticket: number;
  login: string;
  symbol: string;
  side: string;
  volume: number;
  open_price: number;
  sl: number | null;
  tp: number | null;
  /** Floating profit in the account currency; null only while the symbol cannot be priced. */
  profit: number | null;
  source: string;
  key_id?: string;
  opened_at: string;
}

export function positionJson(p: PositionRecord, symbol: SymbolSpec, profit: Cents | null): PositionJson {
  const d = symbol.digits;
  const out: PositionJson = {
    ticket: p.ticket,
    login: p.login,
    symbol: p.symbol,
    side: p.side,
    volume: lots(p.volume),
    open_price: fromTicks(p.openPrice, d),
    sl: p.sl === null ? null : fromTicks(p.sl, d),
    tp: p.tp === null ? null : fromTicks(p.tp, d),
    profit: profit === null ? null : money(profit),
    source: p.source,
    opened_at: iso(p.openedAt),
  };
  if (p.source === 'api' && p.keyId !== null) out.key_id = p.keyId;
  return out;
}

/** Each position's JSON around its profit; a record never changes (a change is a new record). */
const positionTextParts = new WeakMap<PositionRecord, { readonly head: string; readonly tail: string }>();
const PROFIT_NULL = '"profit":null';

/**
 * `JSON.stringify(positionJson(p, symbol, profit))`, serialising everything but the profit once
 * per record. `"profit":` can only occur as the key: inside a JSON string a quote is escaped.
 */
export function positionJsonText(p: PositionRecord, symbol: SymbolSpec, profit: Cents | null): string {
  let parts = positionTextParts.get(p);
  if (parts === undefined) {
    const text = JSON.stringify(positionJson(p, symbol, null));
    const at = text.indexOf(PROFIT_NULL) + PROFIT_NULL.length - 'null'.length;
    parts = { head: text.slice(0, at), tail: text.slice(at + 'null'.length) };
    positionTextParts.set(p, parts);
  }
  // String() of a finite number is its JSON text.
  return parts.head + (profit === null ? 'null' : String(money(profit))) + parts.tail;
}

/** GET /accounts list item (spec "Account"), with free margin and margin level besides. */
export function accountItemJson(a: AccountRecord, m: AccountMetrics) {
  return {
    login: a.login,
    type: a.type,
    group: a.group,
    currency: a.currency,
    balance: money(m.balance),
    equity: money(m.equity),
    margin: money(m.margin),
    free_margin: money(m.freeMargin),
    margin_level: m.marginLevel,
    leverage: a.leverage,
  };
}

/** GET /accounts/{login}: the spec's detail fields first, then the list item's. */
export function accountDetailJson(a: AccountRecord, m: AccountMetrics) {
  return {
    login: a.login,
    server: a.server,
    equity: money(m.equity),
    free_margin: money(m.freeMargin),
    margin_level: m.marginLevel,
    balance: money(m.balance),
    margin: money(m.margin),
    currency: a.currency,
    leverage: a.leverage,
    type: a.type,
    group: a.group,
  };
}
