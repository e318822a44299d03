// The worker side of bench/journal.bench.ts (run from dist/bench/journal-peer.js): one "shard" that
// makes records durable the way a candidate design does, under a schedule of arrivals, and reports
// each record's latency from its intended arrival to the moment it is durable.
//
// Roles:
//   shard-segment   appends to its own journal segment (the real JournalWriter) and commits what
//                   arrived (one write, one sync per commit: the shipped design). `method` picks
//                   fdatasync or O_DSYNC.
//   shard-lmdb      one synchronous LMDB transaction per commit holding the records and the state
//                   rows an order changes (the design before the journal: two syncs per commit).
//   shard-relay     hands its records to a journal thread through an SPSC ring and learns they are
//                   durable from a counter that thread publishes (one more hop each way).
//   journal-thread  drains every shard's ring, writes all records, syncs once, publishes.
// Arrivals: `ratePerSec` on a fixed schedule for `seconds` (latency), or `ratePerSec` 0: as fast as
// possible, `batch` records per commit (throughput).
import fs from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { open } from 'lmdb';
import { Inbox, RingReader, RingWriter, type RingChannel } from '../src/ring/index.js';
import { FsJournalIo, type SyncMethod } from '../src/store/journal/io.js';
import { JournalWriter } from '../src/store/journal/writer.js';
import type { JournalEntry } from '../src/store/journal/entry.js';
import { sharedClockUs } from './ring-peer.js';

export type JournalPeerTask =
  | { readonly role: 'shard-segment'; readonly dir: string; readonly method: SyncMethod; readonly load: Load }
  | { readonly role: 'shard-lmdb'; readonly dir: string; readonly load: Load }
  | { readonly role: 'shard-relay'; readonly ring: RingChannel; readonly durable: SharedArrayBuffer; readonly ready: SharedArrayBuffer; readonly slot: number; readonly load: Load }
  | {
    readonly role: 'journal-thread'; readonly dir: string; readonly rings: readonly RingChannel[]; readonly durable: SharedArrayBuffer;
    /** Set once the thread's file is prepared and it drains: the shards start their schedules then. */
    readonly ready: SharedArrayBuffer;
    readonly stop: SharedArrayBuffer;
  };

export interface Load { readonly ratePerSec: number; readonly seconds: number; readonly batch: number }

export interface PeerReport { readonly latenciesUs: number[]; readonly records: number; readonly elapsedMs: number; readonly syncs: number }

/** A market order as the shards journal it. */
export function orderEntry(n: number): JournalEntry {
  return {
    nowMs: 1_700_000_000_000 + n,
    cmd: {
      kind: 'place', login: String(500_000 + (n % 1000)), symbol: 'EURUSD', side: 'buy', type: 'market', volume: 1, sizing: null,
      price: null, sl: null, tp: null, clientId: `c${n}`, source: 'api', keyId: 'bench-key', webhookId: null,
    },
  };
}

const now = sharedClockUs();
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepUntil = (atUs: number): void => {
  const ms = (atUs - now()) / 1000;
  if (ms > 0.05) Atomics.wait(sleeper, 0, 0, ms);
};

/**
 * Runs the schedule: `commit(n)` makes n new records durable and returns when they are (or, for
 * the relay, returns at once; `settle` then reports what became durable since).
 */
function drive(load: Load, commit: (first: number, n: number) => void): PeerReport {
  const latencies: number[] = [];
  const startUs = now();
  let sent = 0;
  let syncs = 0;
  if (load.ratePerSec === 0) {
    const endUs = startUs + load.seconds * 1e6;
    while (now() < endUs) { commit(sent, load.batch); sent += load.batch; syncs++; }
    return { latenciesUs: [], records: sent, elapsedMs: (now() - startUs) / 1000, syncs };
  }
  const intervalUs = 1e6 / load.ratePerSec;
  const total = Math.round(load.ratePerSec * load.seconds);
  while (sent < total) {
    const due = Math.min(total, Math.floor((now() - startUs) / intervalUs) + 1);
    if (due <= sent) { sleepUntil(startUs + sent * intervalUs); continue; }
    commit(sent, due - sent);
    syncs++;
    const doneUs = now();
    for (let i = sent; i < due; i++) latencies.push(doneUs - (startUs + i * intervalUs));
    sent = due;
  }
  return { latenciesUs: latencies, records: sent, elapsedMs: (now() - startUs) / 1000, syncs };
}

async function segmentShard(t: Extract<JournalPeerTask, { role: 'shard-segment' }>): Promise<PeerReport> {
  const writer = await JournalWriter.start({
    dir: t.dir, shard: 0, segmentBytes: 64 << 20, headroomBytes: 4 << 20, io: new FsJournalIo(t.method), clock: Date.now, nextLsn: 1,
    onSegmentError: (err) => { throw err; },
  });
  const report = drive(t.load, (first, n) => {
    writer.ready();
    for (let i = 0; i < n; i++) writer.append(orderEntry(first + i));
    writer.commit();
  });
  await writer.close();
  return report;
}

function lmdbShard(t: Extract<JournalPeerTask, { role: 'shard-lmdb' }>): PeerReport {
  fs.mkdirSync(t.dir, { recursive: true });
  const root = open({ path: t.dir, maxDbs: 8, mapSize: 2 * 1024 ** 3 });
  const journal = root.openDB<JournalEntry, number>({ name: 'journal', encoding: 'msgpack' });
  const state = root.openDB<JournalEntry, string>({ name: 'state', encoding: 'msgpack' });
  const report = drive(t.load, (first, n) => {
    root.transactionSync(() => {
      for (let i = first; i < first + n; i++) {
        const e = orderEntry(i);
        journal.putSync(i, e);
        // What an order changed in the tables: order, position, client id, event, account.
        for (const table of ['order', 'position', 'client', 'event']) state.putSync(`${table}:${i}`, e);
        state.putSync(`account:${i % 1000}`, e);
      }
    });
  });
  void root.close();
  return report;
}

/** The shard side of the journal thread: records go out through the ring; durability comes back as a counter. */
function relayShard(t: Extract<JournalPeerTask, { role: 'shard-relay' }>): PeerReport {
  const writer = new RingWriter(t.ring);
  const durable = new Int32Array(t.durable);
  const payload = Buffer.from(JSON.stringify(orderEntry(0)));
  // A schedule started before the journal thread had booted and zero-filled its file counted that
  // (150 ms and more) as the first records' latency: the 2k/s p99 of every run.
  const ready = new Int32Array(t.ready);
  while (Atomics.load(ready, 0) === 0) Atomics.wait(ready, 0, 0);
  return drive(t.load, (first, n) => {
    for (let i = 0; i < n; i++) while (!writer.tryWrite(payload)) Atomics.wait(sleeper, 0, 0, 0.05);
    // Wait until the journal thread says everything sent so far is durable.
    for (;;) {
      const got = Atomics.load(durable, t.slot);
      if (got >= first + n) return;
      Atomics.wait(durable, t.slot, got, 5);
    }
  });
}

function journalThread(t: Extract<JournalPeerTask, { role: 'journal-thread' }>): PeerReport {
  fs.mkdirSync(t.dir, { recursive: true });
  const fd = fs.openSync(path.join(t.dir, 'journal'), 'w');
  const zeros = Buffer.alloc(1 << 20);
  for (let i = 0; i < 64; i++) fs.writeSync(fd, zeros, 0, zeros.length, i << 20);
  fs.fsyncSync(fd);
  const readers = t.rings.map((r) => new RingReader(r));
  const durable = new Int32Array(t.durable);
  const stop = new Int32Array(t.stop);
  const counts = t.rings.map(() => 0);
  const buffer = Buffer.alloc(16 << 20);
  let at = 0;
  let syncs = 0;
  let records = 0;
  // The rings share one doorbell: the shards wake this thread as they wake a shard.
  const inbox = new Inbox(t.rings);
  const ready = new Int32Array(t.ready);
  Atomics.store(ready, 0, 1);
  Atomics.notify(ready, 0);
  while (Atomics.load(stop, 0) === 0) {
    let bytes = 0;
    const got = readers.map((r) => r.drainInPlace(1 << 16, (data, start, end) => { buffer.set(data.subarray(start, end), bytes); bytes += end - start; }));
    const n = got.reduce((a, b) => a + b, 0);
    if (n === 0) { inbox.park(1); continue; }
    if (at + bytes > 64 << 20) at = 0;
    fs.writeSync(fd, buffer, 0, bytes, at);
    fs.fdatasyncSync(fd);
    at += bytes;
    syncs++;
    records += n;
    got.forEach((k, i) => { counts[i]! += k; Atomics.store(durable, i, counts[i]!); Atomics.notify(durable, i); });
  }
  fs.closeSync(fd);
  return { latenciesUs: [], records, elapsedMs: 0, syncs };
}

async function run(t: JournalPeerTask): Promise<PeerReport> {
  switch (t.role) {
    case 'shard-segment': return segmentShard(t);
    case 'shard-lmdb': return lmdbShard(t);
    case 'shard-relay': return relayShard(t);
    case 'journal-thread': return journalThread(t);
  }
}

if (parentPort !== null && workerData !== undefined) {
  const port = parentPort;
  void run(workerData as JournalPeerTask).then((report) => port.postMessage(report));
}
