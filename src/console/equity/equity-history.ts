// Each account's balance and equity over time, for the console's equity chart: one row per account
// and minute (LMDB `equity_history`, [login, minute start ms]), kept 30 days. A sample equal to the
// account's previous row is not stored (an idle account costs nothing); the chart holds each value
// until the next row, and the retention sweep keeps the newest row older than 30 days so a window
// always knows the value it starts with.
//
// `record` is what the shards' samples are stored through (shard-samples.ts).
import type { Cents, UnixMs } from '../../engine/types.js';
import { ApiError } from '../../gateway/errors.js';
import type { Query } from '../../gateway/rest/query.js';
import type { Logger } from '../../base/log.js';
import { forEachSliced } from '../../base/event-loop-turn.js';
import { putInChunks, pruneOlder, type ChartTables } from '../tables.js';
import { bucketStarts, timeWindow, type TimeWindow } from '../time-window.js';

export const EQUITY_STEP_MS = 60_000;
export const EQUITY_KEEP_MS = 30 * 24 * 3600_000;
/** A chart gets at most about this many points; longer windows are drawn with coarser steps. */
export const EQUITY_MAX_POINTS = 1500;
const STEPS_MS = [60_000, 5 * 60_000, 15 * 60_000, 3600_000, 4 * 3600_000] as const;

export interface EquitySample {
  readonly login: string;
  /** When it was taken; stored under its minute. */
  readonly atMs: UnixMs;
  readonly balanceCents: Cents;
  readonly equityCents: Cents;
}

/** The stored row (the key holds login and minute). */
export interface EquityRow { readonly balanceCents: Cents; readonly equityCents: Cents }

/** Samples looked up, or logins swept, per event-loop turn: a shard sends every account's at once. */
const LOGINS_PER_TURN = 64;

const floorMinute = (ms: UnixMs): UnixMs => Math.floor(ms / EQUITY_STEP_MS) * EQUITY_STEP_MS;

/** The coarsest step a window needs to stay under EQUITY_MAX_POINTS points. */
export function equityStepMs(spanMs: number): number {
  return STEPS_MS.find((s) => spanMs / s <= EQUITY_MAX_POINTS) ?? STEPS_MS[STEPS_MS.length - 1]!;
}

export class EquityHistory {
  /** The last stored row per login, to skip samples that change nothing. */
  private readonly last = new Map<string, EquityRow>();

  constructor(private readonly tables: ChartTables, private readonly log: Logger) {}

  async record(samples: readonly EquitySample[]): Promise<void> {
    const rows: [[string, number], EquityRow][] = [];
    await forEachSliced(samples, LOGINS_PER_TURN, (s) => {
      const row: EquityRow = { balanceCents: s.balanceCents, equityCents: s.equityCents };
      const prev = this.last.get(s.login) ?? this.newest(s.login);
      if (prev !== undefined && prev.balanceCents === row.balanceCents && prev.equityCents === row.equityCents) return;
      this.last.set(s.login, row);
      rows.push([[s.login, floorMinute(s.atMs)], row]);
    });
    await putInChunks(this.tables.equityHistory, rows);
  }

  /** The window of a query (`range`, default 1d, or `from`/`to` within the 30 days kept), clamped. */
  window(q: Query, nowMs: UnixMs): TimeWindow {
    const absolute = q.has('from') || q.has('to');
    const range = q.get('range') ?? (absolute ? undefined : '1d');
    if (range !== undefined && absolute) throw new ApiError('bad_request', 'give range or from/to, not both', { field: 'range' });
    const spanMs = range === undefined ? null : RANGES_MS[range];
    if (spanMs === undefined) throw new ApiError('bad_request', `range must be one of ${Object.keys(RANGES_MS).join(', ')}`, { field: 'range' });
    const wide = timeWindow(q, nowMs, spanMs ?? EQUITY_KEEP_MS, EQUITY_STEP_MS);
    return timeWindow(q, nowMs, spanMs ?? EQUITY_KEEP_MS, equityStepMs(wide.toMs - wide.fromMs));
  }

  /**
   * One point per step of the window: the balance and equity at the end of the step (the last row
   * at or before it), null before the account's first row.
   */
  series(login: string, w: TimeWindow, nowMs: UnixMs) {
    const db = this.tables.equityHistory;
    const before = [...db.getRange({ start: [login, w.fromMs], end: [login, Number.MIN_SAFE_INTEGER], reverse: true, limit: 1 })][0];
    let current: EquityRow | null = before?.value ?? null;
    const rows = db.getRange({ start: [login, w.fromMs + 1], end: [login, w.toMs + w.stepMs] })[Symbol.iterator]();
    let next = rows.next();
    const ts: number[] = [];
    const balance: (number | null)[] = [];
    const equity: (number | null)[] = [];
    for (const t of bucketStarts(w)) {
      const endMs = Math.min(t + w.stepMs - 1, nowMs);
      while (!next.done && (next.value.key as [string, number])[1] <= endMs) {
        current = next.value.value;
        next = rows.next();
      }
      ts.push(t);
      balance.push(current === null ? null : current.balanceCents / 100);
      equity.push(current === null ? null : current.equityCents / 100);
    }
    return { login, step_s: w.stepMs / 1000, from: new Date(w.fromMs).toISOString(), to: new Date(w.toMs).toISOString(), ts, balance, equity };
  }

  /** Drops rows past the retention, keeping each account's newest older row (its value at the window start). */
  async sweep(logins: Iterable<string>, nowMs: UnixMs): Promise<void> {
    let removed = 0;
    await forEachSliced(logins, LOGINS_PER_TURN, async (login) => { removed += await pruneOlder(this.tables.equityHistory, login, nowMs - EQUITY_KEEP_MS, 1); });
    if (removed > 0) this.log.debug({ removed }, 'equity history pruned');
  }

  private newest(login: string): EquityRow | undefined {
    return [...this.tables.equityHistory.getRange({ start: [login, Number.MAX_SAFE_INTEGER], end: [login, Number.MIN_SAFE_INTEGER], reverse: true, limit: 1 })][0]?.value;
  }
}

const RANGES_MS: Readonly<Record<string, number>> = { '1h': 3600_000, '1d': 24 * 3600_000, '7d': 7 * 24 * 3600_000, '30d': EQUITY_KEEP_MS };
