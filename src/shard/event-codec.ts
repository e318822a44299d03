// The events and changed accounts of a shard's batch frame as one binary block, hand-written like
// the FIX codec: they are most of what a shard writes (a kill switch of 10,000 closes is 10,000
// position events, a market order one account) and their strings repeat (login, symbol, side,
// source, status), so each distinct string of a block travels and is decoded once, and the reading
// thread's records share those strings instead of allocating their own. A ring is a trusted,
// same-build channel: a block is decoded as written, unchecked.
//
// BLOCK   u32 event count · events · u32 account count · accounts
// EVENT   u8 kind (0 order, 1 position) · f64 seq · f64 ts · the kind's fields, in the order of
//         writeOrderEvent / writePositionEvent below
// ACCOUNT its fields in the order of #account below (BOOL: u8 0 or 1)
// STRING  varint tag: 0 null; 1 a string used once (an order id), then its text; 2 a string
//         that becomes the block's next table entry, then its text; 3 + i the block's table entry
//         i. TEXT is a byte length ≤ 24 and that many ASCII bytes, or a 5-byte varint UTF-8
//         length (first byte ≥ 0x80) and the bytes.
// NUMBER  f64: every engine quantity is a safe integer (or a plain number), which a double holds
//         exactly; a nullable number is NaN for null (no engine value is NaN)
// AMENDED u8 0 absent, else 1 + count, then per change: STRING field · NUMBER from · NUMBER to
import type { AccountRecord, EngineEvent, FieldChange, OrderEvent, OrderRecord, PositionEvent, PositionRecord } from '../engine/types.js';

const ORDER = 0;
const POSITION = 1;
const NULL_STRING = 0;
const LITERAL = 1;
const NEW_STRING = 2;
const FIRST_REF = 3;
const FIRST_BLOCK_BYTES = 64 * 1024;
/** Strings this short are copied byte by byte when ASCII: cheaper than a call into Buffer's UTF-8 code. */
const SHORT_STRING = 24;
/** String fields, numbered for the encoder's per-field cache. */
const enum Slot { Status, Reason, Login, Symbol, Side, Type, OrderStatus, Source, KeyId, WebhookId, OrderReason, Field, User, AccountType, Group, Currency, Server }
const SLOTS = Slot.Server + 1;

export class EventEncoder {
  #buf = Buffer.allocUnsafeSlow(FIRST_BLOCK_BYTES);
  #view = new DataView(this.#buf.buffer);
  #pos = 0;
  readonly #table = new Map<string, number>();
  // The last string each field wrote and its table entry: consecutive events mostly repeat a
  // field's string object (an account's login, the symbol, the side), and comparing the reference
  // is several times cheaper than hashing it into the table again.
  readonly #lastString: (string | null)[] = new Array<string | null>(SLOTS).fill(null);
  readonly #lastRef = new Array<number>(SLOTS).fill(0);

  /** The events and accounts as one block (a copy: the encoder's buffer is reused). */
  encode(events: readonly EngineEvent[], accounts: readonly AccountRecord[] = []): Uint8Array {
    this.#pos = 0;
    this.#table.clear();
    this.#lastString.fill(null);
    this.#count(events.length);
    for (const e of events) {
      if (e.type === 'order') this.#orderEvent(e);
      else this.#positionEvent(e);
    }
    this.#count(accounts.length);
    for (const a of accounts) this.#account(a);
    // Copied (a Buffer's slice() would be a view of the reused buffer).
    return new Uint8Array(this.#buf.subarray(0, this.#pos));
  }

  #count(n: number): void {
    this.#room(4);
    this.#view.setUint32(this.#pos, n, true);
    this.#pos += 4;
  }

  #account(a: AccountRecord): void {
    this.#str(a.login, Slot.Login);
    this.#str(a.user, Slot.User);
    this.#str(a.type, Slot.AccountType);
    this.#str(a.group, Slot.Group);
    this.#str(a.currency, Slot.Currency);
    this.#num(a.leverage);
    this.#str(a.server, Slot.Server);
    this.#num(a.balance);
    this.#num(a.margin);
    this.#num(a.seq);
    this.#room(2);
    this.#buf[this.#pos++] = a.accountHalted ? 1 : 0;
    this.#buf[this.#pos++] = a.userHalted ? 1 : 0;
  }

  #orderEvent(e: OrderEvent): void {
    this.#room(17);
    this.#buf[this.#pos++] = ORDER;
    this.#num(e.seq);
    this.#num(e.ts);
    this.#order(e.order);
    this.#amended(e.amended);
  }

  #positionEvent(e: PositionEvent): void {
    this.#room(17);
    this.#buf[this.#pos++] = POSITION;
    this.#num(e.seq);
    this.#num(e.ts);
    this.#str(e.status, Slot.Status);
    this.#position(e.position);
    this.#str(e.reason, Slot.Reason);
    this.#num(e.closePrice);
    this.#num(e.closedVolume);
    this.#num(e.profit);
    this.#amended(e.amended);
  }

  #order(o: OrderRecord): void {
    this.#once(o.id);
    this.#str(o.login, Slot.Login);
    this.#str(o.symbol, Slot.Symbol);
    this.#str(o.side, Slot.Side);
    this.#str(o.type, Slot.Type);
    this.#num(o.volume);
    this.#num(o.price);
    this.#num(o.requestedPrice);
    this.#num(o.sl);
    this.#num(o.tp);
    this.#str(o.status, Slot.OrderStatus);
    this.#num(o.ticket);
    this.#str(o.source, Slot.Source);
    this.#str(o.keyId, Slot.KeyId);
    this.#once(o.clientId);
    this.#str(o.webhookId, Slot.WebhookId);
    this.#num(o.createdAt);
    this.#num(o.filledAt);
    this.#num(o.closedAt);
    this.#str(o.reason, Slot.OrderReason);
  }

  #position(p: PositionRecord): void {
    this.#num(p.ticket);
    this.#str(p.login, Slot.Login);
    this.#str(p.symbol, Slot.Symbol);
    this.#str(p.side, Slot.Side);
    this.#num(p.volume);
    this.#num(p.openPrice);
    this.#num(p.sl);
    this.#num(p.tp);
    this.#str(p.source, Slot.Source);
    this.#str(p.keyId, Slot.KeyId);
    this.#str(p.webhookId, Slot.WebhookId);
    this.#once(p.orderId);
    this.#num(p.margin);
    this.#num(p.openedAt);
  }

  #amended(changes: readonly FieldChange[] | undefined): void {
    this.#room(1);
    if (changes === undefined) {
      this.#buf[this.#pos++] = 0;
      return;
    }
    this.#buf[this.#pos++] = 1 + changes.length;
    for (const c of changes) {
      this.#str(c.field, Slot.Field);
      this.#num(c.from);
      this.#num(c.to);
    }
  }

  #num(n: number | null): void {
    this.#room(8);
    this.#view.setFloat64(this.#pos, n ?? NaN, true);
    this.#pos += 8;
  }

  #str(s: string | null, slot: Slot): void {
    if (s === null) {
      this.#room(1);
      this.#buf[this.#pos++] = NULL_STRING;
      return;
    }
    if (s === this.#lastString[slot]) {
      this.#varint(FIRST_REF + this.#lastRef[slot]!);
      return;
    }
    const ref = this.#table.get(s);
    this.#lastString[slot] = s;
    if (ref !== undefined) {
      this.#lastRef[slot] = ref;
      this.#varint(FIRST_REF + ref);
      return;
    }
    this.#lastRef[slot] = this.#table.size;
    this.#table.set(s, this.#table.size);
    this.#text(NEW_STRING, s);
  }

  /** A string that does not repeat (an order id, a client id): not worth a table entry. */
  #once(s: string | null): void {
    if (s === null) {
      this.#room(1);
      this.#buf[this.#pos++] = NULL_STRING;
      return;
    }
    this.#text(LITERAL, s);
  }

  #text(tag: number, s: string): void {
    // At most 3 UTF-8 bytes per UTF-16 unit, plus the tag and a 5-byte length.
    this.#room(6 + 3 * s.length);
    this.#buf[this.#pos++] = tag;
    if (s.length <= SHORT_STRING && this.#ascii(s)) return;
    const lengthAt = this.#pos;
    const bytes = this.#buf.write(s, lengthAt + 5, 'utf8');
    // A fixed 5-byte varint for the length keeps the bytes where they were written.
    let n = bytes;
    for (let i = 0; i < 4; i++) { this.#buf[lengthAt + i] = (n & 0x7f) | 0x80; n >>>= 7; }
    this.#buf[lengthAt + 4] = n;
    this.#pos = lengthAt + 5 + bytes;
  }

  /** Writes s byte by byte when it is ASCII (true); otherwise writes nothing (false). */
  #ascii(s: string): boolean {
    const at = this.#pos;
    const buf = this.#buf;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return false;
      buf[at + 1 + i] = c;
    }
    buf[at] = s.length;
    this.#pos = at + 1 + s.length;
    return true;
  }

  #varint(n: number): void {
    this.#room(5);
    while (n >= 0x80) {
      this.#buf[this.#pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.#buf[this.#pos++] = n;
  }

  #room(bytes: number): void {
    if (this.#pos + bytes <= this.#buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.#buf.length * 2, this.#pos + bytes));
    this.#buf.copy(next, 0, 0, this.#pos);
    this.#buf = next;
    this.#view = new DataView(next.buffer);
  }
}

/** Decodes one block (see the head of this file). */
export function decodeBlock(block: Uint8Array): { readonly events: EngineEvent[]; readonly accounts: AccountRecord[] } {
  const reader = new BlockReader(block);
  const events = reader.events();
  return { events, accounts: reader.accounts() };
}

class BlockReader {
  readonly #buf: Buffer;
  readonly #view: DataView;
  #pos = 0;
  readonly #table: string[] = [];

  constructor(block: Uint8Array) {
    this.#buf = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    this.#view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  }

  events(): EngineEvent[] {
    const count = this.#count();
    const events: EngineEvent[] = new Array(count);
    for (let i = 0; i < count; i++) events[i] = this.#buf[this.#pos++] === ORDER ? this.#orderEvent() : this.#positionEvent();
    return events;
  }

  /** After events(). */
  accounts(): AccountRecord[] {
    const count = this.#count();
    const accounts: AccountRecord[] = new Array(count);
    for (let i = 0; i < count; i++) accounts[i] = this.#account();
    return accounts;
  }

  #count(): number {
    const n = this.#view.getUint32(this.#pos, true);
    this.#pos += 4;
    return n;
  }

  #account(): AccountRecord {
    return {
      login: this.#str(),
      user: this.#str(),
      type: this.#str(),
      group: this.#str(),
      currency: this.#str(),
      leverage: this.#num(),
      server: this.#str(),
      balance: this.#num(),
      margin: this.#num(),
      seq: this.#num(),
      accountHalted: this.#buf[this.#pos++] === 1,
      userHalted: this.#buf[this.#pos++] === 1,
    };
  }

  #orderEvent(): OrderEvent {
    const seq = this.#num();
    const ts = this.#num();
    const order = this.#order();
    const amended = this.#amended();
    return amended === undefined ? { type: 'order', seq, ts, order } : { type: 'order', seq, ts, order, amended };
  }

  #positionEvent(): PositionEvent {
    const seq = this.#num();
    const ts = this.#num();
    const status = this.#str<PositionEvent['status']>();
    const position = this.#position();
    const reason = this.#nullableStr<NonNullable<PositionEvent['reason']>>();
    const closePrice = this.#nullableNum();
    const closedVolume = this.#nullableNum();
    const profit = this.#nullableNum();
    const amended = this.#amended();
    const e: PositionEvent = { type: 'position', seq, ts, status, position, reason, closePrice, closedVolume, profit };
    return amended === undefined ? e : { type: 'position', seq, ts, status, position, reason, closePrice, closedVolume, profit, amended };
  }

  #order(): OrderRecord {
    return {
      id: this.#str(),
      login: this.#str(),
      symbol: this.#str(),
      side: this.#str(),
      type: this.#str(),
      volume: this.#num(),
      price: this.#num(),
      requestedPrice: this.#nullableNum(),
      sl: this.#nullableNum(),
      tp: this.#nullableNum(),
      status: this.#str(),
      ticket: this.#nullableNum(),
      source: this.#str(),
      keyId: this.#nullableStr(),
      clientId: this.#nullableStr(),
      webhookId: this.#nullableStr(),
      createdAt: this.#num(),
      filledAt: this.#nullableNum(),
      closedAt: this.#nullableNum(),
      reason: this.#nullableStr(),
    };
  }

  #position(): PositionRecord {
    return {
      ticket: this.#num(),
      login: this.#str(),
      symbol: this.#str(),
      side: this.#str(),
      volume: this.#num(),
      openPrice: this.#num(),
      sl: this.#nullableNum(),
      tp: this.#nullableNum(),
      source: this.#str(),
      keyId: this.#nullableStr(),
      webhookId: this.#nullableStr(),
      orderId: this.#str(),
      margin: this.#num(),
      openedAt: this.#num(),
    };
  }

  #amended(): FieldChange[] | undefined {
    const tag = this.#buf[this.#pos++]!;
    if (tag === 0) return undefined;
    const changes: FieldChange[] = [];
    for (let i = 1; i < tag; i++) changes.push({ field: this.#str(), from: this.#nullableNum(), to: this.#nullableNum() });
    return changes;
  }

  #num(): number {
    const n = this.#view.getFloat64(this.#pos, true);
    this.#pos += 8;
    return n;
  }

  #nullableNum(): number | null {
    const n = this.#num();
    return Number.isNaN(n) ? null : n;
  }

  /** A string the writer never sends as null; its type is the field's (a trusted channel). */
  #str<T extends string>(): T {
    return this.#nullableStr<T>()!;
  }

  #nullableStr<T extends string>(): T | null {
    const tag = this.#varint();
    if (tag === NULL_STRING) return null;
    if (tag >= FIRST_REF) return this.#table[tag - FIRST_REF] as T;
    const buf = this.#buf;
    const at = this.#pos;
    let s: string;
    if (buf[at]! <= SHORT_STRING) {
      // The encoder's ASCII form: a one-byte length and the characters.
      const length = buf[at]!;
      s = '';
      for (let i = 1; i <= length; i++) s += String.fromCharCode(buf[at + i]!);
      this.#pos = at + 1 + length;
    } else {
      const length = this.#varint();
      s = buf.toString('utf8', this.#pos, this.#pos + length);
      this.#pos += length;
    }
    if (tag === NEW_STRING) this.#table.push(s);
    return s as T;
  }

  #varint(): number {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = this.#buf[this.#pos++]!;
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  }
}
