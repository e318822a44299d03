// The field order of each engine record, once, for the hand-written codecs that carry them: the
// checkpoint's values (record-codec.ts) and the events and accounts of a shard's batch frame on a
// ring (shard/event-codec.ts). Each codec says how a string, a number or a flag is written; these
// walkers say which fields, in which order, so the two cannot drift apart. A new field of a record
// goes here, in both walkers, and the codecs' tests read every field back.
import type { AccountRecord, EngineEvent, FieldChange, OrderEvent, OrderRecord, PositionEvent, PositionRecord } from '../engine/types.js';

/**
 * The string fields whose values repeat from record to record (a login, a symbol, a side), numbered
 * so a codec can keep something per field; unique strings (ids) are written with `unique`.
 */
const enum Repeats { Status, Reason, Login, Symbol, Side, Type, OrderStatus, Source, KeyId, WebhookId, OrderReason, Field, User, AccountType, Group, Currency, Server }
export const REPEATING_FIELDS = Repeats.Server + 1;

export interface FieldWriter {
  /** A string that repeats across records; `field` is 0 ≤ field < REPEATING_FIELDS. */
  str(s: string | null, field: number): void;
  /** A string that does not repeat (an order id, a client id). */
  unique(s: string | null): void;
  num(n: number | null): void;
  bool(b: boolean): void;
  /** A small count, 0 ≤ n < 2^31. */
  count(n: number): void;
}

/** Reads what a FieldWriter wrote, in the same order; a value's type is its field's (the writer wrote that type). */
export interface FieldReader {
  str<T extends string>(): T;
  nullableStr<T extends string>(): T | null;
  num<T extends number>(): T;
  nullableNum<T extends number>(): T | null;
  bool(): boolean;
  count(): number;
}

export function writeAccount(w: FieldWriter, a: AccountRecord): void {
  w.str(a.login, Repeats.Login);
  w.str(a.user, Repeats.User);
  w.str(a.type, Repeats.AccountType);
  w.str(a.group, Repeats.Group);
  w.str(a.currency, Repeats.Currency);
  w.num(a.leverage);
  w.str(a.server, Repeats.Server);
  w.num(a.balance);
  w.num(a.margin);
  w.num(a.seq);
  w.bool(a.accountHalted);
  w.bool(a.userHalted);
}

export function readAccount(r: FieldReader): AccountRecord {
  return {
    login: r.str(),
    user: r.str(),
    type: r.str(),
    group: r.str(),
    currency: r.str(),
    leverage: r.num(),
    server: r.str(),
    balance: r.num(),
    margin: r.num(),
    seq: r.num(),
    accountHalted: r.bool(),
    userHalted: r.bool(),
  };
}

export function writeOrder(w: FieldWriter, o: OrderRecord): void {
  w.unique(o.id);
  w.str(o.login, Repeats.Login);
  w.str(o.symbol, Repeats.Symbol);
  w.str(o.side, Repeats.Side);
  w.str(o.type, Repeats.Type);
  w.num(o.volume);
  w.num(o.price);
  w.num(o.requestedPrice);
  w.num(o.sl);
  w.num(o.tp);
  w.str(o.status, Repeats.OrderStatus);
  w.num(o.ticket);
  w.str(o.source, Repeats.Source);
  w.str(o.keyId, Repeats.KeyId);
  w.unique(o.clientId);
  w.str(o.webhookId, Repeats.WebhookId);
  w.num(o.createdAt);
  w.num(o.filledAt);
  w.num(o.closedAt);
  w.str(o.reason, Repeats.OrderReason);
}

export function readOrder(r: FieldReader): OrderRecord {
  return {
    id: r.str(),
    login: r.str(),
    symbol: r.str(),
    side: r.str(),
    type: r.str(),
    volume: r.num(),
    price: r.num(),
    requestedPrice: r.nullableNum(),
    sl: r.nullableNum(),
    tp: r.nullableNum(),
    status: r.str(),
    ticket: r.nullableNum(),
    source: r.str(),
    keyId: r.nullableStr(),
    clientId: r.nullableStr(),
    webhookId: r.nullableStr(),
    createdAt: r.num(),
    filledAt: r.nullableNum(),
    closedAt: r.nullableNum(),
    reason: r.nullableStr(),
  };
}

export function writePosition(w: FieldWriter, p: PositionRecord): void {
  w.num(p.ticket);
  w.str(p.login, Repeats.Login);
  w.str(p.symbol, Repeats.Symbol);
  w.str(p.side, Repeats.Side);
  w.num(p.volume);
  w.num(p.openPrice);
  w.num(p.sl);
  w.num(p.tp);
  w.str(p.source, Repeats.Source);
  w.str(p.keyId, Repeats.KeyId);
  w.str(p.webhookId, Repeats.WebhookId);
  w.unique(p.orderId);
  w.num(p.margin);
  w.num(p.openedAt);
}

export function readPosition(r: FieldReader): PositionRecord {
  return {
    ticket: r.num(),
    login: r.str(),
    symbol: r.str(),
    side: r.str(),
    volume: r.num(),
    openPrice: r.num(),
    sl: r.nullableNum(),
    tp: r.nullableNum(),
    source: r.str(),
    keyId: r.nullableStr(),
    webhookId: r.nullableStr(),
    orderId: r.str(),
    margin: r.num(),
    openedAt: r.num(),
  };
}

/** AMENDED: count 0 absent, else 1 + the number of changes, then each change's field, from and to. */
function writeAmended(w: FieldWriter, changes: readonly FieldChange[] | undefined): void {
  if (changes === undefined) {
    w.count(0);
    return;
  }
  w.count(1 + changes.length);
  for (const c of changes) {
    w.str(c.field, Repeats.Field);
    w.num(c.from);
    w.num(c.to);
  }
}

function readAmended(r: FieldReader): FieldChange[] | undefined {
  const head = r.count();
  if (head === 0) return undefined;
  const changes: FieldChange[] = [];
  for (let i = 1; i < head; i++) changes.push({ field: r.str(), from: r.nullableNum(), to: r.nullableNum() });
  return changes;
}

/** An event's fields after its kind, which each codec writes its own way. */
export function writeEvent(w: FieldWriter, e: EngineEvent): void {
  w.num(e.seq);
  w.num(e.ts);
  if (e.type === 'order') {
    writeOrder(w, e.order);
  } else {
    w.str(e.status, Repeats.Status);
    writePosition(w, e.position);
    w.str(e.reason, Repeats.Reason);
    w.num(e.closePrice);
    w.num(e.closedVolume);
    w.num(e.profit);
  }
  writeAmended(w, e.amended);
}

// Built as one literal each (an absent `amended` stays absent): a spread that adds a key costs V8
// about a microsecond an object (docs/architecture.md, "A spread that adds keys").
export function readOrderEvent(r: FieldReader): OrderEvent {
  const seq = r.num();
  const ts = r.num();
  const order = readOrder(r);
  const amended = readAmended(r);
  return amended === undefined ? { type: 'order', seq, ts, order } : { type: 'order', seq, ts, order, amended };
}

export function readPositionEvent(r: FieldReader): PositionEvent {
  const seq = r.num();
  const ts = r.num();
  const status = r.str<PositionEvent['status']>();
  const position = readPosition(r);
  const reason = r.nullableStr<NonNullable<PositionEvent['reason']>>();
  const closePrice = r.nullableNum();
  const closedVolume = r.nullableNum();
  const profit = r.nullableNum();
  const amended = readAmended(r);
  return amended === undefined
    ? { type: 'position', seq, ts, status, position, reason, closePrice, closedVolume, profit }
    : { type: 'position', seq, ts, status, position, reason, closePrice, closedVolume, profit, amended };
}
