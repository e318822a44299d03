// Fault injection for the durability tests, which run the real service process: the environment
// variable TAS_FAULTS holds a JSON object of the faults below (every shard applies them; counts are
// per shard). It exists for tests only: the service logs a warning at start when it is set, and a
// value that does not parse stops the start like a bad config value.
import fs from 'node:fs';
import type { CheckpointHooks } from './checkpoint.js';
import type { JournalIo, SegmentFile } from './journal/io.js';

export interface JournalFaults {
  /**
   * Writes reach the file only when a sync runs, so a kill -9 loses exactly what a power loss
   * would: every byte written after the last completed sync.
   */
  readonly lose_unsynced?: boolean;
  /** Each sync takes this much longer: widens the window a crash can land in. */
  readonly sync_delay_ms?: number;
  /** The Nth sync (1-based) and every later one fails with EIO. */
  readonly fail_sync_at?: number;
  /** The process dies (SIGKILL) right after the Nth sync, before any reply of its batch leaves. */
  readonly crash_after_sync?: number;
  /** Creating or preparing a segment fails with ENOSPC while this file exists (the disk is "full"). */
  readonly no_space_while?: string;
}

export interface CheckpointFaults {
  /** The process dies (SIGKILL) while the Nth checkpoint's state transaction is being written. */
  readonly crash_during?: number;
  /** The process dies (SIGKILL) once what the Nth checkpoint writes ahead is durable, before the rest is queued. */
  readonly crash_after_ahead?: number;
  /**
   * While this file exists, every checkpoint fails once what it writes ahead is durable, before the
   * rest is queued, as a commit on a full disk would; the process goes on.
   */
  readonly fail_while?: string;
}

export interface Faults {
  readonly journal?: JournalFaults;
  readonly checkpoint?: CheckpointFaults;
}

const KEYS: Readonly<Record<string, readonly string[]>> = {
  journal: ['lose_unsynced', 'sync_delay_ms', 'fail_sync_at', 'crash_after_sync', 'no_space_while'],
  checkpoint: ['crash_during', 'crash_after_ahead', 'fail_while'],
};

/** The faults in `text` (TAS_FAULTS); throws naming the bad part. */
export function parseFaults(text: string | undefined): Faults {
  if (text === undefined || text === '') return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('TAS_FAULTS must be a JSON object');
  for (const [section, body] of Object.entries(value)) {
    const allowed = KEYS[section];
    if (allowed === undefined) throw new Error(`TAS_FAULTS: unknown section ${section}`);
    if (typeof body !== 'object' || body === null) throw new Error(`TAS_FAULTS.${section} must be an object`);
    for (const [key, v] of Object.entries(body)) {
      if (!allowed.includes(key)) throw new Error(`TAS_FAULTS.${section}: unknown fault ${key}`);
      const ok = key === 'lose_unsynced' ? typeof v === 'boolean' : key.endsWith('_while') ? typeof v === 'string' : Number.isInteger(v) && (v as number) > 0;
      if (!ok) throw new Error(`TAS_FAULTS.${section}.${key} has a bad value`);
    }
  }
  return value as Faults;
}

/** Only the hooks the checkpoint faults ask for: with `afterAhead` set, a checkpoint waits for what went ahead before the rest. */
export function faultyCheckpointHooks(faults: CheckpointFaults | undefined): CheckpointHooks {
  const { crash_during: during, crash_after_ahead: crashAfterAhead, fail_while: failWhile } = faults ?? {};
  const afterAhead = (n: number): void => {
    if (n === crashAfterAhead) crashNow();
    if (failWhile !== undefined && fs.existsSync(failWhile)) throw new Error(`checkpoint ${n} failed: injected while ${failWhile} exists`);
  };
  return {
    // The writes are queued, not committed: dying on the next turn kills the checkpoint midway.
    ...(during === undefined ? {} : { afterQueued: (n: number) => { if (n === during) setImmediate(crashNow); } }),
    ...(crashAfterAhead === undefined && failWhile === undefined ? {} : { afterAhead }),
  };
}

export function crashNow(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL did not end the process');
}

function errnoError(code: 'EIO' | 'ENOSPC', what: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`${code}: injected fault: ${what}`);
  err.code = code;
  return err;
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

class FaultySegmentFile implements SegmentFile {
  private readonly held: { readonly bytes: Buffer; readonly position: number }[] = [];

  constructor(private readonly inner: SegmentFile, private readonly faults: JournalFaults, private readonly countSync: () => number) {}

  write(bytes: Uint8Array, length: number, position: number): void {
    if (this.faults.lose_unsynced === true) this.held.push({ bytes: Buffer.from(bytes.subarray(0, length)), position });
    else this.inner.write(bytes, length, position);
  }

  sync(): void {
    const n = this.countSync();
    if (this.faults.fail_sync_at !== undefined && n >= this.faults.fail_sync_at) throw errnoError('EIO', `sync ${n} fails`);
    if (this.faults.sync_delay_ms !== undefined) sleepMs(this.faults.sync_delay_ms);
    for (const w of this.held.splice(0)) this.inner.write(w.bytes, w.bytes.length, w.position);
    this.inner.sync();
    if (this.faults.crash_after_sync === n) crashNow();
  }

  close(): void { this.inner.close(); }
}

export class FaultyJournalIo implements JournalIo {
  private syncs = 0;

  constructor(private readonly inner: JournalIo, private readonly faults: JournalFaults) {}

  open(file: string): SegmentFile {
    return new FaultySegmentFile(this.inner.open(file), this.faults, () => ++this.syncs);
  }

  prepare(file: string, bytes: number): Promise<void> {
    if (this.full()) return Promise.reject(errnoError('ENOSPC', `no space for ${file}`));
    return this.inner.prepare(file, bytes);
  }

  createNow(file: string, bytes: number): void {
    if (this.full()) throw errnoError('ENOSPC', `no space for ${file}`);
    this.inner.createNow(file, bytes);
  }

  remove(file: string): void { this.inner.remove(file); }

  read(file: string): Buffer { return this.inner.read(file); }

  ensureDir(dir: string): void { this.inner.ensureDir(dir); }

  list(dir: string): string[] { return this.inner.list(dir); }

  writeWhole(file: string, bytes: Uint8Array): void { this.inner.writeWhole(file, bytes); }

  private full(): boolean {
    return this.faults.no_space_while !== undefined && fs.existsSync(this.faults.no_space_while);
  }
}
