// The server's stream messages (spec "Events", DECISIONS "WebSocket messages"): one JSON object
// each, with `channel` first. Prices, lots and money leave the integer units here, at the edge.
import type { AccountMetrics, AccountRecord, Cents, EngineEvent, OrderRecord, PositionEvent, PositionRecord, Quote, SymbolSpec, UnixMs } from '../../engine/types.js';
import { centilotsToLots, fromTicks } from '../../market/ticks.js';
import type { ErrorName } from '../errors.js';
import { amendedJson, money, orderJson, positionJson, positionJsonText, type ChangeJson, type PositionJson } from '../wire.js';
import type { Channel, OpId } from './ops.js';

/** Error names a stream op can get (DECISIONS: bad_request, forbidden, not_found, rate_limited). */
export type StreamErrorName = Extract<ErrorName, 'bad_request' | 'forbidden' | 'not_found' | 'rate_limited'>;

/** A refused op, on its way to the client as an `error` message; the connection stays open. */
export class StreamError extends Error {
  constructor(readonly errorName: StreamErrorName, message: string, readonly field?: string, readonly extra?: Readonly<Record<string, unknown>>) {
    super(message);
  }
}

/**
 * Quote text built by hand: this runs once per tick on the hot path. Numbers print exactly as
 * JSON.stringify prints them; `symbolJson` is the symbol name already JSON-quoted.
 */
export function quoteText(symbolJson: string, digits: number, q: Quote): string {
  return `{"channel":"quote","symbol":${symbolJson},"bid":${fromTicks(q.bid, digits)},"ask":${fromTicks(q.ask, digits)},"ts":${q.ts}}`;
}

/** What message building needs to know about the present: symbols and the floating profit now. */
export interface Pricing {
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  floatingProfit(position: PositionRecord): Cents | null;
}

function specOf(pricing: Pricing, symbol: string): SymbolSpec {
  const spec = pricing.symbols.get(symbol);
  if (!spec) throw new Error(`event on unknown symbol ${symbol}`);
  return spec;
}

/**
 * An order or position event. `volume` of a close is the closed volume and of a partial close the
 * volume left open (with `closed_volume`); `profit` of a close is realised, of an open position
 * floating at the time the message is built.
 */
export function eventText(e: EngineEvent, pricing: Pricing): string {
  if (e.type === 'order') {
    const spec = specOf(pricing, e.order.symbol);
    const amended = e.amended === undefined ? {} : { amended: amendedJson(e.amended, spec) };
    return JSON.stringify({ channel: 'order', ...orderJson(e.order, spec), ...amended, seq: e.seq, ts: e.ts });
  }
  return JSON.stringify({ channel: 'position', ...positionEventFields(e, pricing), seq: e.seq, ts: e.ts });
}

/** A position message: the REST position object plus its status and, on closes, how it closed. */
interface PositionEventJson extends PositionJson {
  status: string;
  close_price?: number;
  closed_volume?: number;
  reason?: string;
  amended?: ChangeJson[];
}

function positionEventFields(e: PositionEvent, pricing: Pricing): PositionEventJson {
  const spec = specOf(pricing, e.position.symbol);
  const profit = e.status === 'open' ? pricing.floatingProfit(e.position) : e.profit;
  // Adding the field to the fresh object: a spread into a literal that adds keys costs ~1 µs in V8.
  const out: PositionEventJson = Object.assign(positionJson(e.position, spec, profit), { status: e.status });
  if (e.closePrice !== null) out.close_price = fromTicks(e.closePrice, spec.digits);
  if (e.closedVolume !== null && e.status === 'partially_closed') out.closed_volume = centilotsToLots(e.closedVolume);
  if (e.reason !== null) out.reason = e.reason;
  if (e.amended !== undefined) out.amended = amendedJson(e.amended, spec);
  return out;
}

/** The JSON of an open position in a snapshot: floating profit as of now. */
export function snapshotPositionText(p: PositionRecord, pricing: Pricing): string {
  return positionJsonText(p, specOf(pricing, p.symbol), pricing.floatingProfit(p));
}

export function snapshotOrderText(o: OrderRecord, pricing: Pricing): string {
  return JSON.stringify(orderJson(o, specOf(pricing, o.symbol)));
}

interface SnapshotHead { readonly login: string; readonly seq: number; readonly ts: UnixMs }

export interface SnapshotPageParts extends SnapshotHead {
  /** 1, 2, ... */
  readonly page: number;
  /** Present when positions were subscribed: JSON texts of open positions, by ticket. */
  readonly positions: readonly string[] | null;
  /** Present when orders were subscribed: JSON texts of pending orders, by id. */
  readonly orders: readonly string[] | null;
}

export function snapshotPageText(p: SnapshotPageParts): string {
  let out = `{"channel":"snapshot","login":${JSON.stringify(p.login)},"seq":${p.seq},"ts":${p.ts},"page":${p.page}`;
  if (p.positions) out += `,"positions":[${p.positions.join(',')}]`;
  if (p.orders) out += `,"orders":[${p.orders.join(',')}]`;
  return `${out}}`;
}

export interface SnapshotEndParts extends SnapshotHead {
  readonly pages: number;
  /** Positions (orders) the pages held in all; null when the channel was not subscribed. */
  readonly positionCount: number | null;
  readonly orderCount: number | null;
}

export function snapshotEndText(e: SnapshotEndParts): string {
  const out: Record<string, unknown> = { channel: 'snapshot_end', login: e.login, seq: e.seq, ts: e.ts, pages: e.pages };
  if (e.positionCount !== null) out['position_count'] = e.positionCount;
  if (e.orderCount !== null) out['order_count'] = e.orderCount;
  return JSON.stringify(out);
}

/** Account state; `seq` is the account's last event seq the state includes (a stamp, never replayed). */
export function accountText(a: AccountRecord, m: AccountMetrics, marginCall: boolean, ts: UnixMs): string {
  return JSON.stringify({
    channel: 'account', login: a.login, balance: money(m.balance), equity: money(m.equity), margin: money(m.margin),
    free_margin: money(m.freeMargin), margin_level: m.marginLevel, margin_call: marginCall, seq: a.seq, ts,
  });
}

export interface Ack { readonly id: OpId; readonly channels: readonly Channel[]; readonly symbols: readonly string[]; readonly login: string | null }

export function ackText(kind: 'subscribed' | 'unsubscribed', ack: Ack): string {
  const out: Record<string, unknown> = { channel: kind, id: ack.id, channels: ack.channels, symbols: ack.symbols };
  if (ack.login !== null) out['login'] = ack.login;
  return JSON.stringify(out);
}

export function errorText(id: OpId, err: StreamError): string {
  const out: Record<string, unknown> = { channel: 'error', id, name: err.errorName, message: err.message };
  if (err.field !== undefined) out['field'] = err.field;
  return JSON.stringify({ ...out, ...err.extra });
}

/** As REST's 500: the server failed, not the op. */
export const internalErrorText = (id: OpId): string => JSON.stringify({ channel: 'error', id, name: 'internal_error', message: 'internal error' });

export const pongText = (id: OpId, ts: UnixMs): string => JSON.stringify({ channel: 'pong', id, ts });
export const heartbeatText = (ts: UnixMs): string => `{"channel":"heartbeat","ts":${ts}}`;
