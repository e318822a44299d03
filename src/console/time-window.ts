// The time window of a chart query (`from`, `to`: Unix ms or ISO 8601). Whatever is asked, the
// window is clamped to what is kept (no scan past the retention, none into the future) and aligned
// to the step, so the answer has at most retention / step + 1 points: an absurd range costs no more
// than the widest sensible one. Text that is not a time is bad_request naming the parameter.
import type { UnixMs } from '../engine/types.js';
import { ApiError } from '../gateway/errors.js';
import type { Query } from '../gateway/rest/query.js';

export interface TimeWindow {
  /** First bucket start, inclusive. */
  readonly fromMs: UnixMs;
  /** Last bucket start, inclusive. */
  readonly toMs: UnixMs;
  readonly stepMs: number;
}

const UNIX_MS = /^-?\d{1,20}$/;
const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function instant(q: Query, field: 'from' | 'to'): UnixMs | null {
  const text = q.get(field);
  if (text === undefined) return null;
  const ms = UNIX_MS.test(text) ? Number(text) : ISO.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw new ApiError('bad_request', `${field} must be Unix milliseconds or an ISO 8601 time`, { field });
  return ms;
}

/** The window of `from`..`to` (default: all that is kept), clamped to [now − keepMs, now]. */
export function timeWindow(q: Query, nowMs: UnixMs, keepMs: number, stepMs: number): TimeWindow {
  const oldestMs = nowMs - keepMs;
  const align = (ms: UnixMs): UnixMs => Math.floor(ms / stepMs) * stepMs;
  const clamp = (ms: UnixMs): UnixMs => Math.min(nowMs, Math.max(oldestMs, ms));
  const toMs = align(clamp(instant(q, 'to') ?? nowMs));
  const fromMs = Math.min(toMs, align(clamp(instant(q, 'from') ?? oldestMs)));
  return { fromMs, toMs, stepMs };
}

/** Every bucket start of the window, oldest first. */
export function bucketStarts(w: TimeWindow): UnixMs[] {
  const out: UnixMs[] = [];
  for (let t = w.fromMs; t <= w.toMs; t += w.stepMs) out.push(t);
  return out;
}
