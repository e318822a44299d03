// Finds complete FIX 4.4 messages in a TCP byte stream. Bytes of one connection are appended to a
// single growable buffer; a message is handed out as [frameStart, frameEnd) of `bytes`, valid until
// the next push(). A garbled frame (bad BeginString, BodyLength or CheckSum; too large) is reported
// so the session can drop it silently as FIX requires, and the framer resynchronises on the next
// "8=FIX" after the bad frame's first byte, so a good message behind garbage is never lost: bytes
// are only consumed by a valid frame or up to the next possible frame start.
import * as ascii from './ascii.js';
import { byteSum, wordBuffer } from './checksum.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { BEGIN_STRING_FIELD, EQUALS, FRAME_START, SOH, ZERO } = ascii;

export const FrameStatus = { NeedMore: 0, Message: 1, Garbled: 2 } as const;
export type FrameStatusValue = (typeof FrameStatus)[keyof typeof FrameStatus];

export const GarbleReason = {
  BeginString: 'begin_string',
  BodyLength: 'body_length',
  CheckSum: 'checksum',
  TooLarge: 'too_large',
} as const;
export type GarbleReasonValue = (typeof GarbleReason)[keyof typeof GarbleReason];

export interface FramerOptions {
  /** A frame longer than this (all bytes, 8= to 10=) is dropped as garbled. */
  readonly maxMessageBytes: number;
}

const TAG_9 = 0x39;
const TAG_1 = 0x31;
/** "10=NNN<SOH>" */
const TRAILER_BYTES = 7;
/** jspurefix pads BodyLength to 7 digits; nine leaves room and still fits an int31. */
const MAX_BODY_LENGTH_DIGITS = 9;
const INITIAL_CAPACITY_BYTES = 16 * 1024;
const NEED_MORE = 0;
const BAD_BEGIN_STRING = 1;
const BAD_BODY_LENGTH = 2;
const BAD_CHECKSUM = 3;
const TOO_LARGE = 4;
/** Indexed by the codes above (0, NEED_MORE, is never a garble). */
const GARBLE_REASONS: readonly GarbleReasonValue[] = [
  GarbleReason.BodyLength, GarbleReason.BeginString, GarbleReason.BodyLength, GarbleReason.CheckSum, GarbleReason.TooLarge,
];

export class FixFramer {
  private buf: Buffer;
  private words: Uint32Array;
  private readPos = 0;
  private writePos = 0;
  private readonly maxMessageBytes: number;
  /** For an incomplete frame: where the search for a frame inside it resumes, and for which frame. */
  private scanFrameStart = -1;
  private scanPos = 0;
  private probedBodyEnd = -1;

  /** The last Message: bytes[frameStart, frameEnd). */
  frameStart = 0;
  frameEnd = 0;
  /** The last Garbled: why, and which bytes were dropped: bytes[droppedStart, droppedStart + droppedBytes), valid until the next push(). */
  garbleReason: GarbleReasonValue = GarbleReason.BeginString;
  droppedStart = 0;
  droppedBytes = 0;

  constructor(options: FramerOptions) {
    this.maxMessageBytes = options.maxMessageBytes;
    const initial = wordBuffer(Math.min(INITIAL_CAPACITY_BYTES, options.maxMessageBytes * 2));
    this.buf = initial.buf;
    this.words = initial.words;
  }

  /** The connection's buffer; frames are offsets into it. */
  get bytes(): Buffer {
    return this.buf;
  }

  /** Bytes received and not yet handed out or dropped. */
  get pendingBytes(): number {
    return this.writePos - this.readPos;
  }

  /** Appends one TCP read. Frames handed out before are invalid afterwards (bytes may move). */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    if (n === 0) return;
    if (this.readPos === this.writePos) this.readPos = this.writePos = 0;
    if (this.writePos + n > this.buf.length) this.makeRoom(n);
    this.buf.set(chunk, this.writePos);
    this.writePos += n;
  }

  /** Call until NeedMore after every push. Never throws. */
  next(): FrameStatusValue {
    const s = this.readPos;
    if (s === this.writePos) return FrameStatus.NeedMore;
    const probed = this.probe(s);
    if (probed > 0) {
      this.frameStart = s;
      this.frameEnd = probed;
      this.readPos = probed;
      this.scanFrameStart = -1;
      return FrameStatus.Message;
    }
    if (probed === NEED_MORE) {
      // A BodyLength too large for the bytes sent would hold a good message behind it hostage
      // until enough unrelated bytes arrive: a complete valid frame inside this one's body ends it.
      const bodyEnd = this.probedBodyEnd;
      return bodyEnd > 0 && this.validFrameWithin(s, bodyEnd) ? this.garble(GarbleReason.BodyLength) : FrameStatus.NeedMore;
    }
    return this.garble(GARBLE_REASONS[-probed] ?? GarbleReason.BodyLength);
  }

  /**
   * A frame starting at s: its end when complete and valid, NEED_MORE, or -code of a GarbleReason.
   * Sets probedBodyEnd once BodyLength is known (-1 before).
   */
  private probe(s: number): number {
    const buf = this.buf;
    const end = this.writePos;
    this.probedBodyEnd = -1;
    const avail = end - s;
    const prefixLen = BEGIN_STRING_FIELD.length;
    const cmpLen = avail < prefixLen ? avail : prefixLen;
    for (let i = 0; i < cmpLen; i++) if (buf[s + i] !== BEGIN_STRING_FIELD[i]) return -BAD_BEGIN_STRING;
    let p = s + prefixLen;
    if ((p < end && buf[p] !== TAG_9) || (p + 1 < end && buf[p + 1] !== EQUALS)) return -BAD_BODY_LENGTH;
    if (p + 2 > end) return NEED_MORE;
    p += 2;
    let bodyLength = 0;
    const digitsStart = p;
    for (;;) {
      if (p >= end) return NEED_MORE;
      const b = buf[p] as number;
      if (b === SOH) break;
      if (b < ZERO || b > ZERO + 9 || p - digitsStart >= MAX_BODY_LENGTH_DIGITS) return -BAD_BODY_LENGTH;
      bodyLength = bodyLength * 10 + (b - ZERO);
      p++;
    }
    if (p === digitsStart) return -BAD_BODY_LENGTH;
    const bodyEnd = p + 1 + bodyLength;
    const frameEnd = bodyEnd + TRAILER_BYTES;
    if (frameEnd - s > this.maxMessageBytes) return -TOO_LARGE;
    this.probedBodyEnd = bodyEnd;
    if (frameEnd > end) return NEED_MORE;
    if (buf[bodyEnd - 1] !== SOH || buf[bodyEnd] !== TAG_1 || buf[bodyEnd + 1] !== ZERO ||
        buf[bodyEnd + 2] !== EQUALS || buf[frameEnd - 1] !== SOH) {
      return -BAD_BODY_LENGTH;
    }
    const d0 = (buf[bodyEnd + 3] as number) - ZERO;
    const d1 = (buf[bodyEnd + 4] as number) - ZERO;
    const d2 = (buf[bodyEnd + 5] as number) - ZERO;
    if (d0 < 0 || d0 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return -BAD_CHECKSUM;
    return (byteSum(buf, this.words, s, bodyEnd) & 0xff) === d0 * 100 + d1 * 10 + d2 ? frameEnd : -BAD_CHECKSUM;
  }

  /**
   * Whether a complete valid frame starts inside [frameStart + 1, bodyEnd). Candidates found
   * invalid are not examined again for the same frame; undecided ones (cut by the end of the
   * data) are, on the next read.
   */
  private validFrameWithin(frameStart: number, bodyEnd: number): boolean {
    if (this.scanFrameStart !== frameStart) {
      this.scanFrameStart = frameStart;
      this.scanPos = frameStart + 1;
    }
    const limit = Math.min(bodyEnd, this.writePos);
    let firstUndecided = -1;
    for (let candidate = this.find(BEGIN_STRING_FIELD, this.scanPos, limit); candidate >= 0;
      candidate = this.find(BEGIN_STRING_FIELD, candidate + 1, limit)) {
      const probed = this.probe(candidate);
      if (probed > 0) return true;
      if (probed === NEED_MORE && firstUndecided < 0) firstUndecided = candidate;
    }
    this.scanPos = firstUndecided >= 0 ? firstUndecided : limit;
    return false;
  }

  /** Drops bytes up to the next possible "8=FIX" after the bad frame's first byte. */
  private garble(reason: GarbleReasonValue): FrameStatusValue {
    const start = this.readPos;
    const found = this.find(FRAME_START, start + 1, this.writePos);
    const next = found >= 0 ? found : this.writePos;
    this.garbleReason = reason;
    this.droppedStart = start;
    this.droppedBytes = next - start;
    this.readPos = next;
    this.scanFrameStart = -1;
    return FrameStatus.Garbled;
  }

  /**
   * First i in [from, to) where the received bytes match `pattern`, or its beginning when the data
   * ends first (the rest may come with the next read); -1 if none.
   */
  private find(pattern: Uint8Array, from: number, to: number): number {
    const buf = this.buf;
    const end = this.writePos;
    const first = pattern[0];
    for (let i = from; i < to; i++) {
      if (buf[i] !== first) continue;
      let k = 1;
      while (k < pattern.length && i + k < end && buf[i + k] === pattern[k]) k++;
      if (k === pattern.length || i + k === end) return i;
    }
    return -1;
  }

  private makeRoom(incoming: number): void {
    const pending = this.writePos - this.readPos;
    const needed = pending + incoming;
    if (needed <= this.buf.length) {
      this.buf.copyWithin(0, this.readPos, this.writePos);
    } else {
      const grown = wordBuffer(Math.max(needed, this.buf.length * 2));
      this.buf.copy(grown.buf, 0, this.readPos, this.writePos);
      this.buf = grown.buf;
      this.words = grown.words;
    }
    if (this.scanFrameStart >= 0) {
      this.scanFrameStart -= this.readPos;
      this.scanPos -= this.readPos;
    }
    this.readPos = 0;
    this.writePos = pending;
  }
}
