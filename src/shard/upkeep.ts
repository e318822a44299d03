// What runs behind a shard's order path, between batches: the checkpoint (write-behind, started
// once enough records are noted or some time has passed), the equity samples, the hourly retention
// pruning, and the journal's health as the main thread should see it. Shared by the single-process shard and the
// cluster shard (src/cluster), whose engine and checkpoint are rebuilt when it changes role.
import type { Engine } from '../engine/engine.js';
import type { UnixMs } from '../engine/types.js';
import { eventLoopTurn } from '../ring/idle.js';
import type { CheckpointWriter } from '../store/checkpoint.js';
import { pruneHistory } from '../store/retention.js';
import type { ShardStore } from '../store/store.js';
import type { Logger } from '../base/log.js';
import type { CheckpointHealth, JournalHealth, ShardOutbound } from './protocol.js';
import type { ShardStatsBoard } from './stats.js';

const PRUNE_EVERY_MS = 3600_000;
/**
 * When a checkpoint starts. Its cost is in LMDB pages: the history tables are keyed by account, so
 * a checkpoint rewrites about a leaf per account it touches in each of them, however few records
 * each account brings. Under load it therefore pays to let records gather: REST orders at 32 in
 * flight over 2,000 accounts went from 7.3-10.0k/s to 9.6-12.7k/s (three alternating pairs), from
 * 8.4-13.6 to 3.3-6.4 KB written and from 32-48 to 19-31 µs of LMDB and GC CPU an order, when
 * checkpoints went every 500 ms instead of every 1,024 records. The p99 stayed level in half of the
 * REST bench's pairs and rose in the others: fewer stalls, each longer, as the state of every
 * account changed is queued in one run (docs/architecture.md, "Measured").
 * At a light load the disk has room and small checkpoints keep the tail short (checkpoints every
 * 1-2 s at 2k/s raised its p99), so while records are noted more slowly than
 * CHECKPOINT_LIGHT_RECORDS per CHECKPOINT_EVERY_MS (about 7,000 orders a second), a checkpoint
 * starts CHECKPOINT_EVERY_MS after the last; faster, it waits until CHECKPOINT_HEAVY_EVERY_MS after
 * it, or until CHECKPOINT_MAX_RECORDS are noted. The rate, not the backlog: a light load behind
 * one slow checkpoint has a large backlog and must not turn its checkpoints large for good.
 */
const CHECKPOINT_EVERY_MS = 25;
const CHECKPOINT_LIGHT_RECORDS = 1024;
const CHECKPOINT_HEAVY_EVERY_MS = 500;
/**
 * While commands wait in the rings a due checkpoint waits too, so its puts never sit between
 * queued orders and their sync. Under a full load that also makes checkpoints larger: 512 orders
 * in flight went from 33.4-34.2k/s to 35.7-36.7k/s, 43-44 to 40-42 µs of CPU per order. Every
 * wait ends at this backlog, which bounds the memory the noted changes hold, the journal a start
 * replays, and the stall of the checkpoint that then goes first (its state's puts; its history
 * goes in slices).
 */
const CHECKPOINT_MAX_RECORDS = 32 * 1024;
/**
 * After a failed checkpoint (a full disk, a failed sync) the next one waits twice as long as the
 * last, up to this: each retry writes everything noted since the last durable one again, so
 * retrying every 25 ms against a disk that stays full would keep the shard's thread busy re-queuing
 * a growing backlog.
 */
const CHECKPOINT_RETRY_MAX_MS = 5_000;
/**
 * Balance and equity of every account go to the main thread's equity history this often, on the
 * minute, and at once when the shard has accounts it had not sampled (a new account's history
 * starts when the account does).
 */
const EQUITY_SAMPLE_MS = 60_000;

/** The shard's state the upkeep works on (replaced when a cluster shard rebuilds). */
export interface UpkeepTarget {
  readonly engine: Engine;
  readonly checkpoint: CheckpointWriter;
  readonly health: JournalHealth;
}

export interface UpkeepOptions {
  readonly shard: number;
  readonly store: ShardStore;
  readonly eventRetentionMs: number;
  readonly clientIdRetentionMs: number;
  readonly log: Logger;
  /** Counts the checkpoints that became durable and those that failed. */
  readonly stats: ShardStatsBoard;
  /** A checkpoint is durable at this LSN: the journal may let go of what it covers. */
  readonly onCheckpoint: (lsn: number) => void;
  /** Frames for the main thread (checkpoint notices, health changes). */
  readonly toMain: (frame: ShardOutbound) => void;
}

export class ShardUpkeep {
  private lastCheckpointMs = Date.now();
  private checkpoints: CheckpointHealth = { state: 'ok' };
  private pruneDueMs = 0;
  private pruning: Promise<void> | null = null;
  private health: JournalHealth | null = null;
  private equityDueMs = 0;
  private sampledAccounts = 0;

  constructor(private readonly opts: UpkeepOptions) {}

  private get failedInARow(): number {
    return this.checkpoints.state === 'failing' ? this.checkpoints.failedInARow : 0;
  }

  /** Whether something runs behind that wants the shard to come back soon. */
  busy(target: UpkeepTarget): boolean {
    return target.checkpoint.inFlight || target.checkpoint.backlog > 0 || this.pruning !== null;
  }

  /** Starts what is due; true when it started something. `ordersWaiting`: commands are queued in the rings. */
  run(nowMs: UnixMs, target: UpkeepTarget, ordersWaiting: boolean): boolean {
    const { checkpoint, engine } = target;
    const { opts } = this;
    let started = false;
    const sinceMs = nowMs - this.lastCheckpointMs;
    const { backlog } = checkpoint;
    const light = backlog * CHECKPOINT_EVERY_MS < CHECKPOINT_LIGHT_RECORDS * Math.max(sinceMs, CHECKPOINT_EVERY_MS);
    const waitMs = this.failedInARow > 0
      ? Math.min(CHECKPOINT_RETRY_MAX_MS, CHECKPOINT_EVERY_MS * 2 ** this.failedInARow)
      : light ? CHECKPOINT_EVERY_MS : CHECKPOINT_HEAVY_EVERY_MS;
    const checkpointDue = backlog >= CHECKPOINT_MAX_RECORDS
      ? this.failedInARow === 0 || sinceMs >= waitMs
      : sinceMs >= waitMs && !ordersWaiting;
    if (target.health.state !== 'failed' && !checkpoint.inFlight && backlog > 0 && checkpointDue) {
      this.lastCheckpointMs = nowMs;
      started = true;
      checkpoint.begin(engine.idCounter)?.then(
        (lsn) => {
          opts.stats.checkpoint(true);
          opts.onCheckpoint(lsn);
          opts.toMain({ t: 'checkpoint', shard: opts.shard, lsn });
          if (this.checkpoints.state === 'failing') {
            opts.log.warn({ failedInARow: this.failedInARow }, 'checkpoint durable again');
            this.checkpoints = { state: 'ok' };
            opts.toMain({ t: 'checkpointHealth', shard: opts.shard, checkpoint: this.checkpoints });
          }
        },
        (err: unknown) => {
          const firstFailedMs = this.checkpoints.state === 'failing' ? this.checkpoints.sinceMs : nowMs;
          this.checkpoints = { state: 'failing', failedInARow: this.failedInARow + 1, sinceMs: firstFailedMs };
          opts.stats.checkpoint(false);
          opts.log.error({ err, failedInARow: this.failedInARow }, 'checkpoint failed (the journal still holds everything; the next one retries)');
          opts.toMain({ t: 'checkpointHealth', shard: opts.shard, checkpoint: this.checkpoints });
        },
      );
    }
    const due = nowMs >= this.equityDueMs;
    if (due || engine.accountCount !== this.sampledAccounts) {
      // Between the minutes only the accounts added since: sampling every account whenever one
      // was added made a service seeded with 2,000 accounts ready in 4.0-4.5 s instead of 3.2-3.3.
      const from = due ? 0 : this.sampledAccounts;
      this.equityDueMs = nowMs - (nowMs % EQUITY_SAMPLE_MS) + EQUITY_SAMPLE_MS;
      this.sampledAccounts = engine.accountCount;
      const samples = [...engine.allMetrics(from)].map(({ login, metrics }) => ({ login, balance: metrics.balance, equity: metrics.equity }));
      if (samples.length > 0) opts.toMain({ t: 'equity', shard: opts.shard, atMs: nowMs, samples });
    }
    if (this.pruning === null && nowMs >= this.pruneDueMs) {
      this.pruneDueMs = nowMs + PRUNE_EVERY_MS;
      this.pruning = this.prune().catch((err: unknown) => opts.log.error({ err }, 'history pruning failed')).finally(() => { this.pruning = null; });
    }
    this.reportHealth(target);
    return started;
  }

  /**
   * Tells the main thread when the journal's health changed. Called right after a batch, before
   * its frames are written, too: a client that sees an answer of that batch then sees /health agree.
   */
  reportHealth(target: UpkeepTarget): void {
    const { opts } = this;
    if (this.health !== null && target.health !== this.health) {
      opts.toMain({ t: 'health', shard: opts.shard, journal: target.health });
      if (target.health.state !== 'ok') opts.log.error({ journal: target.health }, 'journal unavailable: orders are refused');
      else opts.log.warn('journal available again');
    }
    this.health = target.health;
  }

  /** Waits for the pruning and the checkpoint in flight. */
  async settle(checkpoint: CheckpointWriter): Promise<void> {
    await this.pruning;
    while (checkpoint.inFlight) await eventLoopTurn();
  }

  private async prune(): Promise<void> {
    const { opts } = this;
    const nowMs = Date.now();
    const pruned = await pruneHistory(opts.store, nowMs - opts.eventRetentionMs, nowMs - opts.clientIdRetentionMs, eventLoopTurn);
    if (pruned.events + pruned.clientIds > 0) opts.log.info(pruned, 'history pruned');
  }
}
