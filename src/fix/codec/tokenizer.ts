// Splits one framed message into fields kept as offsets (tag, valueStart, valueEnd) in an
// Int32Array: no string per field. Problems are kept first-wins in two slots: the message's
// structure (found while tokenizing; tokenizing goes on so MsgType and MsgSeqNum are still known
// for the Reject's 372 and 45) and the current typed read (reset by beginRead()), so a header read
// can succeed on a message whose body must still be rejected.
import { SessionRejectReason, Tag } from '../dictionary.js';
import * as ascii from './ascii.js';
import { FixProblem, type RejectKind, rejectText, sessionReject } from './problem.js';
import * as tagTable from './tag-table.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { EQUALS, SOH, ZERO } = ascii;
const { TAG_INFO, TAG_TABLE_SIZE, TagClass, internMsgType } = tagTable;

/** Tags above this are not numbers any FIX engine uses; the int stays exact. */
const MAX_TAG_DIGITS = 9;
const EMPTY = Buffer.alloc(0);

export class FixTokens {
  protected bytes: Buffer = EMPTY;
  /** tag, valueStart, valueEnd per field. */
  protected fields: Int32Array = new Int32Array(3 * 64);
  /** Number of fields of the current message. */
  fieldCount = 0;
  // Tag index: stamp[tag] === generation marks a tag seen in the current message (no clearing).
  private readonly stamp = new Int32Array(TAG_TABLE_SIZE);
  private readonly firstField = new Int32Array(TAG_TABLE_SIZE);
  /** repeated[tag] === generation: the tag occurs more than once in the current message. */
  private readonly repeated = new Int32Array(TAG_TABLE_SIZE);
  private generation = 0;
  private structureKind: RejectKind | null = null;
  private structureTag: number | null = null;
  private failKind: RejectKind | null = null;
  private failTag: number | null = null;
  /** MsgType (35), interned; empty when the message has none. */
  msgType = '';
  /** MsgSeqNum (34), 0 when absent or unreadable. */
  msgSeqNum = 0;

  /** Tokenizes bytes[start, end): one complete frame as handed out by FixFramer. */
  parse(bytes: Uint8Array, start: number, end: number): void {
    this.bytes = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.fieldCount = 0;
    this.failKind = null;
    this.failTag = null;
    this.msgType = '';
    this.msgSeqNum = 0;
    if (++this.generation === 0x7fffffff) {
      this.stamp.fill(0);
      this.repeated.fill(0);
      this.generation = 1;
    }
    const buf = this.bytes;
    const stamp = this.stamp;
    const firstField = this.firstField;
    const repeated = this.repeated;
    const generation = this.generation;
    let fields = this.fields;
    let n = 0;
    let bodySeen = false;
    let p = start;
    while (p < end) {
      const tagStart = p;
      // Kept int32 (| 0): a tag that overflowed into a double would make every later use slower;
      // more than nine digits is invalid anyway.
      let tag = 0;
      let numeric = true;
      for (; p < end; p++) {
        const b = buf[p] as number;
        if (b === EQUALS || b === SOH) break;
        const d = b - ZERO;
        if (d < 0 || d > 9) numeric = false;
        tag = (tag * 10 + d) | 0;
      }
      const tagLen = p - tagStart;
      const validTag = numeric && tagLen > 0 && tagLen <= MAX_TAG_DIGITS && buf[tagStart] !== ZERO;
      if (p >= end || buf[p] !== EQUALS) {
        this.fail(sessionReject(validTag ? SessionRejectReason.TagSpecifiedWithoutValue : SessionRejectReason.InvalidTagNumber), validTag ? tag : null);
        p++;
        continue;
      }
      const valueStart = ++p;
      const info = validTag && tag < TAG_TABLE_SIZE ? (TAG_INFO[tag] as number) : 0;
      let valueEnd = info > TagClass.Trailer ? this.dataEnd(n, info >>> 2, valueStart, end) : -1;
      if (valueEnd < 0) {
        while (p < end && buf[p] !== SOH) p++;
        valueEnd = p;
      }
      p = valueEnd + 1;
      if (!validTag) {
        this.fail(sessionReject(SessionRejectReason.InvalidTagNumber), null);
        continue;
      }
      if (valueEnd === valueStart) this.fail(sessionReject(SessionRejectReason.TagSpecifiedWithoutValue), tag);
      if (3 * n + 3 > fields.length) fields = this.growFields();
      fields[3 * n] = tag;
      fields[3 * n + 1] = valueStart;
      fields[3 * n + 2] = valueEnd;
      if (tag < TAG_TABLE_SIZE) {
        if (stamp[tag] !== generation) {
          stamp[tag] = generation;
          firstField[tag] = n;
        } else {
          repeated[tag] = generation;
        }
      }
      n++;
      const cls = info & 3;
      if (cls === TagClass.Body) bodySeen = true;
      else if (cls === TagClass.Header && bodySeen) this.fail(sessionReject(SessionRejectReason.TagSpecifiedOutOfRequiredOrder), tag);
    }
    this.fieldCount = n;
    this.readHeaderKeys();
    this.structureKind = this.failKind;
    this.structureTag = this.failTag;
    this.beginRead();
  }

  /** Starts a typed read: forgets the problems of the previous one. */
  beginRead(): void {
    this.failKind = null;
    this.failTag = null;
  }

  /** The message's structural problem, else the current read's first problem, else null. */
  problem(): FixProblem | null {
    const structural = this.structureKind !== null;
    const kind = structural ? this.structureKind : this.failKind;
    if (kind === null) return null;
    const tag = structural ? this.structureTag : this.failTag;
    return new FixProblem(kind, tag, this.msgType, this.msgSeqNum, rejectText(kind, tag));
  }

  /** The current read's first problem only (the header read ignores body structure). */
  readProblem(): FixProblem | null {
    const kind = this.failKind;
    if (kind === null) return null;
    return new FixProblem(kind, this.failTag, this.msgType, this.msgSeqNum, rejectText(kind, this.failTag));
  }

  /** Records a problem of the current read (or of tokenizing) unless an earlier one is kept. */
  fail(kind: RejectKind, tag: number | null): void {
    if (this.failKind !== null) return;
    this.failKind = kind;
    this.failTag = tag;
  }

  /** Field index of `tag` in [from, to) (the whole message when from < 0); -1 if absent. 373=13 if repeated. */
  protected find(tag: number, from: number, to: number): number {
    if (from < 0 && tag < TAG_TABLE_SIZE) {
      if (this.stamp[tag] !== this.generation) return -1;
      if (this.repeated[tag] === this.generation) this.fail(sessionReject(SessionRejectReason.TagAppearsMoreThanOnce), tag);
      return this.firstField[tag] as number;
    }
    const f = this.fields;
    const stop = from < 0 ? this.fieldCount : to;
    let found = -1;
    for (let i = from < 0 ? 0 : from; i < stop; i++) {
      if (f[3 * i] !== tag) continue;
      if (found >= 0) {
        this.fail(sessionReject(SessionRejectReason.TagAppearsMoreThanOnce), tag);
        break;
      }
      found = i;
    }
    return found;
  }

  protected tagAt(i: number): number {
    return this.fields[3 * i] as number;
  }

  protected valueStart(i: number): number {
    return this.fields[3 * i + 1] as number;
  }

  protected valueEnd(i: number): number {
    return this.fields[3 * i + 2] as number;
  }

  /** A non-negative int at field i, or -1 (no problem recorded). */
  protected plainInt(i: number): number {
    const buf = this.bytes;
    const s = this.valueStart(i);
    const e = this.valueEnd(i);
    if (e === s || e - s > 15) return -1;
    let v = 0;
    for (let p = s; p < e; p++) {
      const d = (buf[p] as number) - ZERO;
      if (d < 0 || d > 9) return -1;
      v = v * 10 + d;
    }
    return v;
  }

  private growFields(): Int32Array {
    const grown = new Int32Array(this.fields.length * 2);
    grown.set(this.fields);
    this.fields = grown;
    return grown;
  }

  /** End of a DATA value whose LENGTH field came right before it, or -1 to scan for SOH. */
  private dataEnd(fieldsSoFar: number, lengthTag: number, valueStart: number, end: number): number {
    const prev = fieldsSoFar - 1;
    if (prev < 0 || this.tagAt(prev) !== lengthTag) return -1;
    const length = this.plainInt(prev);
    const valueEnd = valueStart + length;
    if (length < 0 || valueEnd >= end || this.bytes[valueEnd] !== SOH) {
      this.fail(sessionReject(SessionRejectReason.IncorrectDataFormat), lengthTag);
      return -1;
    }
    return valueEnd;
  }

  /** 8, 9, 35 must open the message (FIX "standard header" rule); 34 and 35 feed Reject 45/372. */
  private readHeaderKeys(): void {
    const f = this.fields;
    const typeField = this.find(Tag.MsgType, -1, -1);
    if (typeField < 0) this.fail(sessionReject(SessionRejectReason.RequiredTagMissing), Tag.MsgType);
    else if (this.fieldCount < 3 || f[0] !== Tag.BeginString || f[3] !== Tag.BodyLength || typeField !== 2) {
      this.fail(sessionReject(SessionRejectReason.TagSpecifiedOutOfRequiredOrder), Tag.MsgType);
    }
    if (typeField >= 0) {
      const s = this.valueStart(typeField);
      const e = this.valueEnd(typeField);
      this.msgType = internMsgType(this.bytes, s, e) ?? this.bytes.toString('latin1', s, e);
    }
    const seqField = this.find(Tag.MsgSeqNum, -1, -1);
    if (seqField >= 0) this.msgSeqNum = Math.max(0, this.plainInt(seqField));
  }
}
