// UTCTimestamp and LocalMktDate without Date objects: civil-date arithmetic on integers
// (H. Hinnant's days_from_civil / civil_from_days), so parsing and writing allocate nothing.
import * as ascii from './ascii.js';
import { putDigits } from './digits.js';

// Module-local copies of the byte constants: V8 re-reads an imported binding through its module
// cell on every use (a byte-scanning loop ran ~1.5x slower), a module const is folded.
const { COLON, DOT, MINUS, ZERO } = ascii;

const MS_PER_DAY = 86_400_000;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Two decimal digits at bytes[p], or -1. */
function twoDigits(bytes: Uint8Array, p: number): number {
  const hi = (bytes[p] as number) - ZERO;
  const lo = (bytes[p + 1] as number) - ZERO;
  return hi >>> 0 > 9 || lo >>> 0 > 9 ? -1 : hi * 10 + lo;
}

/** "YYYYMMDD" at bytes[p] as the number yyyymmdd, or -1 (digits only, not yet a date check). */
function ymdAt(bytes: Uint8Array, p: number): number {
  const c = twoDigits(bytes, p);
  const y = twoDigits(bytes, p + 2);
  const m = twoDigits(bytes, p + 4);
  const d = twoDigits(bytes, p + 6);
  return c < 0 || y < 0 || m < 0 || d < 0 ? -1 : ((c * 100 + y) * 100 + m) * 100 + d;
}

// Consecutive messages carry the same date: the last one's day number is kept (a pure memo).
let lastYmd = -1;
let lastDays = 0;

/** yyyymmdd as days since 1970-01-01, or NaN when it is not a calendar date. */
function daysOf(ymd: number): number {
  if (ymd < 0) return NaN;
  if (ymd === lastYmd) return lastDays;
  const y = Math.floor(ymd / 10_000);
  const m = Math.floor(ymd / 100) % 100;
  const d = ymd % 100;
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) return NaN;
  lastYmd = ymd;
  lastDays = daysFromCivil(y, m, d);
  return lastDays;
}

/**
 * "YYYYMMDD-HH:MM:SS[.sss]" as Unix ms, or NaN. Micro- and nanosecond fractions (later FIX
 * versions, some engines send them on 4.4 too) are accepted and truncated to the millisecond.
 */
export function parseUtcTimestamp(bytes: Uint8Array, start: number, end: number): number {
  const len = end - start;
  if (len !== 17 && len !== 21 && len !== 24 && len !== 27) return NaN;
  const days = daysOf(ymdAt(bytes, start));
  if (Number.isNaN(days) || bytes[start + 8] !== MINUS || bytes[start + 11] !== COLON || bytes[start + 14] !== COLON) return NaN;
  const hh = twoDigits(bytes, start + 9);
  const mi = twoDigits(bytes, start + 12);
  const ss = twoDigits(bytes, start + 15);
  // 60 is a leap second (FIX allows it); it lands on the next minute's first second.
  if (hh < 0 || hh > 23 || mi < 0 || mi > 59 || ss < 0 || ss > 60) return NaN;
  let ms = 0;
  if (len > 17) {
    if (bytes[start + 17] !== DOT) return NaN;
    for (let p = start + 18; p < end; p++) {
      const digit = (bytes[p] as number) - ZERO;
      if (digit >>> 0 > 9) return NaN;
      if (p < start + 21) ms = ms * 10 + digit;
    }
  }
  return days * MS_PER_DAY + ((hh * 60 + mi) * 60 + ss) * 1000 + ms;
}

/** "YYYYMMDD" as the number yyyymmdd after checking it is a real date, or NaN. */
export function parseLocalMktDate(bytes: Uint8Array, start: number, end: number): number {
  if (end - start !== 8) return NaN;
  const ymd = ymdAt(bytes, start);
  return Number.isNaN(daysOf(ymd)) ? NaN : ymd;
}

/** The UTC calendar date of a Unix ms instant as yyyymmdd (for LocalMktDate fields). */
export function yyyymmddOf(ms: number): number {
  const z = Math.floor(ms / MS_PER_DAY) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return y * 10_000 + m * 100 + d;
}

// The date written last (a pure memo: consecutive messages share it).
let writtenDay = NaN;
let writtenYmd = 0;

/** Length of "YYYYMMDD-HH:MM:SS.sss". */
export const UTC_TIMESTAMP_BYTES = 21;

/** Writes "YYYYMMDD-HH:MM:SS.sss" (years 0..9999) at buf[p]; returns the end. */
export function writeUtcTimestamp(buf: Uint8Array, p: number, ms: number): number {
  const day = Math.floor(ms / MS_PER_DAY);
  // Int32 from here on: the time of day is below 86 400 000.
  const dayMs = (Math.floor(ms) - day * MS_PER_DAY) | 0;
  if (day !== writtenDay) {
    writtenDay = day;
    writtenYmd = yyyymmddOf(ms);
  }
  putDigits(buf, p, writtenYmd, 8);
  buf[p + 8] = MINUS;
  putDigits(buf, p + 9, (dayMs / 3_600_000) | 0, 2);
  buf[p + 11] = COLON;
  putDigits(buf, p + 12, ((dayMs / 60_000) | 0) % 60, 2);
  buf[p + 14] = COLON;
  putDigits(buf, p + 15, ((dayMs / 1000) | 0) % 60, 2);
  buf[p + 17] = DOT;
  putDigits(buf, p + 18, dayMs % 1000, 3);
  return p + UTC_TIMESTAMP_BYTES;
}

/** Writes the yyyymmdd number as "YYYYMMDD"; returns the end. */
export function writeLocalMktDate(buf: Uint8Array, p: number, yyyymmdd: number): number {
  putDigits(buf, p, yyyymmdd, 8);
  return p + 8;
}
