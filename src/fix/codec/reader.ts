// Typed access to a tokenized message: each accessor parses only the field asked for. Optional
// accessors return null when the tag is absent; req* accessors record "required tag missing"
// (373=1). A malformed value records 373=6 and an out-of-set value 373=5; a scalar tag present
// twice records 373=13. Typed message readers read everything, then take r.problem().
import { SessionRejectReason } from '../dictionary.js';
import * as ascii from './ascii.js';
import type { CharEnum } from './char-enum.js';
import { type FixDecimal, parseDecimal } from './decimal.js';
import { type RejectKind, sessionReject } from './problem.js';
import { latin1 } from './strings.js';
import { parseLocalMktDate, parseUtcTimestamp } from './time.js';
import { FixTokens } from './tokenizer.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { CHAR_N, CHAR_Y, MINUS, ZERO } = ascii;

/** A repeating group: its NumInGroup tag, the tag every entry starts with, and all tags an entry may hold. */
export interface GroupSpec {
  readonly countTag: number;
  readonly delimiterTag: number;
  readonly memberTags: ReadonlySet<number>;
}

export function defineGroup(countTag: number, delimiterTag: number, otherTags: readonly number[]): GroupSpec {
  return { countTag, delimiterTag, memberTags: new Set([delimiterTag, ...otherTags]) };
}

const ZERO_DECIMAL: FixDecimal = { units: 0, scale: 0 };
const MISSING = sessionReject(SessionRejectReason.RequiredTagMissing);
const BAD_FORMAT = sessionReject(SessionRejectReason.IncorrectDataFormat);
const OUT_OF_RANGE = sessionReject(SessionRejectReason.ValueIsIncorrect);

export class FixReader extends FixTokens {
  /** Field range of the group entry being read; -1 reads the whole message. */
  private scopeFrom = -1;
  private scopeTo = -1;
  /** Entry k of the last group() spans fields [bounds[k], bounds[k + 1]). */
  private bounds = new Int32Array(16);

  override parse(bytes: Uint8Array, start: number, end: number): void {
    super.parse(bytes, start, end);
    this.leaveEntry();
  }

  override beginRead(): void {
    super.beginRead();
    this.leaveEntry();
  }

  /**
   * Number of entries of a top-level repeating group (0 when absent) after checking that each
   * entry starts with the delimiter (373=15) and that the count matches (373=16).
   */
  group(spec: GroupSpec): number {
    this.leaveEntry();
    const countField = this.find(spec.countTag, -1, -1);
    if (countField < 0) return 0;
    const declared = this.plainInt(countField);
    if (declared < 0) return this.failed0(BAD_FORMAT, spec.countTag);
    const n = this.fieldCount;
    let i = countField + 1;
    if (declared > 0 && (i >= n || this.tagAt(i) !== spec.delimiterTag)) {
      return this.failed0(sessionReject(SessionRejectReason.RepeatingGroupFieldsOutOfOrder), spec.delimiterTag);
    }
    let entries = 0;
    while (i < n && this.tagAt(i) === spec.delimiterTag) {
      this.setBound(entries++, i++);
      while (i < n && this.tagAt(i) !== spec.delimiterTag && spec.memberTags.has(this.tagAt(i))) i++;
    }
    this.setBound(entries, i);
    if (entries !== declared) return this.failed0(sessionReject(SessionRejectReason.IncorrectNumInGroupCount), spec.countTag);
    return entries;
  }

  /** Scopes the accessors to entry k of the last group(). */
  enterEntry(k: number): void {
    this.scopeFrom = this.bounds[k] as number;
    this.scopeTo = this.bounds[k + 1] as number;
  }

  /** Back to reading the whole message. */
  leaveEntry(): void {
    this.scopeFrom = -1;
    this.scopeTo = -1;
  }

  has(tag: number): boolean {
    return this.at(tag) >= 0;
  }

  str(tag: number): string | null {
    const i = this.at(tag);
    return i < 0 ? null : latin1(this.bytes, this.valueStart(i), this.valueEnd(i));
  }

  reqStr(tag: number): string {
    return this.str(tag) ?? this.missing(tag, '');
  }

  /** A signed integer of at most 15 digits. */
  int(tag: number): number | null {
    const i = this.at(tag);
    if (i < 0) return null;
    const buf = this.bytes;
    const e = this.valueEnd(i);
    let p = this.valueStart(i);
    const negative = buf[p] === MINUS;
    if (negative) p++;
    if (p === e || e - p > 15) return this.bad(BAD_FORMAT, tag);
    let v = 0;
    for (; p < e; p++) {
      const d = (buf[p] as number) - ZERO;
      if (d < 0 || d > 9) return this.bad(BAD_FORMAT, tag);
      v = v * 10 + d;
    }
    return negative ? -v : v;
  }

  reqInt(tag: number): number {
    return this.int(tag) ?? this.missing(tag, 0);
  }

  /** A required integer that must be at least `min` (373=5 below it). */
  reqIntAtLeast(tag: number, min: number): number {
    const v = this.reqInt(tag);
    if (v < min) this.fail(OUT_OF_RANGE, tag);
    return v;
  }

  /** A one-character value as a one-character string (V8 keeps those cached: no allocation). */
  char(tag: number): string | null {
    const i = this.at(tag);
    if (i < 0) return null;
    const s = this.valueStart(i);
    if (this.valueEnd(i) - s !== 1) return this.bad(BAD_FORMAT, tag);
    return String.fromCharCode(this.bytes[s] as number);
  }

  /** A one-character value of an enumeration (373=5 outside it). */
  enumChar<T extends string>(tag: number, allowed: CharEnum<T>): T | null {
    const i = this.at(tag);
    if (i < 0) return null;
    const s = this.valueStart(i);
    if (this.valueEnd(i) - s !== 1) return this.bad(BAD_FORMAT, tag);
    const code = this.bytes[s] as number;
    return allowed.has(code) ? (String.fromCharCode(code) as T) : this.bad(OUT_OF_RANGE, tag);
  }

  reqEnumChar<T extends string>(tag: number, allowed: CharEnum<T>): T {
    return this.enumChar(tag, allowed) ?? this.missing(tag, '' as T);
  }

  enumInt<T extends number>(tag: number, allowed: ReadonlySet<T>): T | null {
    const v = this.int(tag);
    if (v === null) return null;
    return allowed.has(v as T) ? (v as T) : this.bad(OUT_OF_RANGE, tag);
  }

  reqEnumInt<T extends number>(tag: number, allowed: ReadonlySet<T>): T {
    return this.enumInt(tag, allowed) ?? this.missing(tag, 0 as T);
  }

  /** FIX Boolean: Y or N. */
  bool(tag: number): boolean | null {
    const i = this.at(tag);
    if (i < 0) return null;
    const s = this.valueStart(i);
    const b = this.bytes[s];
    if (this.valueEnd(i) - s !== 1 || (b !== CHAR_Y && b !== CHAR_N)) return this.bad(BAD_FORMAT, tag);
    return b === CHAR_Y;
  }

  /** PRICE/QTY/AMT as an exact decimal (see decimal.ts). */
  decimal(tag: number): FixDecimal | null {
    const i = this.at(tag);
    if (i < 0) return null;
    return parseDecimal(this.bytes, this.valueStart(i), this.valueEnd(i)) ?? this.bad(BAD_FORMAT, tag);
  }

  reqDecimal(tag: number): FixDecimal {
    return this.decimal(tag) ?? this.missing(tag, ZERO_DECIMAL);
  }

  /** UTCTimestamp as Unix ms. */
  utcTimestamp(tag: number): number | null {
    const i = this.at(tag);
    if (i < 0) return null;
    const ms = parseUtcTimestamp(this.bytes, this.valueStart(i), this.valueEnd(i));
    return Number.isNaN(ms) ? this.bad(BAD_FORMAT, tag) : ms;
  }

  reqUtcTimestamp(tag: number): number {
    return this.utcTimestamp(tag) ?? this.missing(tag, 0);
  }

  /** LocalMktDate as the number yyyymmdd. */
  localMktDate(tag: number): number | null {
    const i = this.at(tag);
    if (i < 0) return null;
    const d = parseLocalMktDate(this.bytes, this.valueStart(i), this.valueEnd(i));
    return Number.isNaN(d) ? this.bad(BAD_FORMAT, tag) : d;
  }

  private at(tag: number): number {
    return this.find(tag, this.scopeFrom, this.scopeTo);
  }

  /** Records 373=1 (unless an earlier problem is kept) and returns a placeholder never delivered. */
  private missing<T>(tag: number, placeholder: T): T {
    this.fail(MISSING, tag);
    return placeholder;
  }

  private bad(kind: RejectKind, tag: number): null {
    this.fail(kind, tag);
    return null;
  }

  private failed0(kind: RejectKind, tag: number): number {
    this.fail(kind, tag);
    return 0;
  }

  private setBound(k: number, field: number): void {
    if (k >= this.bounds.length) {
      const grown = new Int32Array(this.bounds.length * 2);
      grown.set(this.bounds);
      this.bounds = grown;
    }
    this.bounds[k] = field;
  }
}
