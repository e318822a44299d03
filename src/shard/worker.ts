// A shard's thread: the single writer of the accounts hashed to it. At start it recovers its state
// (checkpoint + journal replay); then it runs a duty cycle: drain its input rings (from the main
// thread and from the FIX thread) into one batch, let ShardCore apply it and make it durable
// (one journal write and sync), write one frame per peer back, and keep the checkpoint going
// behind. With nothing to do it waits as config `shard_idle` says (src/ring/idle.ts), returning to
// its event loop often enough for LMDB's commit callbacks, segment preparation and retention.
import { workerData } from 'node:worker_threads';
import { FrameReader, FrameWriter, Inbox } from '../ring/index.js';
import { eventLoopTurn, idleStrategy } from '../ring/idle.js';
import { FaultyJournalIo, faultyCheckpointHooks, parseFaults, type Faults } from '../store/faults.js';
import { FsJournalIo, type JournalIo } from '../store/journal/io.js';
import { JournalWriter } from '../store/journal/writer.js';
import { openShardStore } from '../store/store.js';
import { createLogger } from '../base/log.js';
import { ThreadMemoryBoard } from '../base/thread-memory.js';
import { nameThread } from '../base/thread-name.js';
import { QuoteBoard } from '../market/quote-board.js';
import { FAULTS_VARIABLE } from '../config/env.js';
import { ShardCore, PEERS, MAIN, type Inbound } from './core.js';
import { OrderArchive } from './order-archive.js';
import type { ShardInbound, ShardOutbound } from './protocol.js';
import { endShardThread, runShardThread, signalMain } from './thread.js';
import { recoverShard } from './recovery.js';
import { ShardStatsBoard } from './stats.js';
import { ShardUpkeep } from './upkeep.js';
import type { ShardWorkerData } from './worker-data.js';
import type { WireOutbound } from './batch-wire.js';
import { writeFrame } from './write-frame.js';
import { drainBatch } from './drain-batch.js';

/** Longest a busy duty cycle goes without an event-loop turn. */
const TURN_EVERY_MS = 2;
/** Longest an idle shard blocks before its event loop runs (longer while nothing is in flight). */
const BLOCK_BUSY_MS = 1;
const BLOCK_IDLE_MS = 50;
/** A journal segment needs room for at least this much before a batch starts. */
const HEADROOM_BYTES = 4 * 1024 * 1024;

const data = workerData as ShardWorkerData;
const log = createLogger(data.logLevel, { thread: `shard-${data.shard}` });

function journalIo(faults: Faults): JournalIo {
  const io = new FsJournalIo(data.durability === 'none' ? 'none' : data.journal.sync_method);
  return faults.journal === undefined ? io : new FaultyJournalIo(io, faults.journal);
}

async function main(): Promise<void> {
  nameThread(`tas-shard-${data.shard}`);
  new ThreadMemoryBoard(data.memory).recordOwn();
  const store = openShardStore(data.dataDir, data.shard, data.durability, data.journal.dir);
  const faults = parseFaults(process.env[FAULTS_VARIABLE]);
  const io = journalIo(faults);
  const recovered = recoverShard(store, io, {
    shard: data.shard, symbols: data.symbols, clientIdRetentionMs: data.clientIdRetentionMs, clientIdMemoryMs: data.clientIdMemoryMs, haltedKeys: data.haltedKeys,
    marginPolicy: data.marginPolicy, nowMs: Date.now(),
    checkpointHooks: faultyCheckpointHooks(faults.checkpoint),
  });
  const { engine, checkpoint } = recovered;
  if (recovered.journal.torn !== null) log.warn({ ...recovered.journal.torn }, 'journal: torn tail dropped (never acknowledged)');
  if (recovered.journal.replayed > 0) log.info({ replayed: recovered.journal.replayed, lastLsn: recovered.journal.lastLsn }, 'journal replayed');
  const journal = await JournalWriter.start({
    dir: store.journalDir, shard: data.shard, segmentBytes: data.journal.segment_bytes, headroomBytes: Math.min(HEADROOM_BYTES, data.journal.segment_bytes / 4),
    io, clock: Date.now, nextLsn: recovered.nextLsn, onSegmentError: (err) => log.error({ err }, 'journal: cannot create the next segment'),
  });
  const stats = new ShardStatsBoard(data.stats);
  const core = new ShardCore(data.shard, engine, journal, checkpoint, new OrderArchive(engine, checkpoint, store), Date.now, stats);

  const readers = data.inbound.map((c) => new FrameReader<ShardInbound>(c));
  const writers = data.outbound.map((c) => new FrameWriter<WireOutbound>(c));
  const inbox = new Inbox(data.inbound);
  const idle = idleStrategy(data.idle);
  const toMain: ShardOutbound[] = [];

  // The current prices go in like any tick: journaled when they trigger something.
  const board = QuoteBoard.attach(data.board.sab, data.board.symbols);
  const ticks: Inbound[] = data.board.symbols.flatMap((s) => board.read(s) ?? []).map((quote) => ({ peer: MAIN, frame: { t: 'tick', quote } }));
  for (const f of core.process(ticks)) if (f !== null) toMain.push(f);
  core.noteDurable();

  const upkeep = new ShardUpkeep({
    shard: data.shard, store, eventRetentionMs: data.eventRetentionMs, clientIdRetentionMs: data.clientIdRetentionMs, log, stats,
    onCheckpoint: (lsn) => journal.release(lsn), toMain: (frame) => toMain.push(frame),
  });
  const target = { engine, checkpoint, get health() { return core.health; } };

  signalMain({ t: 'ready', shard: data.shard, accounts: engine.accountCount });
  log.info({ accounts: engine.accountCount, lsn: recovered.nextLsn - 1, idle: data.idle }, 'shard recovered');

  let lastTurnMs = Date.now();
  while (!core.stopping) {
    const batch = drainBatch(readers, (err, peer) => log.error({ err, peer: PEERS[peer] }, 'undecodable frame dropped'));
    const deadline = core.nextDeadlineMs();
    if (batch.length > 0 || (deadline !== null && Date.now() >= deadline)) {
      const frames = core.process(batch);
      upkeep.reportHealth(target);
      while (toMain.length > 0) await writeFrame(writers[MAIN]!, toMain.shift()!);
      for (let peer = 0; peer < writers.length; peer++) {
        const frame = frames[peer];
        if (frame !== null && frame !== undefined) await writeFrame(writers[peer]!, frame);
      }
      core.noteDurable();
    }
    const nowMs = Date.now();
    const started = upkeep.run(nowMs, target, inbox.readable);
    const live = core.live.sweep(nowMs);
    if (live !== null) toMain.push(live);
    while (toMain.length > 0) await writeFrame(writers[MAIN]!, toMain.shift()!);
    if (batch.length > 0 || started) {
      idle.reset();
      if (nowMs - lastTurnMs >= TURN_EVERY_MS) { lastTurnMs = nowMs; await eventLoopTurn(); }
      continue;
    }
    lastTurnMs = nowMs;
    await idle.idle(inbox, upkeep.busy(target) ? BLOCK_BUSY_MS : BLOCK_IDLE_MS);
  }

  // Everything applied is journaled; the last checkpoint makes the next start replay nothing.
  await upkeep.settle(checkpoint);
  if (core.health.state !== 'failed') {
    journal.release(checkpoint.writeSync(engine.idCounter));
  }
  await journal.close();
  await endShardThread(inbox, store, data.shard);
}

runShardThread(main, log);
