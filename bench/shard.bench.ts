// Durable acknowledged orders through the shards and their journals, without HTTP: the main thread
// sends market orders over the rings to the shard workers, each answer leaves once its batch's
// journal records are synced. Measured in one run: the fdatasync floor, throughput with many
// orders in flight, and latency at a fixed 2k orders/s (from the intended send time, so a stall is
// not hidden), first as the service runs (config `shards` and `shard_idle`), then with 2 shards for
// each idle strategy (on this 2-core box two shards and the main thread are three busy threads,
// where waiting matters most), the 2k/s run with the journal apart from the checkpoint (config
// `journal.dir`; the checkpoint on a RAM file system stands in for a device of its own), and the
// 2k/s run once more with durability `none`: the same path with no sync at all, the part of the
// latency that is not the disk.
import { NO_STOP_OUT } from '../src/engine/stop-out.js';
import { build } from 'hdr-histogram-js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command, SymbolSpec } from '../src/engine/types.js';
import { QuoteBoard } from '../src/market/quote-board.js';
import { ShardPool } from '../src/shard/pool.js';
import { SYNC_BUCKETS_US, type Histogram } from '../src/shard/stats.js';
import type { ShardIdle } from '../src/config/types.js';
import { IDLE_STRATEGIES } from '../src/ring/index.js';
import { createLogger } from '../src/base/log.js';
import { measureFsyncFloor } from './support/fsync-floor.js';
import { SERVICE_DEFAULTS } from './support/service-defaults.js';
import { perSec, us, type Row } from './support/stats.js';
import { perOrderNote, usage } from './support/thread-cpu.js';

const ACCOUNTS = 1000;
const DEFAULT_IDLE = SERVICE_DEFAULTS.shard_idle;
const DEFAULT_SHARDS = SERVICE_DEFAULTS.shards;
const IDLE_ORDER: readonly ShardIdle[] = [DEFAULT_IDLE, ...IDLE_STRATEGIES.filter((s) => s !== DEFAULT_IDLE)];
const SYMBOL: SymbolSpec = {
  name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7',
};

export function order(login: string): Command {
  return {
    kind: 'place', login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 1, sizing: null,
    price: null, sl: null, tp: null, clientId: null, source: 'api', keyId: 'bench', webhookId: null,
  };
}

export async function placeOk(pool: ShardPool, login: string): Promise<void> {
  const { answer } = await pool.calls.request(login, order(login));
  if (answer.t !== 'done') throw new Error(`order refused: ${JSON.stringify(answer)}`);
}

/** Orders per second with `inFlight` outstanding, and where their CPU went (per kind of thread). */
export async function throughput(pool: ShardPool, logins: readonly string[], total: number, inFlight: number, dataDir: string): Promise<{ readonly perSec: number; readonly cpu: string }> {
  let sent = 0;
  const cpu0 = usage(dataDir);
  const t0 = process.hrtime.bigint();
  const lane = async (): Promise<void> => {
    while (sent < total) await placeOk(pool, logins[sent++ % logins.length]!);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { perSec: total / (Number(process.hrtime.bigint() - t0) / 1e9), cpu: perOrderNote(cpu0, usage(dataDir), total) };
}

/** Sends at `ratePerSec` on a schedule; latency counts from each order's intended send time. */
export async function fixedRate(pool: ShardPool, logins: readonly string[], ratePerSec: number, seconds: number) {
  const hist = build({ lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000, numberOfSignificantValueDigits: 3 });
  const intervalNs = 1e9 / ratePerSec;
  const total = ratePerSec * seconds;
  const start = process.hrtime.bigint();
  const done: Promise<void>[] = [];
  let i = 0;
  while (i < total) {
    const now = Number(process.hrtime.bigint() - start);
    while (i < total && i * intervalNs <= now) {
      const intendedNs = start + BigInt(Math.round(i * intervalNs));
      const login = logins[i % logins.length]!;
      done.push(placeOk(pool, login).then(() => { hist.recordValue(Number(process.hrtime.bigint() - intendedNs) / 1000); }));
      i++;
    }
    // A timer sleeps a millisecond or more, far more than the latencies measured here: the pacer
    // turns the event loop instead (answers are delivered on the same turns), which costs this
    // thread's core while orders are due and leaves the other to the shards, mostly asleep in a sync.
    await new Promise((r) => setImmediate(r));
  }
  await Promise.all(done);
  return { p50: hist.getValueAtPercentile(50), p99: hist.getValueAtPercentile(99) };
}

/** The journal syncs of every shard between two readings of their figures. */
interface Syncs { readonly counts: readonly number[]; readonly sumUs: number }

function syncsOf(pool: ShardPool): Syncs {
  const hists: Histogram[] = pool.figures().map((f) => f.syncMicros);
  return { counts: hists[0]!.counts.map((_, i) => hists.reduce((n, h) => n + h.counts[i]!, 0)), sumUs: hists.reduce((n, h) => n + h.sum, 0) };
}

/** The bound of the histogram bucket that holds quantile q of the syncs between two readings ('>' past the last). */
function syncQuantile(before: Syncs, after: Syncs, q: number): string {
  const counts = after.counts.map((c, i) => c - before.counts[i]!);
  const total = counts.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!;
    if (seen >= q * total) return i < SYNC_BUCKETS_US.length ? `<= ${us(SYNC_BUCKETS_US[i]!)}` : `> ${us(SYNC_BUCKETS_US.at(-1)!)}`;
  }
  return '-';
}

interface PoolRun {
  readonly maxRate: { readonly perSec: number; readonly cpu: string };
  readonly at2k: { p50: number; p99: number };
  /** The shards' own journal syncs during the fixed-rate run. */
  readonly syncs: { readonly p50: string; readonly p99: string; readonly meanUs: number; readonly count: number };
}

interface PoolSetup {
  readonly idle: ShardIdle;
  readonly shards: number;
  readonly durability: 'sync' | 'none';
  /** Where data_dir (the checkpoint) goes, when not beside the journal (config `journal.dir`). */
  readonly dataApart?: string;
}

/** A RAM file system: the checkpoint's flushes leave the journal's disk, as on a device of their own. */
const TMPFS = '/dev/shm';

async function runPool({ idle, shards, durability, dataApart }: PoolSetup): Promise<PoolRun> {
  const dataDir = fs.mkdtempSync(path.join(dataApart ?? os.tmpdir(), 'tas-bench-shard-'));
  const journalDir = dataApart === undefined ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'tas-bench-journal-'));
  const log = createLogger('warn');
  const board = QuoteBoard.create([SYMBOL.name]);
  const quote = { symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: Date.now() };
  board.write(quote);
  const pool = await ShardPool.start({
    shards, dataDir, durability, logLevel: 'warn', symbols: [SYMBOL], marginPolicy: NO_STOP_OUT,
    board: { sab: board.sab, symbols: board.symbols }, clientIdRetentionMs: 24 * 3600_000, clientIdMemoryMs: 60_000, eventRetentionMs: 24 * 3600_000, haltedKeys: [], log,
    idle, journal: { segment_bytes: 32 << 20, sync_method: 'fdatasync', dir: journalDir },
    onFatal: (err) => { throw err; },
  });
  pool.run();
  try {
    const logins = Array.from({ length: ACCOUNTS }, (_, i) => String(500_000 + i));
    for (const login of logins) {
      await pool.calls.request(login, {
        kind: 'upsertAccount',
        account: { login, user: 'bench', type: 'demo', group: 'bench', currency: 'USD', leverage: 100, server: 'bench', balance: 100_000_000 },
      });
    }
    pool.client.tick(quote);
    // As long as the measured run: with 2,000 orders the first setup of a run measured 10-30% below
    // the same setup later in it (its threads' code not yet optimised), so every row paid for the first.
    await throughput(pool, logins, 40_000, 512, dataDir);
    const maxRate = await throughput(pool, logins, 40_000, 512, dataDir);
    const before = syncsOf(pool);
    const at2k = await fixedRate(pool, logins, 2000, 5);
    const after = syncsOf(pool);
    const count = after.counts.reduce((a, b) => a + b, 0) - before.counts.reduce((a, b) => a + b, 0);
    const syncs = { p50: syncQuantile(before, after, 0.5), p99: syncQuantile(before, after, 0.99), meanUs: (after.sumUs - before.sumUs) / count, count };
    return { maxRate, at2k, syncs };
  } finally {
    await pool.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (journalDir !== null) fs.rmSync(journalDir, { recursive: true, force: true });
  }
}

const shardCount = (shards: number): string => `${shards} shard${shards === 1 ? '' : 's'}`;

function poolRows(run: PoolRun, shards: number, tag: string, floorP50Us: number): Row[] {
  const { maxRate } = run;
  return [
    { name: `durable orders, 512 in flight, ${shardCount(shards)}${tag}`, median: '-', p99: '-', throughput: perSec(maxRate.perSec), note: `goal >= 100k/s; ${maxRate.cpu}` },
    ...latencyRows(run, shards, tag, floorP50Us),
  ];
}

function latencyRows({ at2k, syncs }: PoolRun, shards: number, tag: string, floorP50Us: number, about = ''): Row[] {
  const count = shardCount(shards);
  return [
    { name: `durable order ack at fixed 2k/s, ${count}${tag}`, median: us(at2k.p50), p99: us(at2k.p99), note: `${about}goal p50 <= floor + 150 µs = ${us(floorP50Us + 150)}, p99 <= 1 ms` },
    {
      name: `  its journal syncs in the shards, ${count}${tag}`, median: syncs.p50, p99: syncs.p99,
      note: `mean ${us(syncs.meanUs)} over ${syncs.count} syncs of ${count} (the shards' sync histogram); the floor above is one thread alone`,
    },
  ];
}

/**
 * The configured shards' rows, then each idle strategy's on 2 shards (config `shard_idle`), then the
 * journal apart from the checkpoint, then no sync.
 */
export async function benchShard(): Promise<Row[]> {
  const floorDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-bench-floor-'));
  const floor = measureFsyncFloor(floorDir);
  const at2k = measureFsyncFloor(floorDir, 2000, 2000);
  fs.rmSync(floorDir, { recursive: true, force: true });
  const rows: Row[] = [
    { name: 'fdatasync floor (data volume)', median: us(floor.p50Us), p99: us(floor.p99Us), note: 'one fdatasync of a 128 B write, back to back' },
    { name: 'fdatasync floor @ 2000/s', median: us(at2k.p50Us), p99: us(at2k.p99Us), note: 'the same, one sync every 0.5 ms (the disk idles in between)' },
  ];
  rows.push(...poolRows(await runPool({ idle: DEFAULT_IDLE, shards: DEFAULT_SHARDS, durability: 'sync' }), DEFAULT_SHARDS, ' (the defaults)', floor.p50Us));
  for (const idle of IDLE_ORDER) {
    if (DEFAULT_SHARDS === 2 && idle === DEFAULT_IDLE) continue;
    const tag = ` [shard_idle ${idle}]`;
    rows.push(...poolRows(await runPool({ idle, shards: 2, durability: 'sync' }), 2, tag, floor.p50Us));
  }
  if (fs.existsSync(TMPFS)) {
    const apart = await runPool({ idle: DEFAULT_IDLE, shards: DEFAULT_SHARDS, durability: 'sync', dataApart: TMPFS });
    const about = 'the bound of a device of its own for the journal (tmpfs is not durable: a measurement, not a setup); ';
    rows.push(...latencyRows(apart, DEFAULT_SHARDS, ` [journal.dir apart, data_dir on ${TMPFS}]`, floor.p50Us, about));
  }
  const unsynced = await runPool({ idle: DEFAULT_IDLE, shards: DEFAULT_SHARDS, durability: 'none' });
  rows.push({
    name: `order ack at fixed 2k/s, ${shardCount(DEFAULT_SHARDS)}, durability none`, median: us(unsynced.at2k.p50), p99: us(unsynced.at2k.p99),
    note: 'no sync at all: what is left is the hops and scheduling on 2 cores (the pacer spins on one of them)',
  });
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.table(await benchShard());
}
