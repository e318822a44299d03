// A shard's thread: the single writer of the accounts hashed to it. It drains its input rings
// (from the main thread and from the FIX thread) into one batch, lets ShardCore apply and commit
// it, and writes one frame per peer back. Between batches it sleeps on its doorbell without
// blocking its event loop, so LMDB flush callbacks and timers keep running.
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { FrameReader, FrameWriter, Inbox } from '../ring/index.js';
import { loadShardState } from '../store/account-loader.js';
import { pruneHistory } from '../store/retention.js';
import { openShardStore } from '../store/store.js';
import { createLogger } from '../util/log.js';
import { QuoteBoard } from '../market/quote-board.js';
import { ShardCore, PEERS, type Inbound, type Peer } from './core.js';
import type { ShardInbound, ShardOutbound, ShardSignal } from './protocol.js';
import type { ShardWorkerData } from './worker-data.js';
import { writeFrame } from './write-frame.js';

/** Frames taken into one batch at most: bounds a batch's latency and its transaction size. */
const MAX_BATCH_FRAMES = 2048;
const PRUNE_EVERY_MS = 3600_000;

const data = workerData as ShardWorkerData;
const log = createLogger(data.logLevel, { thread: `shard-${data.shard}` });
const signal = (s: ShardSignal): void => parentPort!.postMessage(s);

async function main(): Promise<void> {
  const store = openShardStore(data.dataDir, data.shard, data.durability);
  const prune = (): void => {
    const nowMs = Date.now();
    const pruned = pruneHistory(store, nowMs - data.eventRetentionMs, nowMs - data.clientIdRetentionMs);
    if (pruned.events + pruned.clientIds > 0) log.info(pruned, 'history pruned');
  };
  prune();
  const state = loadShardState(store, Date.now() - data.clientIdRetentionMs);
  const board = QuoteBoard.attach(data.board.sab, data.board.symbols);
  const quotes = data.board.symbols.flatMap((s) => board.read(s) ?? []);
  const mine = new Set(state.accounts.map((a) => a.login));
  const haltedKeys = data.haltedKeys.filter((k) => mine.has(k.login));
  const engine = new Engine({
    shardId: data.shard,
    idCounter: state.idCounter,
    symbols: data.symbols,
    accounts: state.accounts,
    pendingOrders: state.pendingOrders,
    recentOrders: state.recentOrders,
    positions: state.positions,
    clientIds: state.clientIds,
    haltedKeys,
    quotes,
    clientIdRetentionMs: data.clientIdRetentionMs,
  });
  const core = new ShardCore(data.shard, engine, store, state.journalSeq, Date.now);
  // Timers run between batches (one thread): pruning never interleaves with a batch's transaction.
  const pruning = setInterval(prune, PRUNE_EVERY_MS);
  pruning.unref();
  const readers = data.inbound.map((c) => new FrameReader<ShardInbound>(c));
  const writers = data.outbound.map((c) => new FrameWriter<ShardOutbound>(c));
  const inbox = new Inbox(data.inbound);
  signal({ t: 'ready', shard: data.shard, accounts: state.accounts.length });
  log.info({ accounts: state.accounts.length, positions: state.positions.length, pending: state.pendingOrders.length }, 'shard loaded');

  while (!core.stopping) {
    const batch: Inbound[] = [];
    for (let peer = 0; peer < readers.length; peer++) {
      try {
        readers[peer]!.drain(MAX_BATCH_FRAMES - batch.length, (frame) => { batch.push({ peer: peer as Peer, frame }); });
      } catch (err) {
        // A frame that does not decode is consumed and reported; the shard keeps serving.
        log.error({ err, peer: PEERS[peer] }, 'undecodable frame dropped');
      }
    }
    if (batch.length === 0) {
      await inbox.whenReadable();
      continue;
    }
    // A failed commit throws out of here and stops the shard: its engine holds state the disk does not.
    const frames = core.process(batch);
    for (let peer = 0; peer < writers.length; peer++) {
      const frame = frames[peer]!;
      if (frame.events.length > 0 || frame.replies.length > 0 || frame.accounts.length > 0) await writeFrame(writers[peer]!, frame);
    }
  }
  clearInterval(pruning);
  inbox.close();
  await store.close();
  signal({ t: 'stopped', shard: data.shard });
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'shard failed');
  // The main thread sees the worker exit and stops the service: an account without its writer
  // must not keep accepting requests.
  process.exit(1);
});
