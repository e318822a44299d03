// Per-key request statistics over time, for the console's charts (spec "What the service does" 8):
// every request a key's statistics record is added to the open 10-second bucket of that key (as a
// whole and per endpoint). At each 10 s boundary the bucket is closed into LMDB
// (`key_series_10s`, kept one hour) and folded into the open minute, which is closed at each
// minute boundary (`key_series_1m`, kept one day). Queries read the closed buckets and add the
// open ones from memory, so a chart shows a request within its poll. Statistics are reports: a
// crash loses the open buckets; a clean stop writes them (a bucket spanning a restart is merged).
import type { UnixMs } from '../../engine/types.js';
import type { CancelTimer, Clock, Scheduler } from '../../base/clock.js';
import type { Logger } from '../../base/log.js';
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

export class KeySeries {
  /** The open 10 s bucket, per key. */
  private open = new Map<string, KeyTally>();
  private openStartMs: UnixMs;
  /** The closed 10 s buckets of the open minute, per key. */
  private minute = new Map<string, KeyTally>();
  private minuteStartMs: UnixMs;
  /** Buckets starting before this may already hold rows written before a restart. */
  private readonly startedAtMs: UnixMs;
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
    const minute = this.minuteWithOpen();
    this.write(this.deps.tables.keySeries10s, this.open, this.openStartMs);
    this.write(this.deps.tables.keySeries1m, minute, this.minuteStartMs);
    while (this.writes.size > 0) await Promise.all([...this.writes]);
  }

  /** The key's buckets in the window: stored ones and the open one from memory. */
  rows(keyId: string, step: SeriesStep, w: TimeWindow): Map<UnixMs, SeriesRow> {
    const db = step === '10s' ? this.deps.tables.keySeries10s : this.deps.tables.keySeries1m;
    const out = new Map<UnixMs, SeriesRow>();
    for (const { key, value } of db.getRange({ start: [keyId, w.fromMs], end: [keyId, w.toMs + w.stepMs] })) {
      out.set((key as [string, number])[1], value);
    }
    const [liveStartMs, live] = step === '10s' ? [this.openStartMs, this.open.get(keyId)] : [this.minuteStartMs, this.minuteWithOpen().get(keyId)];
    if (live !== undefined && liveStartMs >= w.fromMs && liveStartMs <= w.toMs) {
      const stored = out.get(liveStartMs);
      out.set(liveStartMs, stored === undefined ? live.toRow() : mergeRows(stored, live.toRow()));
    }
    return out;
  }

  /** Closes the buckets that ended by `nowMs`; sweeps the retention once a minute. */
  roll(nowMs: UnixMs): void {
    if (nowMs >= this.openStartMs + TEN_S) {
      this.write(this.deps.tables.keySeries10s, this.open, this.openStartMs);
      for (const [keyId, t] of this.open) {
        const m = this.minute.get(keyId);
        if (m === undefined) this.minute.set(keyId, t);
        else m.merge(t);
      }
      this.open = new Map();
      this.openStartMs = floorTo(nowMs, TEN_S);
    }
    if (nowMs >= this.minuteStartMs + MINUTE) {
      this.write(this.deps.tables.keySeries1m, this.minute, this.minuteStartMs);
      this.minute = new Map();
      this.minuteStartMs = floorTo(nowMs, MINUTE);
      this.track(this.sweep(nowMs));
    }
  }

  /** The open minute including the open 10 s bucket (copies: the open buckets keep counting). */
  private minuteWithOpen(): Map<string, KeyTally> {
    const out = new Map<string, KeyTally>();
    for (const source of [this.minute, this.open]) {
      for (const [keyId, t] of source) {
        let m = out.get(keyId);
        if (m === undefined) {
          m = new KeyTally();
          out.set(keyId, m);
        }
        m.merge(t);
      }
    }
    return out;
  }

  private write(db: ChartTables['keySeries10s'], buckets: ReadonlyMap<string, KeyTally>, startMs: UnixMs): void {
    if (buckets.size === 0) return;
    const mayExist = startMs < this.startedAtMs;
    const rows = [...buckets].map(([keyId, t]): [[string, number], SeriesRow] => {
      const row = t.toRow();
      const stored = mayExist ? db.get([keyId, startMs]) : undefined;
      return [[keyId, startMs], stored === undefined ? row : mergeRows(stored, row)];
    });
    this.track(putInChunks(db, rows));
  }

  private async sweep(nowMs: UnixMs): Promise<void> {
    for (const keyId of this.deps.keyIds()) {
      await pruneOlder(this.deps.tables.keySeries10s, keyId, nowMs - SERIES_STEPS['10s'].keepMs);
      await pruneOlder(this.deps.tables.keySeries1m, keyId, nowMs - SERIES_STEPS['1m'].keepMs);
    }
  }

  private track(p: Promise<void>): void {
    const done: Promise<void> = p.then(
      () => { this.writes.delete(done); },
      (err: unknown) => { this.writes.delete(done); this.deps.log.error({ err }, 'key series write failed'); },
    );
    this.writes.add(done);
  }
}
