// The events and changed accounts of a shard's batch frame as one binary block, hand-written like
// the FIX codec: they are most of what a shard writes (a kill switch of 10,000 closes is 10,000
// position events, a market order one account) and their strings repeat (login, symbol, side,
// source, status), so each distinct string of a block travels and is decoded once, and the reading
// thread's records share those strings instead of allocating their own (with earlier blocks' too:
// recent-strings.ts). A ring is a trusted, same-build channel: a block is decoded as written, unchecked.
//
// BLOCK   u32 event count · events · u32 account count · accounts
// EVENT   u8 kind (0 order, 1 position) · the event's fields, in the order of
//         store/record-fields.ts (shared with the checkpoint's codec)
// ACCOUNT its fields in the order of store/record-fields.ts
// STRING  varint tag: 0 null; 1 a string used once (an order id), then its text; 2 a string
//         that becomes the block's next table entry, then its text; 3 + i the block's table entry
//         i. TEXT is a byte length ≤ 24 and that many ASCII bytes, or a 5-byte varint UTF-8
//         length (first byte ≥ 0x80) and the bytes.
// NUMBER  f64: every engine quantity is a safe integer (or a plain number), which a double holds
//         exactly; a nullable number is NaN for null (no engine value is NaN)
// BOOL    u8 0 or 1
// COUNT   varint
import type { AccountRecord, EngineEvent } from '../engine/types.js';
import {
  readAccount, readOrderEvent, readPositionEvent, REPEATING_FIELDS, writeAccount, writeEvent,
  type FieldReader, type FieldWriter,
} from '../store/record-fields.js';
import { asciiText, RecentStrings } from './recent-strings.js';

const ORDER = 0;
const POSITION = 1;
const NULL_STRING = 0;
const LITERAL = 1;
const NEW_STRING = 2;
const FIRST_REF = 3;
const FIRST_BLOCK_BYTES = 64 * 1024;
/** Strings this short are copied byte by byte when ASCII: cheaper than a call into Buffer's UTF-8 code. */
const SHORT_STRING = 24;
/** This thread's, shared by every block it decodes. */
const recentStrings = new RecentStrings();

class BlockWriter implements FieldWriter {
  #buf = Buffer.allocUnsafeSlow(FIRST_BLOCK_BYTES);
  #view = new DataView(this.#buf.buffer);
  #pos = 0;
  readonly #table = new Map<string, number>();
  // The last string each field wrote and its table entry: consecutive events mostly repeat a
  // field's string object (an account's login, the symbol, the side), and comparing the reference
  // is several times cheaper than hashing it into the table again.
  readonly #lastString: (string | null)[] = new Array<string | null>(REPEATING_FIELDS).fill(null);
  readonly #lastRef = new Array<number>(REPEATING_FIELDS).fill(0);

  reset(): void {
    this.#pos = 0;
    this.#table.clear();
    this.#lastString.fill(null);
  }

  /** What was written since reset(), as a copy (a Buffer's slice() would be a view of the reused buffer). */
  written(): Uint8Array {
    return new Uint8Array(this.#buf.subarray(0, this.#pos));
  }

  u32(n: number): void {
    this.#room(4);
    this.#view.setUint32(this.#pos, n, true);
    this.#pos += 4;
  }

  byte(b: number): void {
    this.#room(1);
    this.#buf[this.#pos++] = b;
  }

  num(n: number | null): void {
    this.#room(8);
    this.#view.setFloat64(this.#pos, n ?? NaN, true);
    this.#pos += 8;
  }

  bool(b: boolean): void {
    this.byte(b ? 1 : 0);
  }

  count(n: number): void {
    this.#varint(n);
  }

  str(s: string | null, field: number): void {
    if (s === null) {
      this.byte(NULL_STRING);
      return;
    }
    if (s === this.#lastString[field]) {
      this.#varint(FIRST_REF + this.#lastRef[field]!);
      return;
    }
    const ref = this.#table.get(s);
    this.#lastString[field] = s;
    if (ref !== undefined) {
      this.#lastRef[field] = ref;
      this.#varint(FIRST_REF + ref);
      return;
    }
    this.#lastRef[field] = this.#table.size;
    this.#table.set(s, this.#table.size);
    this.#text(NEW_STRING, s);
  }

  /** A string that does not repeat (an order id, a client id): not worth a table entry. */
  unique(s: string | null): void {
    if (s === null) {
      this.byte(NULL_STRING);
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

export class EventEncoder {
  readonly #writer = new BlockWriter();

  /** The events and accounts as one block (a copy: the encoder's buffer is reused). */
  encode(events: readonly EngineEvent[], accounts: readonly AccountRecord[] = []): Uint8Array {
    const w = this.#writer;
    w.reset();
    w.u32(events.length);
    for (const e of events) {
      w.byte(e.type === 'order' ? ORDER : POSITION);
      writeEvent(w, e);
    }
    w.u32(accounts.length);
    for (const a of accounts) writeAccount(w, a);
    return w.written();
  }
}

/** Decodes one block (see the head of this file). */
export function decodeBlock(block: Uint8Array): { readonly events: EngineEvent[]; readonly accounts: AccountRecord[] } {
  const r = new BlockReader(block);
  const events: EngineEvent[] = new Array(r.u32());
  for (let i = 0; i < events.length; i++) events[i] = r.byte() === ORDER ? readOrderEvent(r) : readPositionEvent(r);
  const accounts: AccountRecord[] = new Array(r.u32());
  for (let i = 0; i < accounts.length; i++) accounts[i] = readAccount(r);
  return { events, accounts };
}

class BlockReader implements FieldReader {
  readonly #buf: Buffer;
  readonly #view: DataView;
  #pos = 0;
  readonly #table: string[] = [];

  constructor(block: Uint8Array) {
    this.#buf = Buffer.from(block.buffer, block.byteOffset, block.byteLength);
    this.#view = new DataView(block.buffer, block.byteOffset, block.byteLength);
  }

  u32(): number {
    const n = this.#view.getUint32(this.#pos, true);
    this.#pos += 4;
    return n;
  }

  byte(): number {
    return this.#buf[this.#pos++]!;
  }

  num<T extends number>(): T {
    const n = this.#view.getFloat64(this.#pos, true);
    this.#pos += 8;
    return n as T;
  }

  nullableNum<T extends number>(): T | null {
    const n = this.num<T>();
    return Number.isNaN(n) ? null : n;
  }

  bool(): boolean {
    return this.byte() === 1;
  }

  count(): number {
    return this.#varint();
  }

  /** A string the writer never sends as null; its type is the field's (a trusted channel). */
  str<T extends string>(): T {
    return this.nullableStr<T>()!;
  }

  nullableStr<T extends string>(): T | null {
    const tag = this.#varint();
    if (tag === NULL_STRING) return null;
    if (tag >= FIRST_REF) return this.#table[tag - FIRST_REF] as T;
    const buf = this.#buf;
    const at = this.#pos;
    let s: string;
    if (buf[at]! <= SHORT_STRING) {
      // The encoder's ASCII form: a one-byte length and the characters.
      const length = buf[at]!;
      s = tag === NEW_STRING ? recentStrings.ascii(buf, at + 1, length) : asciiText(buf, at + 1, length);
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
