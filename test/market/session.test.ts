import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSession, FX_SESSION, isSessionOpen, minuteOfWeek, parseOffset, SessionSpecError } from '../../src/engine/market-session.js';

const MINUTE = 60_000;
const utc = (iso: string): number => Date.parse(`${iso}Z`);
const fx = compileSession(FX_SESSION);

describe('the FX week (Sun 23:05 to Fri 23:55 at +03:00)', () => {
  // 2024-01-07 is a Sunday; 23:05 at +03:00 is 20:05 UTC.
  it('opens on Sunday at 23:05 local, not a millisecond earlier', () => {
    expect(isSessionOpen(fx, utc('2024-01-07T20:04:59.999'))).toBe(false);
    expect(isSessionOpen(fx, utc('2024-01-07T20:05:00.000'))).toBe(true);
  });

  it('closes on Friday at 23:55 local (close is exclusive)', () => {
    expect(isSessionOpen(fx, utc('2024-01-12T20:54:59.999'))).toBe(true);
    expect(isSessionOpen(fx, utc('2024-01-12T20:55:00.000'))).toBe(false);
  });

  it('is open midweek and closed over the weekend', () => {
    expect(isSessionOpen(fx, utc('2024-01-10T12:00:00'))).toBe(true);
    expect(isSessionOpen(fx, utc('2024-01-13T12:00:00'))).toBe(false); // Saturday
    expect(isSessionOpen(fx, utc('2024-01-07T12:00:00'))).toBe(false); // Sunday before the open
  });

  it('uses the local day: Saturday 22:00 UTC is already Sunday 01:00 at +03:00, still closed', () => {
    expect(minuteOfWeek(utc('2024-01-13T22:00:00'), 180)).toBe(60);
    expect(isSessionOpen(fx, utc('2024-01-13T22:00:00'))).toBe(false);
  });

  it('is the same every week, before 1970 too', () => {
    const week = 7 * 24 * 60 * MINUTE;
    fc.assert(fc.property(fc.integer({ min: -3000, max: 3000 }), fc.integer({ min: 0, max: week - 1 }), (weeks, offset) => {
      const base = utc('2024-01-07T00:00:00') + offset;
      return isSessionOpen(fx, base) === isSessionOpen(fx, base + weeks * week);
    }));
  });
});

describe('a window that wraps over the week end (Fri 22:00 to Mon 02:00, UTC)', () => {
  const weekend = compileSession({ tz: '+00:00', open: 'Fri 22:00', close: 'Mon 02:00' });

  it('is open from Friday night through Sunday to Monday 02:00', () => {
    expect(isSessionOpen(weekend, utc('2024-01-12T21:59:59.999'))).toBe(false);
    expect(isSessionOpen(weekend, utc('2024-01-12T22:00:00'))).toBe(true);
    expect(isSessionOpen(weekend, utc('2024-01-13T12:00:00'))).toBe(true); // Saturday
    expect(isSessionOpen(weekend, utc('2024-01-14T00:00:00'))).toBe(true); // Sunday 00:00, week minute 0
    expect(isSessionOpen(weekend, utc('2024-01-15T01:59:59.999'))).toBe(true);
    expect(isSessionOpen(weekend, utc('2024-01-15T02:00:00'))).toBe(false);
    expect(isSessionOpen(weekend, utc('2024-01-10T12:00:00'))).toBe(false);
  });
});

describe('offsets', () => {
  it('places a negative offset in the right local day', () => {
    const ny = compileSession({ tz: '-05:00', open: 'Mon 09:30', close: 'Mon 16:00' });
    expect(isSessionOpen(ny, utc('2024-01-08T14:29:59.999'))).toBe(false);
    expect(isSessionOpen(ny, utc('2024-01-08T14:30:00'))).toBe(true);
    expect(isSessionOpen(ny, utc('2024-01-08T20:59:59.999'))).toBe(true);
    expect(isSessionOpen(ny, utc('2024-01-08T21:00:00'))).toBe(false);
  });

  it('parses signed hh:mm offsets and refuses others', () => {
    expect(parseOffset('+03:00')).toBe(180);
    expect(parseOffset('-09:30')).toBe(-570);
    expect(parseOffset('+14:00')).toBe(840);
    for (const bad of ['03:00', '+3:00', '+15:00', '+03:60', 'UTC', '']) expect(() => parseOffset(bad)).toThrow(SessionSpecError);
  });
});

describe('compileSession', () => {
  it('keeps 24x7 always open', () => {
    const always = compileSession('24x7');
    expect(isSessionOpen(always, utc('2024-01-13T12:00:00'))).toBe(true);
    expect(isSessionOpen(always, 0)).toBe(true);
  });

  it('names the field that is wrong', () => {
    const field = (spec: unknown): string | undefined => {
      try {
        compileSession(spec as never);
        return undefined;
      } catch (e) {
        return e instanceof SessionSpecError ? e.field : 'not a SessionSpecError';
      }
    };
    expect(field({ tz: '+03:00', open: 'Sun 24:00', close: 'Fri 23:55' })).toBe('open');
    expect(field({ tz: '+03:00', open: 'Sun 23:05', close: 'Friday 23:55' })).toBe('close');
    expect(field({ tz: '+03:00', open: 'Mon 10:00', close: 'Mon 10:00' })).toBe('close');
    expect(field({ tz: 'GMT+3', open: 'Sun 23:05', close: 'Fri 23:55' })).toBe('tz');
    expect(field('always')).toBe('session');
    expect(field(null)).toBe('session');
  });
});
