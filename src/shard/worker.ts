// A shard's thread: the single writer of the accounts hashed to it. It drains its input rings
// (from the main thread and from the FIX thread) into one batch, lets ShardCore apply and commit
// it, and writes one frame per peer back. Between batches it sleeps on its doorbell without
// blocking its event loop, so LMDB flush callbacks and timers keep running.
import { parentPort, workerData } from 'node:worker_threads';
import { Engine } from '../engine/engine.js';
import { FrameReader, FrameWriter, Inbox } from '../ring/index.js';
import { loadShardState } from '../store/account-loader.js';
import { openStore } from '../store/store.js';
import { createLogger } from '../util/log.js';
import { QuoteBoard } from '../market/quote-board.js';
import type { KeyRecord } from '../store/records.js';
import { ShardCore, PEERS, type Inbound, type Peer } from './core.js';
import type { ShardInbound, ShardOutbound, ShardSignal } from './protocol.js';
import type { ShardWorkerData } from './worker-data.js';
import { writeFrame } from './write-frame.js';

/** Frames taken into one batch at most: bounds a batch's latency and its transaction size. */
const MAX_BATCH_FRAMES = 2048;
/**
 * Batches applied but not yet durable at most. While one commits on LMDB's write thread the next is
 * applied and encoded here; answers still leave strictly in batch order, each after its own flush.
 */
const MAX_BATCHES_IN_FLIGHT = 4;

const data = workerData as ShardWorkerData;
const log = createLogger(data.logLevel, { thread: `shard-${data.shard}` });
const signal = (s: ShardSignal): void => parentPort!.postMessage(s);

async function main(): Promise<void> {
  const store = openStore(data.dataDir, data.durability);
  const nowMs = Date.now();
  const state = loadShardState(store, data.shard, data.shards, nowMs - data.clientIdRetentionMs);
  const board = QuoteBoard.attach(data.board.sab, data.board.symbols);
  const quotes = data.board.symbols.flatMap((s) => board.read(s) ?? []);
  const haltedKeys = [...store.db<KeyRecord>('keys').getRange()]
    .map((e) => e.value)
    .filter((k) => k.halted && state.accounts.some((a) => a.login === k.login))
    .map((k) => ({ login: k.login, keyId: k.id }));
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
  const readers = data.inbound.map((c) => new FrameReader<ShardInbound>(c));
  const writers = data.outbound.map((c) => new FrameWriter<ShardOutbound>(c));
  const inbox = new Inbox(data.inbound);
  signal({ t: 'ready', shard: data.shard, accounts: state.accounts.length });
  log.info({ accounts: state.accounts.length, positions: state.positions.length, pending: state.pendingOrders.length }, 'shard loaded');

  // Publishes applied batches in order, each once its commit is durable. A failed commit is fatal:
  // the engine already holds state that would never reach disk.
  let published: Promise<void> = Promise.resolve();
  let inFlight = 0;
  const publish = async (frames: readonly ShardOutbound[], durable: Promise<void> | null): Promise<void> => {
    if (durable) await durable;
    for (let peer = 0; peer < writers.length; peer++) {
      const frame = frames[peer]!;
      if (frame.events.length > 0 || frame.replies.length > 0 || frame.accounts.length > 0) await writeFrame(writers[peer]!, frame);
    }
  };

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
    while (inFlight >= MAX_BATCHES_IN_FLIGHT) await published;
    const { frames, durable } = core.apply(batch);
    inFlight++;
    published = published.then(() => publish(frames, durable)).then(() => { inFlight--; });
    published.catch((err: unknown) => { log.fatal({ err }, 'batch commit failed'); process.exit(1); });
  }
  await published;
  inbox.close();
  await store.flushed();
  await store.close();
  signal({ t: 'stopped', shard: data.shard });
}

main().catch((err: unknown) => {
  log.fatal({ err }, 'shard failed');
  // The main thread sees the worker exit and stops the service: an account without its writer
  // must not keep accepting requests.
  process.exit(1);
});
