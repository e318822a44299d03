// Trading-session schedules. Pure (no clock, no I/O): the engine imports this, so time comes in as
// `nowMs`. A weekly window is a [open, close) interval of the week (minute 0 = Sunday 00:00) in a
// fixed UTC offset; a window whose open lies after its close (Fri 22:00 → Mon 01:00) wraps over the
// week's end. The FX week, Sun 23:05 → Fri 23:55 at +03:00, does not wrap.
import type { SessionSpec, UnixMs, WeeklySession } from './types.js';

const MINUTES_PER_DAY = 1440;
const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;
const MS_PER_MINUTE = 60_000;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** 1970-01-01 was a Thursday. */
const EPOCH_WEEKDAY = 4;

export type CompiledSession =
  | { readonly always: true }
  | { readonly always: false; readonly offsetMinutes: number; readonly openMinute: number; readonly closeMinute: number };

export class SessionSpecError extends Error {
  constructor(readonly field: 'tz' | 'open' | 'close' | 'session', message: string) { super(message); }
}

/** The documented FX week: Sunday 23:05 to Friday 23:55, GMT+3. */
export const FX_SESSION: WeeklySession = { tz: '+03:00', open: 'Sun 23:05', close: 'Fri 23:55' };

export function parseOffset(tz: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(tz);
  if (!m) throw new SessionSpecError('tz', `tz must look like "+03:00", got ${JSON.stringify(tz)}`);
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 14 || minutes > 59) throw new SessionSpecError('tz', `tz out of range: ${tz}`);
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function parseWeekMinute(text: string, field: 'open' | 'close'): number {
  const m = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (\d{2}):(\d{2})$/.exec(text);
  if (!m) throw new SessionSpecError(field, `${field} must look like "Sun 23:05", got ${JSON.stringify(text)}`);
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 23 || minutes > 59) throw new SessionSpecError(field, `${field} time out of range: ${text}`);
  return DAYS.indexOf(m[1] as (typeof DAYS)[number]) * MINUTES_PER_DAY + hours * 60 + minutes;
}

export function compileSession(spec: SessionSpec): CompiledSession {
  if (spec === '24x7') return { always: true };
  if (typeof spec !== 'object' || spec === null) throw new SessionSpecError('session', 'session must be "24x7" or {tz, open, close}');
  const openMinute = parseWeekMinute(spec.open, 'open');
  const closeMinute = parseWeekMinute(spec.close, 'close');
  if (openMinute === closeMinute) throw new SessionSpecError('close', 'open and close must differ');
  return { always: false, offsetMinutes: parseOffset(spec.tz), openMinute, closeMinute };
}

/** Minute of the week (0 = Sunday 00:00) at `nowMs` in a zone `offsetMinutes` east of UTC. */
export function minuteOfWeek(nowMs: UnixMs, offsetMinutes: number): number {
  const localMinutes = Math.floor(nowMs / MS_PER_MINUTE) + offsetMinutes;
  const shifted = localMinutes + EPOCH_WEEKDAY * MINUTES_PER_DAY;
  return ((shifted % MINUTES_PER_WEEK) + MINUTES_PER_WEEK) % MINUTES_PER_WEEK;
}

export function isSessionOpen(session: CompiledSession, nowMs: UnixMs): boolean {
  if (session.always) return true;
  const m = minuteOfWeek(nowMs, session.offsetMinutes);
  return session.openMinute < session.closeMinute
    ? m >= session.openMinute && m < session.closeMinute
    : m >= session.openMinute || m < session.closeMinute;
}
