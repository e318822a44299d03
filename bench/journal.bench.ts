// The journal designs issue 10 weighed, measured side by side in one run on this machine's disk,
// with the fdatasync floor of the same run. Two "shards" (worker threads) make market-order
// records durable; each candidate is run at a fixed 2k records/s in all (latency from each
// record's intended arrival to the moment it is durable) and flat out with 256 records per commit
// (throughput). Candidates:
//   segment + fdatasync   each shard its own zero-filled segment file, one pwrite + one fdatasync
//                         per commit (the shipped design, src/store/journal)
//   segment + O_DSYNC     the same, the file opened O_DSYNC: one pwrite per commit
//   journal thread        both shards hand records to one thread that writes and syncs once for
//                         both (one more hop each way)
//   LMDB per batch        one synchronous LMDB transaction per commit with the records and the
//                         state rows an order changes (the design before: data + meta sync)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createDoorbell, createRing } from '../src/ring/index.js';
import { measureFsyncFloor } from './support/fsync-floor.js';
import type { JournalPeerTask, Load, PeerReport } from './journal-peer.js';
import { percentile, perSec, us, type Row } from './support/stats.js';

const SHARDS = 2;
const FIXED_RATE = 2000;
const FIXED_SECONDS = 4;
const FLAT_OUT_SECONDS = 2;
const FLAT_OUT_BATCH = 256;

function peer(task: JournalPeerTask): { worker: Worker; report: Promise<PeerReport> } {
  const worker = new Worker(new URL('./journal-peer.js', import.meta.url), { workerData: task });
  const report = new Promise<PeerReport>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { worker, report };
}

type Candidate = (dir: string, load: Load) => Promise<PeerReport[]>;

const perShard = (task: (dir: string, load: Load) => JournalPeerTask): Candidate => async (dir, load) => {
  const peers = Array.from({ length: SHARDS }, (_, i) => peer(task(path.join(dir, `shard-${i}`), load)));
  try {
    return await Promise.all(peers.map((p) => p.report));
  } finally {
    for (const p of peers) await p.worker.terminate();
  }
};

const journalThread: Candidate = async (dir, load) => {
  const bell = createDoorbell();
  const rings = Array.from({ length: SHARDS }, () => createRing(1 << 20, bell));
  const durable = new SharedArrayBuffer(4 * SHARDS);
  const ready = new SharedArrayBuffer(4);
  const stop = new SharedArrayBuffer(4);
  const journal = peer({ role: 'journal-thread', dir, rings, durable, ready, stop });
  const shards = rings.map((ring, slot) => peer({ role: 'shard-relay', ring, durable, ready, slot, load }));
  try {
    const reports = await Promise.all(shards.map((p) => p.report));
    Atomics.store(new Int32Array(stop), 0, 1);
    Atomics.notify(new Int32Array(bell), 0);
    const j = await journal.report;
    return reports.map((r) => ({ ...r, syncs: j.syncs / SHARDS }));
  } finally {
    for (const p of [journal, ...shards]) await p.worker.terminate();
  }
};

const CANDIDATES: readonly [string, Candidate][] = [
  ['segment + fdatasync (shipped)', perShard((dir, load) => ({ role: 'shard-segment', dir, method: 'fdatasync', load }))],
  ['segment + O_DSYNC', perShard((dir, load) => ({ role: 'shard-segment', dir, method: 'dsync', load }))],
  ['one journal thread for both shards', journalThread],
  ['LMDB transaction per batch (before)', perShard((dir, load) => ({ role: 'shard-lmdb', dir, load }))],
];

export async function benchJournal(): Promise<Row[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-bench-journal-'));
  try {
    const floor = measureFsyncFloor(work);
    const rows: Row[] = [{ name: 'fdatasync floor (data volume)', median: us(floor.p50Us), p99: us(floor.p99Us), note: 'one fdatasync of a 128 B write' }];
    for (const [name, run] of CANDIDATES) {
      const fixed = await run(fs.mkdtempSync(path.join(work, 'c-')), { ratePerSec: FIXED_RATE / SHARDS, seconds: FIXED_SECONDS, batch: 0 });
      const latencies = fixed.flatMap((r) => r.latenciesUs);
      const syncs = fixed.reduce((n, r) => n + r.syncs, 0);
      rows.push({
        name: `${name}: durable at ${FIXED_RATE / 1000}k/s`, median: us(percentile(latencies, 0.5)), p99: us(percentile(latencies, 0.99)),
        note: `${(latencies.length / syncs).toFixed(2)} records per sync`,
      });
      const flat = await run(fs.mkdtempSync(path.join(work, 'c-')), { ratePerSec: 0, seconds: FLAT_OUT_SECONDS, batch: FLAT_OUT_BATCH });
      const records = flat.reduce((n, r) => n + r.records, 0);
      rows.push({ name: `${name}: flat out, ${FLAT_OUT_BATCH} per commit`, median: '-', p99: '-', throughput: perSec(records / FLAT_OUT_SECONDS) });
    }
    return rows;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchJournal());
}
