// A shard's state at start: its journal directory checked to be its own (store/journal/home.ts),
// the checkpoint its tables hold, then every journal record after the
// checkpoint's LSN replayed through the engine (deterministic: the same commands at the same
// times, from the same prices, give the same state). The replayed outcomes are written as a new
// checkpoint, synchronously, and only then are the journal's segments deleted: a crash anywhere
// in between starts over from a state that is still whole.
import { Engine } from '../engine/engine.js';
import type { HaltedKey, MarginPolicy, SymbolSpec, UnixMs } from '../engine/types.js';
import { loadShardState } from '../store/account-loader.js';
import { CheckpointWriter, type CheckpointHooks } from '../store/checkpoint.js';
import { StoredClientIds } from '../store/client-id-archive.js';
import { claimJournalHome } from '../store/journal/home.js';
import type { JournalIo } from '../store/journal/io.js';
import { readJournal, type JournalReadReport } from '../store/journal/reader.js';
import { checkpointOf, type ShardStore } from '../store/store.js';

export interface RecoveryOptions {
  readonly shard: number;
  readonly symbols: readonly SymbolSpec[];
  readonly clientIdRetentionMs: number;
  /**
   * How long the engine keeps a client id in memory before it looks it up in the shard's store
   * (absent: the whole retention, all in memory).
   */
  readonly clientIdMemoryMs?: number;
  readonly haltedKeys: readonly HaltedKey[];
  readonly marginPolicy: MarginPolicy;
  readonly nowMs: UnixMs;
  readonly checkpointHooks?: CheckpointHooks;
  /**
   * false: replay into memory only, writing and deleting nothing (inspecting a data dir, as
   * `tas state` does). Default true.
   */
  readonly persist?: boolean;
}

export interface Recovered {
  readonly engine: Engine;
  readonly checkpoint: CheckpointWriter;
  /** The next LSN to journal. */
  readonly nextLsn: number;
  readonly journal: JournalReadReport;
}

export function recoverShard(store: ShardStore, io: JournalIo, opts: RecoveryOptions): Recovered {
  claimJournalHome(store, opts.shard, io, opts.persist !== false);
  const meta = checkpointOf(store);
  const memoryMs = opts.clientIdMemoryMs ?? opts.clientIdRetentionMs;
  const state = loadShardState(store, opts.shard, meta, opts.nowMs - memoryMs);
  const mine = new Set(state.accounts.map((a) => a.login));
  const checkpoint = new CheckpointWriter(store, opts.shard, meta, opts.checkpointHooks);
  const archive = opts.clientIdMemoryMs === undefined ? null : new StoredClientIds(opts.clientIdMemoryMs, checkpoint, store, opts.shard);
  const engine = new Engine({
    shardId: opts.shard,
    idCounter: meta.idCounter,
    symbols: opts.symbols,
    accounts: state.accounts,
    pendingOrders: state.pendingOrders,
    recentOrders: state.recentOrders,
    positions: state.positions,
    clientIds: state.clientIds,
    haltedKeys: opts.haltedKeys.filter((k) => mine.has(k.login)),
    quotes: meta.quotes.filter((q) => opts.symbols.some((s) => s.name === q.symbol)),
    clientIdRetentionMs: opts.clientIdRetentionMs,
    deadMen: state.deadMen,
    marginPolicy: opts.marginPolicy,
  }, archive);
  archive?.serve(() => engine.idCounter);
  const journal = readJournal(io, store.journalDir, meta.lsn, (lsn, { nowMs, cmd }) => {
    const outcome = engine.apply(cmd, nowMs);
    if (cmd.kind === 'tick') checkpoint.noteQuote(lsn, cmd.quote);
    checkpoint.note(lsn, outcome);
  });
  if (opts.persist === false) return { engine, checkpoint, nextLsn: journal.lastLsn + 1, journal };
  if (journal.replayed > 0) checkpoint.writeSync(engine.idCounter);
  // A spare, zero-filled for the next run, stays.
  for (const file of journal.files) io.remove(file);
  return { engine, checkpoint, nextLsn: journal.lastLsn + 1, journal };
}
