// The journal on real files in a temp dir: records written by the writer come back from the reader
// in order, across segment switches; what a crash can leave (a torn tail) is dropped and reported;
// what it cannot (a bad record before more records, a missing LSN, a newer format) stops the read
// with the file named; a full disk and a failing sync are states the writer reports, not crashes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/store/journal/entry.js';
import { HEADER_BYTES, RECORD_HEADER_BYTES, segmentIndex } from '../../src/store/journal/format.js';
import { FsJournalIo } from '../../src/store/journal/io.js';
import { JournalCorruptError, readJournal } from '../../src/store/journal/reader.js';
import { JournalError, JournalWriter } from '../../src/store/journal/writer.js';
import { FaultyJournalIo } from '../../src/store/faults.js';
import { tempDir } from '../support/server.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

const SEGMENT = 16 * 1024;
const io = new FsJournalIo('fdatasync');

function journalDir(): string {
  const dir = tempDir('tas-journal-');
  dirs.push(dir);
  return path.join(dir, 'journal');
}

const tick = (n: number): JournalEntry => ({ nowMs: 1_700_000_000_000 + n, cmd: { kind: 'tick', quote: { symbol: n % 2 === 0 ? 'EURUSD' : 'BTCUSD', bid: 100 + n, ask: 101 + n, ts: n } } });

async function writer(dir: string, opts: Partial<Parameters<typeof JournalWriter.start>[0]> = {}): Promise<JournalWriter> {
  return JournalWriter.start({
    dir, shard: 3, segmentBytes: SEGMENT, headroomBytes: SEGMENT / 4, io, clock: Date.now, nextLsn: 1,
    onSegmentError: (err) => { throw err; }, ...opts,
  });
}

function readAll(dir: string, after = 0, reader = io): { entries: [number, JournalEntry][]; report: ReturnType<typeof readJournal> } {
  const entries: [number, JournalEntry][] = [];
  const report = readJournal(reader, dir, after, (lsn, e) => entries.push([lsn, e]));
  return { entries, report };
}

/** The segment files that hold records (a spare prepared ahead is all zeros), in order. */
const segments = (dir: string): string[] => fs.readdirSync(dir)
  .filter((n) => segmentIndex(n) !== null && fs.readFileSync(path.join(dir, n)).readUInt32LE(0) !== 0).sort();

describe('journal writer and reader', () => {
  it('reads back every committed record in order, across segment switches, from any LSN on', async () => {
    const dir = journalDir();
    const w = await writer(dir);
    let lsn = 0;
    for (let batch = 0; batch < 60; batch++) {
      expect(w.ready()).toBe(true);
      for (let i = 0; i < 20; i++) lsn = w.append(tick(lsn + 1));
      expect(w.pendingRecords).toBe(20);
      expect(w.commit()).toBeGreaterThan(0);
      expect(w.durableLsn).toBe(lsn);
    }
    await w.close();
    expect(segments(dir).length).toBeGreaterThan(2);
    const { entries, report } = readAll(dir);
    expect(entries.map(([n]) => n)).toEqual(Array.from({ length: 1200 }, (_, i) => i + 1));
    expect(entries[41]![1]).toEqual(tick(42));
    expect(report).toMatchObject({ lastLsn: 1200, replayed: 1200, torn: null });
    expect(readAll(dir, 1000).entries.map(([n]) => n)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1001));
  });

  it('releases the segments a checkpoint covers, and only those', async () => {
    const dir = journalDir();
    const w = await writer(dir);
    for (let n = 1; n <= 1200; n++) {
      if ((n - 1) % 20 === 0) w.ready();
      w.append(tick(n));
      if (n % 20 === 0) w.commit();
    }
    const before = segments(dir).length;
    w.release(600);
    const after = segments(dir).length;
    expect(after).toBeLessThan(before);
    await w.close();
    // Everything after the checkpoint is still there to replay.
    expect(readAll(dir, 600).entries.map(([n]) => n)).toEqual(Array.from({ length: 600 }, (_, i) => i + 601));
  });

  it('drops a torn tail in the last segment, keeps what came before, and says where', async () => {
    const dir = journalDir();
    const w = await writer(dir);
    for (let n = 1; n <= 10; n++) w.append(tick(n));
    w.commit();
    await w.close();
    const [last] = segments(dir).slice(-1);
    const file = path.join(dir, last!);
    const bytes = fs.readFileSync(file);
    const starts: number[] = [];
    for (let at = HEADER_BYTES, i = 0; i < 10; i++) {
      starts.push(at);
      at += RECORD_HEADER_BYTES + bytes.readUInt32LE(at);
    }
    const end = starts[9]! + RECORD_HEADER_BYTES + bytes.readUInt32LE(starts[9]!);
    // Record 10 written only in part: its last bytes never reached the disk.
    bytes.fill(0, end - 5, end);
    fs.writeFileSync(file, bytes);
    const { entries, report } = readAll(dir);
    expect(entries.map(([n]) => n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(report.torn).toMatchObject({ file, offset: starts[9], why: 'checksum mismatch' });
    expect(report.lastLsn).toBe(9);
  });

  it('refuses a bad record that later segments follow, a missing LSN and a newer format, naming the file', async () => {
    const dir = journalDir();
    const w = await writer(dir);
    for (let n = 1; n <= 1200; n++) {
      if ((n - 1) % 20 === 0) w.ready();
      w.append(tick(n));
      if (n % 20 === 0) w.commit();
    }
    await w.close();
    const [first, second] = segments(dir);
    const firstFile = path.join(dir, first!);
    const original = fs.readFileSync(firstFile);

    const flipped = Buffer.from(original);
    flipped[HEADER_BYTES + RECORD_HEADER_BYTES + 2]! ^= 0xff;
    fs.writeFileSync(firstFile, flipped);
    expect(() => readAll(dir)).toThrow(new RegExp(`${firstFile}.*corrupt at offset ${HEADER_BYTES}`));

    fs.writeFileSync(firstFile, original);
    fs.rmSync(path.join(dir, second!));
    expect(() => readAll(dir)).toThrow(JournalCorruptError);
    expect(() => readAll(dir)).toThrow(/records are missing/);
  });

  it('refuses a segment of a newer format version with a message naming it', async () => {
    const dir = journalDir();
    const w = await writer(dir);
    w.append(tick(1));
    w.commit();
    await w.close();
    const file = path.join(dir, segments(dir)[0]!);
    const bytes = fs.readFileSync(file);
    bytes.writeUInt16LE(99, 4);
    // The header checksum must hold, or the header is merely torn.
    const { crc32 } = await import('node:zlib');
    bytes.writeUInt32LE(crc32(bytes.subarray(0, 60)), 60);
    fs.writeFileSync(file, bytes);
    expect(() => readAll(dir)).toThrow(new RegExp(`${file} has format version 99; this build reads up to 1`));
  });

  it('is full (not failed) while no segment can be created, and ready again once one can', async () => {
    const dir = journalDir();
    const flag = path.join(path.dirname(dir), 'disk-full');
    const errors: string[] = [];
    let clock = 1_000_000;
    const w = await writer(dir, { io: new FaultyJournalIo(io, { no_space_while: flag }), clock: () => clock, onSegmentError: (err) => errors.push(err.message) });
    fs.writeFileSync(flag, '');
    let n = 0;
    while (w.ready()) {
      for (let i = 0; i < 50; i++) w.append(tick(++n));
      w.commit();
    }
    expect(w.state).toBe('full');
    expect(errors.join('\n')).toMatch(/ENOSPC/);
    fs.rmSync(flag);
    // Retried after a pause, not on every batch.
    expect(w.ready()).toBe(false);
    clock += 1000;
    expect(w.ready()).toBe(true);
    expect(w.state).toBe('ok');
    w.append(tick(++n));
    w.commit();
    await w.close();
    // Nothing was lost.
    expect(readAll(dir).entries.map(([lsn]) => lsn)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  });

  it('fails for good when a sync fails: nothing more is acknowledged', async () => {
    const dir = journalDir();
    const w = await writer(dir, { io: new FaultyJournalIo(io, { fail_sync_at: 2 }) });
    w.append(tick(1));
    w.commit();
    w.append(tick(2));
    expect(() => w.commit()).toThrow(JournalError);
    expect(w.state).toBe('failed');
    expect(w.ready()).toBe(false);
    expect(w.durableLsn).toBe(1);
    await w.close();
  });

  it('loses exactly what was written after the last sync when the power goes (fault-injected)', async () => {
    const dir = journalDir();
    const w = await writer(dir, { io: new FaultyJournalIo(io, { lose_unsynced: true }) });
    w.append(tick(1));
    w.append(tick(2));
    w.commit();
    w.append(tick(3));
    // No commit: the process dies here; its unsynced bytes die with it.
    expect(readAll(dir).entries.map(([n]) => n)).toEqual([1, 2]);
    await w.close();
  });
});
