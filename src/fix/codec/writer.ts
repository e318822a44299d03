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
import { digitCount, putDecimal, putDigits } from './digits.js';
import { writeLocalMktDate, writeUtcTimestamp } from './time.js';
import { Tag } from '../dictionary.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { BEGIN_STRING_FIELD, CHAR_N, CHAR_Y, EQUALS, MINUS, SOH } = ascii;

const QUESTION_MARK = 0x3f;
const BODY_LENGTH_PREFIX = Buffer.from(`${Tag.BodyLength}=`, 'latin1');
const CHECKSUM_PREFIX = Buffer.from(`${Tag.CheckSum}=`, 'latin1');
const ASSUMED_LENGTH_DIGITS = 3;
const RESERVED_HEADER_BYTES = BEGIN_STRING_FIELD.length + BODY_LENGTH_PREFIX.length + ASSUMED_LENGTH_DIGITS + 1;
/** Room for a tag, '=', a number and SOH. */
const MAX_NUMERIC_FIELD_BYTES = 48;

/**
 * "tag=" bytes of every tag below 1024, 8 bytes per tag with the length last: copying them is
 * cheaper than converting the tag to digits on each field.
 */
const TAG_PREFIX_TAGS = 1024;
const TAG_PREFIX_STRIDE = 8;
const TAG_PREFIX: Uint8Array = (() => {
  const t = new Uint8Array(TAG_PREFIX_TAGS * TAG_PREFIX_STRIDE);
  for (let tag = 1; tag < TAG_PREFIX_TAGS; tag++) {
    const text = `${tag}=`;
    for (let k = 0; k < text.length; k++) t[tag * TAG_PREFIX_STRIDE + k] = text.charCodeAt(k);
    t[tag * TAG_PREFIX_STRIDE + TAG_PREFIX_STRIDE - 1] = text.length;
  }
  return t;
})();

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
    this.ensure(Math.max(shift, 0) + CHECKSUM_PREFIX.length + 4);
    const buf = this.buf;
    if (shift !== 0) {
      buf.copyWithin(this.bodyStart + shift, this.bodyStart, this.pos);
      this.pos += shift;
    }
    let p = this.msgStart;
    buf.set(BEGIN_STRING_FIELD, p);
    p += BEGIN_STRING_FIELD.length;
    buf.set(BODY_LENGTH_PREFIX, p);
    p += BODY_LENGTH_PREFIX.length;
    putDigits(buf, p, bodyLength, lengthDigits);
    buf[p + lengthDigits] = SOH;
    const checksum = byteSum(buf, this.words, this.msgStart, this.pos) & 0xff;
    p = this.pos;
    buf.set(CHECKSUM_PREFIX, p);
    p += CHECKSUM_PREFIX.length;
    putDigits(buf, p, checksum, 3);
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
    putDigits(this.buf, this.pos, v, n);
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
    this.pos = putDecimal(buf, this.pos, u, value.scale);
    buf[this.pos++] = SOH;
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
    const buf = this.buf;
    let p = this.pos;
    if (tag < TAG_PREFIX_TAGS) {
      const base = tag * TAG_PREFIX_STRIDE;
      const len = TAG_PREFIX[base + TAG_PREFIX_STRIDE - 1] as number;
      for (let k = 0; k < len; k++) buf[p++] = TAG_PREFIX[base + k] as number;
      this.pos = p;
      return;
    }
    const n = digitCount(tag);
    putDigits(buf, p, tag, n);
    buf[p + n] = EQUALS;
    this.pos = p + n + 1;
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
