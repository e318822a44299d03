// Replays a validated tape, keeping the gaps between rows relative to the first one, divided by
// `speed`. Rows are stamped with the time they are published (the file's ts only paces them), so
// a tape recorded last year still yields current quotes for the engine and the streams.
import type { Clock, CancelTimer, Scheduler } from '../../base/clock.js';
import type { ReplayTape } from './replay-file.js';
import type { PriceSource, QuoteSink } from './source.js';

/** A playback rate (2 = twice as fast as recorded) or 'max': as fast as possible, ignoring gaps. */
export type ReplaySpeed = number | 'max';

export interface ReplayOptions {
  readonly tape: ReplayTape;
  readonly speed: ReplaySpeed;
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  /** Most rows published per timer turn, so a backlog never starves the event loop. Default 1024. */
  readonly batchRows?: number;
}

export class ReplaySource implements PriceSource {
  readonly kind = 'replay';
  private readonly speed: number;
  private readonly batchRows: number;
  /** Settles once the last row is published or the source is stopped; a tape plays once. */
  readonly done: Promise<void>;
  private readonly resolveDone: () => void;
  private state: 'idle' | 'playing' | 'ended' = 'idle';
  private sink: QuoteSink | null = null;
  private next = 0;
  private startMs = 0;
  private cancel: CancelTimer | null = null;

  constructor(private readonly options: ReplayOptions) {
    const { speed, batchRows = 1024 } = options;
    if (speed !== 'max' && !(Number.isFinite(speed) && speed > 0)) throw new RangeError(`replay speed must be > 0 or "max", got ${speed}`);
    if (!Number.isSafeInteger(batchRows) || batchRows < 1) throw new RangeError(`replay batchRows must be a positive integer, got ${batchRows}`);
    this.speed = speed === 'max' ? Infinity : speed;
    this.batchRows = batchRows;
    let resolve: () => void = () => undefined;
    this.done = new Promise((r) => { resolve = r; });
    this.resolveDone = resolve;
  }

  /** Rows published so far. */
  get published(): number {
    return this.next;
  }

  start(sink: QuoteSink): void {
    if (this.state !== 'idle') return;
    this.state = 'playing';
    this.sink = sink;
    this.startMs = this.options.clock.nowMs();
    this.cancel = this.options.scheduler.schedule(0, () => this.play());
  }

  stop(): void {
    this.state = 'ended';
    this.sink = null;
    this.cancel?.();
    this.cancel = null;
    this.resolveDone();
  }

  /** When row `i` is due: its offset from the first row, scaled (0 for every row at 'max'), never early. */
  private dueMs(i: number): number {
    const rows = this.options.tape.rows;
    return this.startMs + Math.ceil(((rows[i]?.ts ?? 0) - (rows[0]?.ts ?? 0)) / this.speed);
  }

  private play(): void {
    const sink = this.sink;
    if (!sink) return;
    const rows = this.options.tape.rows;
    const nowMs = this.options.clock.nowMs();
    const end = Math.min(rows.length, this.next + this.batchRows);
    while (this.next < end && this.dueMs(this.next) <= nowMs) {
      const row = rows[this.next++];
      if (row) sink.publish({ symbol: row.symbol, bid: row.bid, ask: row.ask, ts: nowMs });
      if (this.sink !== sink) return; // a subscriber stopped the market
    }
    if (this.next >= rows.length) {
      this.stop();
      return;
    }
    this.cancel = this.options.scheduler.schedule(Math.max(0, this.dueMs(this.next) - nowMs), () => this.play());
  }
}
