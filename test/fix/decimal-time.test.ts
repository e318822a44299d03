import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToScale, parseDecimal } from '../../src/fix/codec/decimal.js';
import { parseLocalMktDate, parseUtcTimestamp, writeUtcTimestamp, yyyymmddOf } from '../../src/fix/codec/time.js';
import { FixWriter } from '../../src/fix/codec/writer.js';

const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');
const dec = (s: string) => parseDecimal(bytes(s), 0, s.length);

describe('exact decimals', () => {
  it.each([
    ['1.08500', 1085, 3], ['0.00001', 1, 5], ['-12.5', -125, 1], ['100', 100, 0], ['.5', 5, 1], ['5.', 5, 0],
    ['00012.3400', 1234, 2], ['-0.0', 0, 0], ['0.000000000000000001', 1, 18], ['999999999999999', 999_999_999_999_999, 0],
  ])('parses %s without a float', (text, units, scale) => {
    expect(dec(text)).toEqual({ units, scale });
  });

  it.each(['', '-', '.', '1.2.3', '1e5', '+1', ' 1', '1,5', '1234567890123456', '0.1234567890123456'])('rejects %j', (text) => {
    expect(dec(text)).toBeNull();
  });

  it('equals the decimal text exactly (checked with BigInt)', () => {
    fc.assert(fc.property(fc.boolean(), fc.stringMatching(/^[0-9]{1,8}$/), fc.stringMatching(/^[0-9]{0,7}$/), (neg, int, frac) => {
      const text = `${neg ? '-' : ''}${int}${frac === '' ? '' : `.${frac}`}`;
      const d = dec(text);
      expect(d).not.toBeNull();
      if (d === null) return;
      // units / 10^scale == ±int.frac  ⇔  units · 10^len(frac) == ±(int·10^len(frac) + frac) · 10^scale
      const lhs = BigInt(d.units) * 10n ** BigInt(frac.length);
      const rhs = (neg ? -1n : 1n) * BigInt(int + frac) * 10n ** BigInt(d.scale);
      expect(lhs).toBe(rhs);
    }));
  });

  it('converts to ticks exactly and detects a price with too many decimals', () => {
    expect(decimalToScale({ units: 1085, scale: 3 }, 5)).toBe(108_500);
    expect(decimalToScale({ units: 1_085_120, scale: 6 }, 5)).toBe(108_512);
    expect(decimalToScale({ units: 1_085_125, scale: 6 }, 5)).toBeNull();
    expect(decimalToScale({ units: -15, scale: 1 }, 0)).toBeNull();
    expect(decimalToScale({ units: 9_000_000_000_000_000, scale: 0 }, 2)).toBeNull();
  });

  it('round-trips ticks through the writer text for any digits', () => {
    const w = new FixWriter();
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 8 }), (ticks, digits) => {
      w.flush();
      w.decimal(44, { units: ticks, scale: digits });
      const field = w.flush().toString('latin1');
      const value = field.slice(3, -1);
      expect(value).toMatch(digits > 0 ? /^-?\d+\.\d+$/ : /^-?\d+$/);
      const parsed = dec(value);
      expect(parsed && decimalToScale(parsed, digits)).toBe(ticks);
    }));
  });
});

describe('UTC timestamps and dates without Date', () => {
  it('writes and parses any instant from 1970 to 2200 like Date does', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) }), (ms) => {
      const buf = Buffer.alloc(21);
      writeUtcTimestamp(buf, 0, ms);
      const iso = new Date(ms).toISOString();
      expect(buf.toString('latin1')).toBe(`${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 23)}`);
      expect(parseUtcTimestamp(buf, 0, 21)).toBe(ms);
      expect(yyyymmddOf(ms)).toBe(Number(`${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}`));
    }));
  });

  it('accepts seconds, milli-, micro- and nanoseconds (truncated to ms)', () => {
    const at = (s: string) => parseUtcTimestamp(bytes(s), 0, s.length);
    expect(at('20260302-09:30:15')).toBe(Date.UTC(2026, 2, 2, 9, 30, 15));
    expect(at('20260302-09:30:15.123456')).toBe(Date.UTC(2026, 2, 2, 9, 30, 15, 123));
    expect(at('20260302-09:30:15.123456789')).toBe(Date.UTC(2026, 2, 2, 9, 30, 15, 123));
  });

  it.each([
    '20261302-09:30:15', '20260431-09:30:15', '20250229-09:30:15', '20260302-24:00:00', '20260302-09:60:00',
    '20260302 09:30:15', '20260302-09:30:15.12', '20260302-09:30:15.1x3', '2026030209:30:15', '',
  ])('rejects the timestamp %j', (text) => {
    expect(parseUtcTimestamp(bytes(text), 0, text.length)).toBeNaN();
  });

  it('checks LocalMktDate is a real date', () => {
    expect(parseLocalMktDate(bytes('20240229'), 0, 8)).toBe(20240229);
    expect(parseLocalMktDate(bytes('20230229'), 0, 8)).toBeNaN();
    expect(parseLocalMktDate(bytes('2024022'), 0, 7)).toBeNaN();
  });
});
