// Reads a shard's journal at start: every record after the checkpoint's LSN, in order, with the
// checks format.ts describes. A torn tail (only possible in the last segment in use) ends the log
// and is reported with its file and offset; corruption anywhere else, a gap in the LSNs or a format
// newer than this build refuses the start with a message naming the file.
import path from 'node:path';
import { Unpackr } from 'msgpackr';
import type { JournalEntry } from './entry.js';
import { HEADER_BYTES, RECORD_VERSION, SEGMENT_FORMAT_VERSION, bytesInUse, decodeHeader, readRecord, segmentIndex, type SegmentHeader } from './format.js';
import type { JournalIo } from './io.js';

export class JournalCorruptError extends Error {}

export interface TornTail {
  readonly file: string;
  readonly offset: number;
  readonly why: string;
  /** Bytes from the offset to the last non-zero byte of the segment. */
  readonly droppedBytes: number;
}

export interface JournalReadReport {
  /** The last LSN found (the checkpoint's when the journal holds nothing newer). */
  readonly lastLsn: number;
  /** Records handed out (LSN above the checkpoint's). */
  readonly replayed: number;
  /** The segment files that hold records (every one but the spares). */
  readonly files: readonly string[];
  readonly torn: TornTail | null;
}

interface UsedSegment { readonly file: string; readonly header: SegmentHeader; readonly bytes: Buffer }

function usedSegments(io: JournalIo, dir: string): { readonly used: UsedSegment[]; readonly tornHeader: TornTail | null } {
  const files = io.list(dir).flatMap((name) => {
    const index = segmentIndex(name);
    return index === null ? [] : [{ index, file: path.join(dir, name) }];
  }).sort((a, b) => a.index - b.index);
  const used: UsedSegment[] = [];
  let tornHeader: TornTail | null = null;
  for (const { file } of files) {
    const bytes = io.read(file);
    const h = decodeHeader(bytes.subarray(0, HEADER_BYTES));
    if (h.kind === 'spare') continue;
    if (tornHeader !== null) throw new JournalCorruptError(`journal segment ${tornHeader.file} has a bad header (${tornHeader.why}) but later segments hold records`);
    if (h.kind === 'bad') {
      // A segment's header is written with its first records: torn only if it is the last one.
      tornHeader = { file, offset: 0, why: h.why, droppedBytes: bytesInUse(bytes, 0) };
      continue;
    }
    if (h.header.formatVersion > SEGMENT_FORMAT_VERSION) {
      throw new JournalCorruptError(`journal segment ${file} has format version ${h.header.formatVersion}; this build reads up to ${SEGMENT_FORMAT_VERSION}: start it with a newer tas`);
    }
    used.push({ file, header: h.header, bytes });
  }
  return { used, tornHeader };
}

/** Hands every record with an LSN above `afterLsn` to `onEntry`, in LSN order. */
export function readJournal(io: JournalIo, dir: string, afterLsn: number, onEntry: (lsn: number, entry: JournalEntry) => void): JournalReadReport {
  const { used: segments, tornHeader } = usedSegments(io, dir);
  let expected: number | null = null;
  let replayed = 0;
  let lastLsn = afterLsn;
  let torn: TornTail | null = tornHeader;
  segments.forEach((segment, i) => {
    const isLast = i === segments.length - 1 && tornHeader === null;
    const { file, bytes, header } = segment;
    if (expected !== null && header.firstLsn !== expected) {
      throw new JournalCorruptError(`journal segment ${file} starts at LSN ${header.firstLsn}, expected ${expected}: records are missing`);
    }
    const unpackr = new Unpackr({ sequential: true });
    let lsn = header.firstLsn;
    for (let at = HEADER_BYTES; ;) {
      const r = readRecord(bytes, at);
      if (r.kind === 'end') break;
      if (r.kind === 'bad' || r.lsn !== lsn) {
        const why = r.kind === 'bad' ? r.why : `LSN ${r.lsn} where ${lsn} was expected`;
        if (!isLast) throw new JournalCorruptError(`journal segment ${file} is corrupt at offset ${at} (${why}) and later segments hold records`);
        torn = { file, offset: at, why, droppedBytes: bytesInUse(bytes, at) };
        break;
      }
      if (r.version > RECORD_VERSION) {
        throw new JournalCorruptError(`journal segment ${file}: the record at offset ${at} has version ${r.version}; this build reads up to ${RECORD_VERSION}: start it with a newer tas`);
      }
      // Every record is decoded, even those the checkpoint covers: a later one may use a shape it defines.
      const entry = unpackr.unpack(bytes.subarray(r.payloadAt, r.next)) as JournalEntry;
      if (lsn > afterLsn) {
        if (lsn !== afterLsn + 1 + replayed) throw new JournalCorruptError(`journal ${dir}: LSN ${afterLsn + 1 + replayed} is missing (found ${lsn} in ${file})`);
        onEntry(lsn, entry);
        replayed++;
      }
      lastLsn = Math.max(lastLsn, lsn);
      lsn++;
      at = r.next;
    }
    expected = lsn;
  });
  const files = segments.map((s) => s.file);
  if (tornHeader !== null) files.push(tornHeader.file);
  return { lastLsn, replayed, files, torn };
}
