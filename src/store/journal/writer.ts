// Appends a shard's journal records and makes them durable: the shard appends every record of a
// batch, then commit() writes them with one write and one sync. That is group commit without a
// timer: while a sync runs, the shard cannot take frames, so whatever arrives meanwhile forms the
// next batch and shares the next sync; at low load a batch is one order and waits for nothing.
//
// Segments (format.ts) are prepared ahead, zero-filled on the thread pool, once the current one is
// half full. Before each batch the shard asks ready(): it switches segments while no record is
// pending if the current one has less than `headroomBytes` left, so a batch normally never crosses
// a segment. A batch larger than the headroom still can: its records up to the boundary are
// written and synced, then the rest go to the next segment (two syncs, still correct).
//
// Failures: when no segment can be created (the disk is full) ready() says so before anything is
// applied, and says yes again once one can; a failed write or sync leaves the journal `failed` for
// good (after a failed fsync the file's state is unknown) and nothing more is acknowledged.
import path from 'node:path';
import { Packr, RESET_BUFFER_MODE, REUSE_BUFFER_MODE } from 'msgpackr';
import type { JournalEntry } from './entry.js';
import { HEADER_BYTES, RECORD_HEADER_BYTES, decodeHeader, encodeHeader, frameRecord, segmentIndex, segmentName } from './format.js';
import type { JournalIo, SegmentFile } from './io.js';

const PACK_INTO_REUSED_BUFFER = REUSE_BUFFER_MODE | RESET_BUFFER_MODE;
type Packed = Buffer & { readonly start: number; readonly end: number };

const FIRST_PENDING_BYTES = 1 << 16;
/** How often ready() retries creating a segment while the disk is full. */
const FULL_RETRY_MS = 200;

export type JournalState = 'ok' | 'full' | 'failed';

export class JournalError extends Error {
  constructor(readonly state: Exclude<JournalState, 'ok'>, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

export interface JournalWriterOptions {
  readonly dir: string;
  readonly shard: number;
  readonly segmentBytes: number;
  /** A segment with less room than this is switched before a batch starts. */
  readonly headroomBytes: number;
  readonly io: JournalIo;
  readonly clock: () => number;
  /** The LSN of the first record this writer appends (the last recovered LSN + 1). */
  readonly nextLsn: number;
  /** A preparation or creation failure, for the log (the journal keeps retrying). */
  readonly onSegmentError: (err: Error) => void;
}

interface Segment {
  readonly index: number;
  readonly file: string;
  readonly firstLsn: number;
}

interface Spare {
  readonly index: number;
  readonly file: string;
  state: 'preparing' | 'ready' | 'failed';
  /** Settles once the preparation ended, either way. */
  done: Promise<void>;
  /** Superseded while still being zero-filled: the file is removed once its preparation ends. */
  abandoned: boolean;
  readonly sinceMs: number;
}

export class JournalWriter {
  private segment: Segment;
  private out: SegmentFile;
  private writeAt = 0;
  private packr = new Packr({ sequential: true });
  private pending = Buffer.allocUnsafeSlow(FIRST_PENDING_BYTES);
  private pendingBytes = 0;
  private nextLsnValue: number;
  private durableLsnValue: number;
  private spare: Spare | null = null;
  private readonly closed: (Segment & { readonly lastLsn: number })[] = [];
  private stateValue: JournalState = 'ok';
  private fullSinceMs = 0;

  private constructor(private readonly opts: JournalWriterOptions, first: Segment, out: SegmentFile) {
    this.segment = first;
    this.out = out;
    this.nextLsnValue = opts.nextLsn;
    this.durableLsnValue = opts.nextLsn - 1;
    this.beginSegment(first);
  }

  /**
   * Opens a journal directory whose records recovery has already read (and whose segments it has
   * released): starts a new segment after every existing one, reusing a spare when one is there.
   */
  static async start(opts: JournalWriterOptions): Promise<JournalWriter> {
    opts.io.ensureDir(opts.dir);
    const names = opts.io.list(opts.dir);
    // Left by a preparation a crash interrupted.
    for (const name of names) if (name.endsWith('.journal.tmp')) opts.io.remove(path.join(opts.dir, name));
    const existing = names.flatMap((name) => {
      const index = segmentIndex(name);
      return index === null ? [] : [{ index, file: path.join(opts.dir, name) }];
    }).sort((a, b) => a.index - b.index);
    const last = existing.at(-1);
    let first: Segment;
    if (last !== undefined && decodeHeader(opts.io.read(last.file).subarray(0, HEADER_BYTES)).kind === 'spare') {
      first = { index: last.index, file: last.file, firstLsn: opts.nextLsn };
    } else {
      const index = (last?.index ?? 0) + 1;
      first = { index, file: path.join(opts.dir, segmentName(index)), firstLsn: opts.nextLsn };
      await opts.io.prepare(first.file, opts.segmentBytes);
    }
    return new JournalWriter(opts, first, opts.io.open(first.file));
  }

  get state(): JournalState { return this.stateValue; }

  /** The LSN the next append gets. */
  get nextLsn(): number { return this.nextLsnValue; }

  /** Every record up to this LSN is durable. */
  get durableLsn(): number { return this.durableLsnValue; }

  /** Records appended and not yet committed. */
  get pendingRecords(): number { return this.nextLsnValue - 1 - this.durableLsnValue; }

  /**
   * Called before a batch is applied: true when its records can be journaled. False while no new
   * segment can be created for a nearly full one (state `full`; retried on later calls) and once
   * the journal has failed.
   */
  ready(): boolean {
    if (this.stateValue === 'failed') return false;
    this.prepareAhead();
    if (this.room() >= this.opts.headroomBytes) return true;
    const nowMs = this.opts.clock();
    if (this.stateValue === 'full' && nowMs - this.fullSinceMs < FULL_RETRY_MS) return false;
    try {
      this.switchSegment();
      this.stateValue = 'ok';
      return true;
    } catch (err) {
      if (this.stateValue !== 'full') this.opts.onSegmentError(err as Error);
      this.stateValue = 'full';
      this.fullSinceMs = nowMs;
      return false;
    }
  }

  /** Encodes the record; returns its LSN. Durable only once commit() returns. */
  append(entry: JournalEntry): number {
    const lsn = this.nextLsnValue;
    const packed = this.packr.pack(entry, PACK_INTO_REUSED_BUFFER) as Packed;
    const payloadBytes = packed.end - packed.start;
    const recordBytes = RECORD_HEADER_BYTES + payloadBytes;
    if (HEADER_BYTES + recordBytes > this.opts.segmentBytes) {
      throw new JournalError('failed', `a journal record of ${recordBytes} bytes does not fit a ${this.opts.segmentBytes}-byte segment`);
    }
    if (recordBytes > this.room() - this.pendingBytes) {
      // The record's shape may be defined in this packing; the next segment needs a fresh encoder,
      // so it is packed again there.
      this.crossSegment();
      return this.append(entry);
    }
    this.ensurePending(recordBytes);
    packed.copy(this.pending, this.pendingBytes + RECORD_HEADER_BYTES, packed.start, packed.end);
    frameRecord(this.pending, this.pendingBytes, payloadBytes, lsn);
    this.pendingBytes += recordBytes;
    this.nextLsnValue = lsn + 1;
    return lsn;
  }

  /**
   * Writes and syncs everything appended: one write, one sync. Returns the microseconds the sync
   * took (0 when nothing was pending). Throws JournalError('failed').
   */
  commit(): number {
    if (this.pendingBytes === 0) return 0;
    if (this.stateValue === 'failed') throw new JournalError('failed', 'the journal has failed; nothing more can be made durable');
    let micros: number;
    try {
      this.out.write(this.pending, this.pendingBytes, this.writeAt);
      const t0 = process.hrtime.bigint();
      this.out.sync();
      micros = Number(process.hrtime.bigint() - t0) / 1000;
    } catch (err) {
      this.stateValue = 'failed';
      throw new JournalError('failed', `journal ${this.segment.file}: ${(err as Error).message}`, { cause: err });
    }
    this.writeAt += this.pendingBytes;
    this.pendingBytes = 0;
    this.durableLsnValue = this.nextLsnValue - 1;
    return micros;
  }

  /** Deletes the segments whose every record is at or below `lsn` (a durable checkpoint covers them). */
  release(lsn: number): void {
    while (this.closed.length > 0 && this.closed[0]!.lastLsn <= lsn) this.opts.io.remove(this.closed.shift()!.file);
  }

  /**
   * Closes the current segment; a spare still being prepared is abandoned and waited for (a ready
   * one stays for the next start), so nothing writes in the directory once this resolves.
   */
  async close(): Promise<void> {
    this.out.close();
    const spare = this.spare;
    if (spare?.state !== 'preparing') return;
    spare.abandoned = true;
    await spare.done;
  }

  private room(): number {
    return this.opts.segmentBytes - this.writeAt;
  }

  private beginSegment(segment: Segment): void {
    this.segment = segment;
    this.writeAt = 0;
    this.packr = new Packr({ sequential: true });
    const header = encodeHeader({ shard: this.opts.shard, firstLsn: segment.firstLsn, createdAtMs: this.opts.clock(), segmentBytes: this.opts.segmentBytes });
    this.ensurePending(HEADER_BYTES);
    header.copy(this.pending, this.pendingBytes);
    this.pendingBytes += HEADER_BYTES;
  }

  /** Mid-batch: what is pending goes to the current segment, the rest of the batch to the next. */
  private crossSegment(): void {
    this.commit();
    try {
      this.switchSegment();
    } catch (err) {
      this.stateValue = 'failed';
      throw new JournalError('failed', `journal: no segment for the rest of a batch: ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Closes the current segment and starts the next; nothing may be pending. Throws when none can be
   * created. A spare still being zero-filled is skipped (its index with it): creating a file under
   * its name now would race with the zeros still being written there.
   */
  private switchSegment(): void {
    let index = this.segment.index + 1;
    const spare = this.spare;
    if (spare?.state === 'preparing') spare.abandoned = true;
    if (spare === null || spare.state !== 'ready') {
      if (spare?.state === 'preparing') index = spare.index + 1;
      this.opts.io.createNow(path.join(this.opts.dir, segmentName(index)), this.opts.segmentBytes);
    } else {
      index = spare.index;
    }
    this.spare = null;
    const file = path.join(this.opts.dir, segmentName(index));
    const out = this.opts.io.open(file);
    this.out.close();
    this.out = out;
    const lastLsn = this.nextLsnValue - 1;
    if (lastLsn >= this.segment.firstLsn) this.closed.push({ ...this.segment, lastLsn });
    else this.opts.io.remove(this.segment.file);
    this.beginSegment({ index, file, firstLsn: this.nextLsnValue });
  }

  /** Starts zero-filling the next segment once the current one is half used (a failed try is retried later). */
  private prepareAhead(): void {
    if (this.writeAt < this.opts.segmentBytes / 2) return;
    const nowMs = this.opts.clock();
    const current = this.spare;
    if (current !== null && (current.state !== 'failed' || nowMs - current.sinceMs < FULL_RETRY_MS)) return;
    const index = this.segment.index + 1;
    const spare: Spare = { index, file: path.join(this.opts.dir, segmentName(index)), state: 'preparing', done: Promise.resolve(), abandoned: false, sinceMs: nowMs };
    this.spare = spare;
    spare.done = this.opts.io.prepare(spare.file, this.opts.segmentBytes).then(
      () => {
        spare.state = 'ready';
        if (spare.abandoned) this.opts.io.remove(spare.file);
      },
      (err: unknown) => {
        spare.state = 'failed';
        if (spare.abandoned) this.opts.io.remove(spare.file);
        else this.opts.onSegmentError(err as Error);
      },
    );
  }

  private ensurePending(more: number): void {
    if (this.pendingBytes + more <= this.pending.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.pending.length * 2, this.pendingBytes + more));
    this.pending.copy(grown, 0, 0, this.pendingBytes);
    this.pending = grown;
  }
}
