// Per-key request statistics over time, for the console's charts (spec "What the service does" 8):
// every request a key's statistics record is added to the open 10-second bucket of that key (as a
// whole and per endpoint). At each 10 s boundary the bucket is closed into LMDB
// (`key_series_10s`, kept one hour) and folded into the open minute, which is closed at each
// minute boundary (`key_series_1m`, kept one day). Queries read the closed buckets and add the
// open ones from memory, so a chart shows a request within its poll. Statistics are reports: a
// crash loses the open buckets; a clean stop writes them (a bucket spanning a restart is merged).
//
// A closed bucket's rows are made ROWS_PER_TURN keys per event-loop turn, and its keys' retention
// is swept the same way: with 2,000 active keys, closing a bucket in one go blocked the main
// thread for 20-25 ms every 10 s and the minute's sweep for tens of ms more, which was the p99 of
// every REST row of the bench (signed GET at 5,000/s: 43 ms). Until its rows are handed to LMDB,
// a closing bucket is read from memory like the open one.
import type { UnixMs } from '../../engine/types.js';
import type { CancelTimer, Clock, Scheduler } from '../../base/clock.js';
import type { Logger } from '../../base/log.js';
import { eventLoopTurn, forEachSliced } from '../../base/event-loop-turn.js';
import { putInChunks, pruneOlder, type ChartTables } from '../tables.js';
import type { TimeWindow } from '../time-window.js';
import { KeyTally, mergeRows, type SeriesRow } from './tally.js';

export const SERIES_STEPS = {
  '10s': { stepMs: 10_000, keepMs: 3600_000 },
  '1m': { stepMs: 60_000, keepMs: 24 * 3600_000 },
} as const;
export type SeriesStep = keyof typeof SERIES_STEPS;

const TEN_S = SERIES_STEPS['10s'].stepMs;
const MINUTE = SERIES_STEPS['1m'].stepMs;

export interface KeySeriesDeps {
  readonly tables: ChartTables;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly log: Logger;
  /** Every key id that may have stored buckets (revoked keys too), for the retention sweep. */
  readonly keyIds: () => Iterable<string>;
}

const floorTo = (ms: UnixMs, stepMs: number): UnixMs => Math.floor(ms / stepMs) * stepMs;

/**
 * Keys whose 10 s rows are made, or whose retention is swept, per event-loop turn: a row costs 4-5
 * µs, a minute's row (six parts merged) about 20, so a minute's slice is a sixth of this.
 */
const ROWS_PER_TURN = 64;

type SeriesTable = ChartTables['keySeries10s'];

/** The 10 s buckets, per key, that one stored bucket adds up: one for a 10 s bucket, up to six for a minute. */
type Parts = readonly ReadonlyMap<string, KeyTally>[];

/** A closed bucket whose rows are not yet all handed to LMDB. */
interface Closing {
  readonly db: SeriesTable;
  readonly startMs: UnixMs;
  readonly parts: Parts;
}

/** One key's tally over the parts (a part's own object when only one part is given). */
function tallyOf(parts: Parts, keyId: string): KeyTally | undefined {
  if (parts.length === 1) return parts[0]!.get(keyId);
  let out: KeyTally | undefined;
  for (const part of parts) {
    const t = part.get(keyId);
    if (t === undefined) continue;
    out ??= new KeyTally();
    out.merge(t);
  }
  return out;
}

export class KeySeries {
  /** The open 10 s bucket, per key. */
  private open = new Map<string, KeyTally>();
  private openStartMs: UnixMs;
  /** The closed 10 s buckets of the open minute. */
  private minuteParts: Map<string, KeyTally>[] = [];
  private minuteStartMs: UnixMs;
  /** Buckets starting before this may already hold rows written before a restart. */
  private readonly startedAtMs: UnixMs;
  /** Closed buckets, oldest first, whose rows are being made. */
  private readonly closing: Closing[] = [];
  private draining: Promise<void> | null = null;
  private cancel: CancelTimer | null = null;
  private readonly writes = new Set<Promise<void>>();

  constructor(private readonly deps: KeySeriesDeps) {
    const nowMs = deps.clock.nowMs();
    this.startedAtMs = nowMs;
    this.openStartMs = floorTo(nowMs, TEN_S);
    this.minuteStartMs = floorTo(nowMs, MINUTE);
  }

  /** A request of a key (KeyStatsBook's tap). */
  readonly record = (keyId: string, endpoint: string, errorName: string | null, latencyUs: number): void => {
    let t = this.open.get(keyId);
    if (t === undefined) {
      t = new KeyTally();
      this.open.set(keyId, t);
    }
    t.add(endpoint, errorName, latencyUs);
  };

  start(): void {
    const arm = (): void => {
      const nowMs = this.deps.clock.nowMs();
      this.cancel = this.deps.scheduler.schedule(floorTo(nowMs, TEN_S) + TEN_S - nowMs, () => {
        this.roll(this.deps.clock.nowMs());
        arm();
      });
    };
    arm();
  }

  /** Writes the open buckets (a restart merges them with what comes after) and waits for every write. */
  async stop(): Promise<void> {
    this.cancel?.();
    this.close(this.deps.tables.keySeries10s, this.openStartMs, [this.open]);
    this.close(this.deps.tables.keySeries1m, this.minuteStartMs, [...this.minuteParts, this.open]);
    this.open = new Map();
    this.minuteParts = [];
    while (this.draining !== null || this.writes.size > 0) await Promise.all([this.draining, ...this.writes]);
  }

  /** The key's buckets in the window: stored ones, and the closing and open ones from memory. */
  rows(keyId: string, step: SeriesStep, w: TimeWindow): Map<UnixMs, SeriesRow> {
    const db = step === '10s' ? this.deps.tables.keySeries10s : this.deps.tables.keySeries1m;
    const out = new Map<UnixMs, SeriesRow>();
    for (const { key, value } of db.getRange({ start: [keyId, w.fromMs], end: [keyId, w.toMs + w.stepMs] })) {
      out.set((key as [string, number])[1], value);
    }
    const addLive = (startMs: UnixMs, parts: Parts): void => {
      const live = startMs >= w.fromMs && startMs <= w.toMs ? tallyOf(parts, keyId) : undefined;
      if (live === undefined) return;
      const stored = out.get(startMs);
      out.set(startMs, stored === undefined ? live.toRow() : mergeRows(stored, live.toRow()));
    };
    for (const c of this.closing) if (c.db === db) addLive(c.startMs, c.parts);
    if (step === '10s') addLive(this.openStartMs, [this.open]);
    else addLive(this.minuteStartMs, [...this.minuteParts, this.open]);
    return out;
  }

  /** Closes the buckets that ended by `nowMs`; sweeps the retention once a minute. */
  roll(nowMs: UnixMs): void {
    if (nowMs >= this.openStartMs + TEN_S) {
      this.close(this.deps.tables.keySeries10s, this.openStartMs, [this.open]);
      this.minuteParts.push(this.open);
      this.open = new Map();
      this.openStartMs = floorTo(nowMs, TEN_S);
    }
    if (nowMs >= this.minuteStartMs + MINUTE) {
      this.close(this.deps.tables.keySeries1m, this.minuteStartMs, this.minuteParts);
      this.minuteParts = [];
      this.minuteStartMs = floorTo(nowMs, MINUTE);
      this.track(this.sweep(nowMs));
    }
  }

  private close(db: SeriesTable, startMs: UnixMs, parts: Parts): void {
    if (parts.every((p) => p.size === 0)) return;
    this.closing.push({ db, startMs, parts });
    if (this.draining === null) this.draining = this.drain();
  }

  /**
   * Makes the closing buckets' rows, a slice of keys per turn, and hands each bucket's rows to LMDB.
   * It starts a turn later, so `draining` is set before it can end, and it ends only when no bucket
   * is left, so a bucket closed meanwhile is never left behind.
   */
  private async drain(): Promise<void> {
    await eventLoopTurn();
    try {
      await this.drainClosing();
    } catch (err) {
      // Statistics are reports: the buckets not yet stored are dropped rather than retried forever.
      this.closing.length = 0;
      this.deps.log.error({ err }, 'key series write failed');
    } finally {
      this.draining = null;
    }
  }

  private async drainClosing(): Promise<void> {
    for (let c = this.closing[0]; c !== undefined; c = this.closing[0]) {
      const mayExist = c.startMs < this.startedAtMs;
      const keyIds = c.parts.length === 1 ? [...c.parts[0]!.keys()] : [...new Set(c.parts.flatMap((p) => [...p.keys()]))];
      const rows: [[string, number], SeriesRow][] = [];
      await forEachSliced(keyIds, Math.ceil(ROWS_PER_TURN / c.parts.length), (keyId) => {
        const row = tallyOf(c.parts, keyId)!.toRow();
        const stored = mayExist ? c.db.get([keyId, c.startMs]) : undefined;
        rows.push([[keyId, c.startMs], stored === undefined ? row : mergeRows(stored, row)]);
      });
      this.closing.shift();
      this.track(putInChunks(c.db, rows));
    }
  }

  private async sweep(nowMs: UnixMs): Promise<void> {
    await forEachSliced(this.deps.keyIds(), ROWS_PER_TURN, async (keyId) => {
      await pruneOlder(this.deps.tables.keySeries10s, keyId, nowMs - SERIES_STEPS['10s'].keepMs);
      await pruneOlder(this.deps.tables.keySeries1m, keyId, nowMs - SERIES_STEPS['1m'].keepMs);
    });
  }

  private track(p: Promise<void>): void {
    const done: Promise<void> = p.then(
      () => { this.writes.delete(done); },
      (err: unknown) => { this.writes.delete(done); this.deps.log.error({ err }, 'key series write failed'); },
    );
    this.writes.add(done);
  }
}
