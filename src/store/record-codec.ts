// The values of a shard's hot tables (accounts, orders, pending orders, positions, client ids,
// events) in a hand-written binary form, as lmdb-js encoders. The checkpoint writes five or so of
// these per market order, and msgpackr's record encoding (a walk over each object's keys through
// its structure transitions, twice) took 1-1.8 µs a record: at 512 orders in flight the checkpoint
// was a third of the shard's thread, 14 µs an order, 11 of them msgpackr. A record's fields are
// known, so they are written in a fixed order with no keys at all: 0.2-0.8 µs a record, and the
// checkpoint 5.5 µs an order (docs/architecture.md, "Measured").
//
// VALUE   0xc1 · u8 version · u8 kind · the kind's fields, in the order of record-fields.ts
//         (0xc1 is the one byte msgpack never uses, so a value written before this codec, a
//         msgpackr record or map, is told apart by its first byte and read as it was written)
// STRING  varint 0 for null, else 1 + UTF-8 byte length, then the bytes
// NUMBER  u8 tag: 0 null · 1 f64 · 2 varint n (an int32 ≥ 0) · 3 varint -n (an int32 < 0).
//         Prices, volumes and most sums of money are int32s and take 1-5 bytes; anything else
//         (a time in ms, a balance past 2^31 cents) is its f64, 8 bytes; both exact
// BOOL    u8 0 or 1
// COUNT   varint
//
// Varints are little-endian base 128 of numbers below 2^32, so 32-bit operators are exact on them.
import type { AccountRecord, EngineEvent, OrderRecord, PositionRecord } from '../engine/types.js';
import {
  readAccount, readOrder, readOrderEvent, readPosition, readPositionEvent, writeAccount, writeEvent, writeOrder, writePosition,
  type FieldReader, type FieldWriter,
} from './record-fields.js';
import type { ClientIdEntry } from './store.js';

const MARK = 0xc1;
const VERSION = 1;
const HEADER_BYTES = 3;

const enum Kind { Account = 1, Order = 2, Position = 3, OrderEvent = 4, PositionEvent = 5, ClientId = 6 }
const enum NumberTag { Null = 0, Float = 1, Positive = 2, Negative = 3 }

/** Longest string decoded byte by byte (cheaper than a call into Buffer's UTF-8 decoder when short). */
const SHORT_STRING = 24;
const SLAB_BYTES = 64 * 1024;

/** An lmdb-js encoder (the `encoder` option of openDB). */
export interface ValueEncoder<V> {
  encode(value: V): Buffer & { readonly start: number; readonly end: number };
  decode(bytes: Uint8Array): V;
}

/** The table an encoder serves: where it is, for messages, and how its values before this codec (msgpack) read. */
export interface TableOfRecords {
  /** E.g. `events in ./data/shard-0`. */
  readonly where: string;
  readonly legacy: (bytes: Uint8Array) => unknown;
}

/**
 * Writes values one after another into a slab and never writes over one: lmdb-js keeps only the
 * address of a value until its transaction commits (and holds the slab meanwhile), so a value's
 * bytes must stay as they are. A value that outgrows its slab moves, with what it has so far, to a
 * new one.
 */
class Writer implements FieldWriter {
  private slab: Slab = newSlab(SLAB_BYTES);
  private pos = 0;

  begin(kind: Kind): void {
    this.slab.start = this.pos;
    this.room(HEADER_BYTES);
    this.slab[this.pos++] = MARK;
    this.slab[this.pos++] = VERSION;
    this.slab[this.pos++] = kind;
  }

  /**
   * The value written since begin(): the slab itself, with `start` and `end` marking the value, as
   * msgpackr hands lmdb-js its values (lmdb-js reads both at once, so the next value may move them).
   */
  end(): Slab {
    this.slab.end = this.pos;
    return this.slab;
  }

  str(s: string | null): void {
    if (s === null) {
      this.room(1);
      this.slab[this.pos++] = 0;
      return;
    }
    if (s.length <= SHORT_STRING && this.ascii(s)) return;
    const bytes = Buffer.byteLength(s, 'utf8');
    this.varint(1 + bytes);
    this.room(bytes);
    this.slab.write(s, this.pos, bytes, 'utf8');
    this.pos += bytes;
  }

  num(n: number | null): void {
    this.room(9);
    const slab = this.slab;
    if (n === null) {
      slab[this.pos++] = NumberTag.Null;
    } else if ((n | 0) === n && (n !== 0 || 1 / n > 0)) {
      // An int32 (but not -0, which the f64 keeps): the varint's bit operations are exact on it.
      if (n >= 0) {
        slab[this.pos++] = NumberTag.Positive;
        this.varint(n);
      } else {
        slab[this.pos++] = NumberTag.Negative;
        this.varint(-n);
      }
    } else {
      // Any other number, a time in ms among them, as its own f64: exact for every double.
      slab[this.pos++] = NumberTag.Float;
      this.pos = slab.writeDoubleLE(n, this.pos);
    }
  }

  unique(s: string | null): void {
    this.str(s);
  }

  bool(b: boolean): void {
    this.room(1);
    this.slab[this.pos++] = b ? 1 : 0;
  }

  count(n: number): void {
    this.varint(n);
  }

  /** n: 0 ≤ n < 2^32. */
  private varint(n: number): void {
    this.room(5);
    const slab = this.slab;
    while (n >= 0x80) {
      slab[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    slab[this.pos++] = n;
  }

  /** Writes s byte by byte when it is ASCII (true); otherwise writes nothing (false). */
  private ascii(s: string): boolean {
    this.room(1 + s.length);
    const slab = this.slab;
    const at = this.pos;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return false;
      slab[at + 1 + i] = c;
    }
    slab[at] = 1 + s.length;
    this.pos = at + 1 + s.length;
    return true;
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.slab.length) return;
    const start = this.slab.start;
    const next = newSlab(Math.max(SLAB_BYTES, 2 * (this.pos - start + bytes)));
    this.slab.copy(next, 0, start, this.pos);
    this.pos -= start;
    next.start = 0;
    this.slab = next;
  }
}

type Slab = Buffer & { start: number; end: number };

function newSlab(bytes: number): Slab {
  return Object.assign(Buffer.allocUnsafeSlow(bytes), { start: 0, end: 0 });
}

class Reader implements FieldReader {
  private readonly buf: Buffer;
  pos = HEADER_BYTES;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A string the writer never writes as null; its type is the field's (the writer wrote that type). */
  str<T extends string>(): T {
    return this.nullableStr<T>()!;
  }

  nullableStr<T extends string>(): T | null {
    const head = this.varint();
    if (head === 0) return null;
    const bytes = head - 1;
    const at = this.pos;
    this.pos = at + bytes;
    if (bytes <= SHORT_STRING) {
      let s = '';
      for (let i = at; i < at + bytes; i++) {
        const c = this.buf[i]!;
        if (c >= 0x80) return this.buf.toString('utf8', at, at + bytes) as T;
        s += String.fromCharCode(c);
      }
      return s as T;
    }
    return this.buf.toString('utf8', at, at + bytes) as T;
  }

  /** A number the writer never writes as null. */
  num<T extends number>(): T {
    return this.nullableNum<T>()!;
  }

  nullableNum<T extends number>(): T | null {
    switch (this.buf[this.pos++]) {
      case NumberTag.Null: return null;
      case NumberTag.Positive: return this.varint() as T;
      case NumberTag.Negative: return -this.varint() as T;
      default: {
        const n = this.buf.readDoubleLE(this.pos);
        this.pos += 8;
        return n as T;
      }
    }
  }

  bool(): boolean {
    return this.buf[this.pos++] === 1;
  }

  count(): number {
    return this.varint();
  }

  private varint(): number {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = this.buf[this.pos++]!;
      n |= (b & 0x7f) << shift;
      if (b < 0x80) return n >>> 0;
      shift += 7;
    }
  }
}

const writer = new Writer();

// A client id's entry is the checkpoint's own record, so its fields are listed here.
function writeClientId(w: FieldWriter, c: ClientIdEntry): void {
  w.unique(c.orderId);
  w.num(c.atMs);
}

function readClientId(r: FieldReader): ClientIdEntry {
  return { orderId: r.str(), atMs: r.num() };
}

/** The record of `bytes`, or the legacy decoder's reading of a value written before this codec. */
function decoded<V>(bytes: Uint8Array, kinds: readonly Kind[], read: (r: FieldReader, kind: Kind) => V, table: TableOfRecords): V {
  if (bytes[0] !== MARK) return table.legacy(bytes) as V;
  if (bytes[1] !== VERSION) {
    throw new Error(`${table.where}: a stored record of format version ${bytes[1]}; this build reads version ${VERSION} (the data was written by a newer tas)`);
  }
  const kind = bytes[2] as Kind;
  if (!kinds.includes(kind)) throw new Error(`${table.where}: a stored record of kind ${kind} in a table of kinds ${kinds.join(', ')}`);
  return read(new Reader(bytes), kind);
}

function encoderOf<V>(kind: Kind, write: (w: FieldWriter, value: V) => void, read: (r: FieldReader) => V, table: TableOfRecords): ValueEncoder<V> {
  const kinds = [kind];
  return {
    encode: (value) => {
      writer.begin(kind);
      write(writer, value);
      return writer.end();
    },
    decode: (bytes) => decoded(bytes, kinds, read, table),
  };
}

export function accountEncoder(table: TableOfRecords): ValueEncoder<AccountRecord> {
  return encoderOf(Kind.Account, writeAccount, readAccount, table);
}

export function orderEncoder(table: TableOfRecords): ValueEncoder<OrderRecord> {
  return encoderOf(Kind.Order, writeOrder, readOrder, table);
}

export function positionEncoder(table: TableOfRecords): ValueEncoder<PositionRecord> {
  return encoderOf(Kind.Position, writePosition, readPosition, table);
}

export function clientIdEncoder(table: TableOfRecords): ValueEncoder<ClientIdEntry> {
  return encoderOf(Kind.ClientId, writeClientId, readClientId, table);
}

const EVENT_KINDS = [Kind.OrderEvent, Kind.PositionEvent];

export function eventEncoder(table: TableOfRecords): ValueEncoder<EngineEvent> {
  return {
    encode: (e) => {
      writer.begin(e.type === 'order' ? Kind.OrderEvent : Kind.PositionEvent);
      writeEvent(writer, e);
      return writer.end();
    },
    decode: (bytes) => decoded<EngineEvent>(bytes, EVENT_KINDS, (r, kind) => (kind === Kind.OrderEvent ? readOrderEvent(r) : readPositionEvent(r)), table),
  };
}
