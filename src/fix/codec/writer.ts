// Encodes outbound messages into one reused buffer, digit by digit, with no allocation per
// message. Messages are appended back to back so a worker can encode everything of one turn and
// hand the socket a single copy (flush()); lastMessage() is a view for synchronous consumers.
//
// BodyLength: the header is written last. begin() leaves room for "8=FIX.4.4|9=NNN|" (three
// digits: bodies of 100..999 bytes, the usual size) and writes the body after it; finish() counts
// the body, moves it by the difference when BodyLength has another number of digits (a native
// copyWithin of the body, rare), then fills 8 and 9 in front and appends 10.
import * as ascii from './ascii.js';
import { byteSum, wordBuffer } from './checksum.js';
import type { FixDecimal } from './decimal.js';
import { writeLocalMktDate, writeUtcTimestamp } from './time.js';
import { Tag } from '../dictionary.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { BEGIN_STRING_FIELD, CHAR_N, CHAR_Y, DOT, EQUALS, MINUS, SOH, ZERO } = ascii;

const QUESTION_MARK = 0x3f;
const ASSUMED_LENGTH_DIGITS = 3;
const RESERVED_HEADER_BYTES = BEGIN_STRING_FIELD.length + 2 + ASSUMED_LENGTH_DIGITS + 1;
/** Room for a tag, '=', a number and SOH. */
const MAX_NUMERIC_FIELD_BYTES = 48;

/** SenderCompID and TargetCompID of one session, encoded once ("49=..|56=..|"). */
export class CompIds {
  readonly bytes: Uint8Array;
  constructor(readonly senderCompId: string, readonly targetCompId: string) {
    this.bytes = Buffer.from(`${Tag.SenderCompID}=${senderCompId}\x01${Tag.TargetCompID}=${targetCompId}\x01`, 'latin1');
  }
}

export interface OutboundHeader {
  readonly compIds: CompIds;
  readonly msgSeqNum: number;
  readonly sendingTimeMs: number;
  /** Set on a retransmission: writes PossDupFlag=Y and this OrigSendingTime (122). */
  readonly origSendingTimeMs: number | null;
}

function digitCount(v: number): number {
  let n = 1;
  for (let x = v; x >= 10; x = Math.floor(x / 10)) n++;
  return n;
}

export class FixWriter {
  private buf: Buffer;
  private words: Uint32Array;
  private pos = 0;
  private msgStart = 0;
  private bodyStart = 0;
  /** The last finished message: [lastStart, lastEnd) of the accumulated bytes. */
  lastStart = 0;
  lastEnd = 0;

  constructor(initialCapacityBytes = 16 * 1024) {
    const initial = wordBuffer(initialCapacityBytes);
    this.buf = initial.buf;
    this.words = initial.words;
  }

  /** Bytes of finished messages not yet flushed. */
  get pendingBytes(): number {
    return this.pos;
  }

  /** View of the last finished message; valid until the next begin() or flush(). */
  lastMessage(): Buffer {
    return this.buf.subarray(this.lastStart, this.lastEnd);
  }

  /** All finished messages as one new Buffer (safe to hand to socket.write), then empties the writer. */
  flush(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    return out;
  }

  /** Starts a message: header fields in FIX44 dictionary order (35 49 56 34 43 52 122). */
  begin(msgType: string, h: OutboundHeader): void {
    this.msgStart = this.pos;
    this.ensure(RESERVED_HEADER_BYTES + 4 * MAX_NUMERIC_FIELD_BYTES + h.compIds.bytes.length);
    this.pos += RESERVED_HEADER_BYTES;
    this.bodyStart = this.pos;
    this.str(Tag.MsgType, msgType);
    this.raw(h.compIds.bytes);
    this.int(Tag.MsgSeqNum, h.msgSeqNum);
    if (h.origSendingTimeMs !== null) this.bool(Tag.PossDupFlag, true);
    this.utcTimestamp(Tag.SendingTime, h.sendingTimeMs);
    if (h.origSendingTimeMs !== null) this.utcTimestamp(Tag.OrigSendingTime, h.origSendingTimeMs);
  }

  /** Fills BeginString and BodyLength in front of the body and appends the CheckSum. */
  finish(): void {
    const bodyLength = this.pos - this.bodyStart;
    const lengthDigits = digitCount(bodyLength);
    const shift = lengthDigits - ASSUMED_LENGTH_DIGITS;
    this.ensure(Math.max(shift, 0) + 7);
    const buf = this.buf;
    if (shift !== 0) {
      buf.copyWithin(this.bodyStart + shift, this.bodyStart, this.pos);
      this.pos += shift;
    }
    let p = this.msgStart;
    buf.set(BEGIN_STRING_FIELD, p);
    p += BEGIN_STRING_FIELD.length;
    buf[p++] = ZERO + 9;
    buf[p++] = EQUALS;
    this.putUint(p, bodyLength, lengthDigits);
    buf[p + lengthDigits] = SOH;
    const checksum = byteSum(buf, this.words, this.msgStart, this.pos) & 0xff;
    p = this.pos;
    buf[p++] = ZERO + 1;
    buf[p++] = ZERO;
    buf[p++] = EQUALS;
    this.putUint(p, checksum, 3);
    buf[p + 3] = SOH;
    this.pos = p + 4;
    this.lastStart = this.msgStart;
    this.lastEnd = this.pos;
  }

  /** A string field; latin1, with SOH and characters beyond latin1 written as '?' (never a broken frame). */
  str(tag: number, value: string): void {
    const len = value.length;
    this.ensure(MAX_NUMERIC_FIELD_BYTES + len);
    this.tagEquals(tag);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < len; i++) {
      const c = value.charCodeAt(i);
      buf[p++] = c === SOH || c > 0xff ? QUESTION_MARK : c;
    }
    buf[p] = SOH;
    this.pos = p + 1;
  }

  /** A one-character field. */
  char(tag: number, value: string): void {
    this.str(tag, value);
  }

  int(tag: number, value: number): void {
    this.ensure(MAX_NUMERIC_FIELD_BYTES);
    this.tagEquals(tag);
    let v = Math.trunc(value);
    if (v < 0) {
      this.buf[this.pos++] = MINUS;
      v = -v;
    }
    const n = digitCount(v);
    this.putUint(this.pos, v, n);
    this.buf[this.pos + n] = SOH;
    this.pos += n + 1;
  }

  bool(tag: number, value: boolean): void {
    this.ensure(MAX_NUMERIC_FIELD_BYTES);
    this.tagEquals(tag);
    this.buf[this.pos] = value ? CHAR_Y : CHAR_N;
    this.buf[this.pos + 1] = SOH;
    this.pos += 2;
  }

  /** units × 10^-scale with exactly `scale` decimals ({ 108500, 5 } → "1.08500"). */
  decimal(tag: number, value: FixDecimal): void {
    this.ensure(MAX_NUMERIC_FIELD_BYTES + value.scale);
    this.tagEquals(tag);
    const buf = this.buf;
    let u = Math.trunc(value.units);
    if (u < 0) {
      buf[this.pos++] = MINUS;
      u = -u;
    }
    const scale = value.scale;
    const digits = Math.max(digitCount(u), scale + 1);
    const end = this.pos + digits + (scale > 0 ? 1 : 0);
    let p = end - 1;
    for (let i = 0; i < digits; i++) {
      if (i === scale && scale > 0) buf[p--] = DOT;
      buf[p--] = ZERO + (u % 10);
      u = Math.floor(u / 10);
    }
    buf[end] = SOH;
    this.pos = end + 1;
  }

  utcTimestamp(tag: number, ms: number): void {
    this.ensure(MAX_NUMERIC_FIELD_BYTES);
    this.tagEquals(tag);
    this.pos = writeUtcTimestamp(this.buf, this.pos, ms);
    this.buf[this.pos++] = SOH;
  }

  /** LocalMktDate from the number yyyymmdd. */
  localMktDate(tag: number, yyyymmdd: number): void {
    this.ensure(MAX_NUMERIC_FIELD_BYTES);
    this.tagEquals(tag);
    this.pos = writeLocalMktDate(this.buf, this.pos, yyyymmdd);
    this.buf[this.pos++] = SOH;
  }

  /** Pre-encoded complete fields (each ending in SOH). */
  raw(bytes: Uint8Array): void {
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  private tagEquals(tag: number): void {
    const n = digitCount(tag);
    this.putUint(this.pos, tag, n);
    this.buf[this.pos + n] = EQUALS;
    this.pos += n + 1;
  }

  private putUint(p: number, value: number, width: number): void {
    const buf = this.buf;
    let v = value;
    for (let i = p + width - 1; i >= p; i--) {
      buf[i] = ZERO + (v % 10);
      v = Math.floor(v / 10);
    }
  }

  private ensure(extra: number): void {
    const needed = this.pos + extra;
    if (needed <= this.buf.length) return;
    const grown = wordBuffer(Math.max(needed, this.buf.length * 2));
    this.buf.copy(grown.buf, 0, 0, this.pos);
    this.buf = grown.buf;
    this.words = grown.words;
  }
}
