// The one client of the shards, for any thread that talks to them (the main thread, the FIX
// thread): correlation ids and pending answers, frames that must not be lost (watch) held until
// the shard can take them, ticks conflated per symbol while a shard is busy, and delivery of what
// the shards send back in their order. It knows shards only through a ShardTransport: the rings
// today (ring-transport.ts), another machine later.
//
// Delivery order: a batch's changed accounts, then its items in the engine's order; a reply's
// events reach the listeners before its callback runs, so a caller that reads the read model in
// its callback sees its own change. Delivery is sliced: receive() stops after `budgetMs` and
// resumes where it stopped on the next call, so a frame of ten thousand events (a kill switch)
// never holds its thread for long; `backlogged` tells the caller to come back soon.
import type { AccountRecord, Command, DeadManFiredResult, EngineEvent, Quote, UnixMs } from '../engine/types.js';
import { ConflatingWriter } from '../ring/index.js';
import type { Answer, CheckpointHealth, CommandItem, EquitySample, JournalHealth, LiveAccount, Query, ShardInbound, ShardOutbound } from './protocol.js';
import { shardOf } from './protocol.js';

export interface ShardTransport {
  readonly shards: number;
  /** Writes the frame to the shard's queue; false when it is full (nothing was written). */
  trySend(shard: number, frame: ShardInbound): boolean;
  /** Hands up to `maxFrames` frames the shards sent, oldest first per shard; returns how many. */
  receive(maxFrames: number, onFrame: (frame: ShardOutbound) => void): number;
}

/** A command's answer with the events it caused (empty for queries and refusals). */
export type ShardCallback = (answer: Answer, events: readonly EngineEvent[]) => void;

/** What a thread does with what the shards report, besides the answers. All optional. */
export interface ShardListener {
  /** Changed accounts of a batch, final state, before its events. */
  readonly accounts?: (accounts: readonly AccountRecord[]) => void;
  /**
   * Every event delivered, in each account's seq order (a reply's events before its callback,
   * with `reply` true); `lsn`: the shard's journal LSN they are durable at (a checkpoint at or
   * past it holds them).
   */
  readonly events?: (events: readonly EngineEvent[], shard: number, lsn: number, reply: boolean) => void;
  /** The shard's tables now reflect its journal up to `lsn`. */
  readonly checkpoint?: (shard: number, lsn: number) => void;
  readonly health?: (shard: number, health: JournalHealth) => void;
  readonly checkpointHealth?: (shard: number, health: CheckpointHealth) => void;
  /** A dead-man's switch fired (its events arrive as any others). */
  readonly deadMan?: (fired: DeadManFiredResult, shard: number) => void;
  /** Live P&L of the accounts asked for with live(): conflated, never replayed, no seq. */
  readonly live?: (accounts: readonly LiveAccount[], ts: number) => void;
  /** A shard's once-a-minute balance and equity of each of its accounts. */
  readonly equity?: (atMs: UnixMs, samples: readonly EquitySample[]) => void;
}

export interface Outgoing { readonly cmd: Command; readonly onAnswer: ShardCallback }

const EVENTS_PER_BUDGET_CHECK = 256;
const FRAMES_PER_RECEIVE = 64;

interface Lane {
  readonly ticks: ConflatingWriter<string, ShardInbound>;
  /** Frames that must reach the shard, in order; commands wait behind them. */
  readonly backlog: ShardInbound[];
  /** Commands and queries sent and not answered yet. */
  inFlight: number;
  /** Sends refused because the shard's queue was full. */
  refused: number;
}

/** What a thread's client sees of one shard, for metrics. */
export interface LaneFigures { readonly inFlight: number; readonly refused: number }

/** Where delivery stopped inside a frame. */
interface Cursor { readonly frame: Extract<ShardOutbound, { t: 'batch' }>; item: number; event: number; accountsDone: boolean }

export class ShardClient {
  private readonly lanes: Lane[];
  private readonly pending = new Map<number, { readonly shard: number; readonly onAnswer: ShardCallback }>();
  private readonly listeners: ShardListener[] = [];
  private readonly queued: ShardOutbound[] = [];
  private cursor: Cursor | null = null;
  private corr = 0;

  constructor(private readonly transport: ShardTransport, private readonly onListenerError: (err: unknown) => void) {
    this.lanes = Array.from({ length: transport.shards }, (_, shard) => ({
      ticks: new ConflatingWriter<string, ShardInbound>((frame) => transport.trySend(shard, frame)),
      backlog: [],
      inFlight: 0,
      refused: 0,
    }));
  }

  get shards(): number { return this.lanes.length; }

  shardOf(login: string): number { return shardOf(login, this.lanes.length); }

  listen(listener: ShardListener): void { this.listeners.push(listener); }

  /** Commands to one shard in one frame, applied in order and journaled together; false (none sent) when it is busy. */
  send(shard: number, outgoing: readonly Outgoing[]): boolean {
    if (outgoing.length === 0) return true;
    const items: CommandItem[] = outgoing.map((o) => ({ corr: this.nextCorr(), cmd: o.cmd }));
    if (!this.sent(shard, { t: 'cmds', items })) return false;
    items.forEach((item, i) => this.pending.set(item.corr, { shard, onAnswer: outgoing[i]!.onAnswer }));
    this.lanes[shard]!.inFlight += items.length;
    return true;
  }

  command(login: string, cmd: Command, onAnswer: ShardCallback): boolean {
    return this.send(this.shardOf(login), [{ cmd, onAnswer }]);
  }

  query(login: string, query: Query, onAnswer: ShardCallback): boolean {
    const shard = this.shardOf(login);
    const corr = this.nextCorr();
    if (!this.sent(shard, { t: 'query', corr, query })) return false;
    this.pending.set(corr, { shard, onAnswer });
    this.lanes[shard]!.inFlight++;
    return true;
  }

  /** This thread wants (or no longer wants) the account's events; never dropped. */
  watch(login: string, on: boolean): void {
    this.mustDeliver(login, { t: 'watch', login, on });
  }

  /** This thread wants (or no longer wants) the account's live P&L; never dropped. */
  live(login: string, on: boolean): void {
    this.mustDeliver(login, { t: 'live', login, on });
  }

  private mustDeliver(login: string, frame: ShardInbound): void {
    const shard = this.shardOf(login);
    this.lanes[shard]!.backlog.push(frame);
    this.clear(shard);
  }

  /** Asks every shard to drain, checkpoint and stop, after everything sent so far. */
  stop(): void {
    for (const lane of this.lanes) lane.backlog.push({ t: 'stop' });
    this.flush();
  }

  /** Every shard sees every tick (pending orders and SL/TP may wait on any symbol). */
  tick(quote: Quote): void {
    for (const lane of this.lanes) lane.ticks.offer(quote.symbol, { t: 'tick', quote });
  }

  /** Per shard, in shard order. */
  figures(): LaneFigures[] {
    return this.lanes.map((l) => ({ inFlight: l.inFlight, refused: l.refused }));
  }

  /** Writes the frame after what must precede it; false (counted as refused) when the shard is busy. */
  private sent(shard: number, frame: ShardInbound): boolean {
    if (this.clear(shard) && this.transport.trySend(shard, frame)) return true;
    this.lanes[shard]!.refused++;
    return false;
  }

  /** Frames that must reach a shard go first; true when every lane is clear again. */
  flush(): boolean {
    let clear = true;
    for (let shard = 0; shard < this.lanes.length; shard++) clear = this.clear(shard) && clear;
    return clear;
  }

  /** Writes that must precede anything new for `shard` (watches, then held ticks, so a command fills at the latest price). */
  private clear(shard: number): boolean {
    const lane = this.lanes[shard]!;
    while (lane.backlog.length > 0) {
      if (!this.transport.trySend(shard, lane.backlog[0]!)) return false;
      lane.backlog.shift();
    }
    return lane.ticks.flush();
  }

  /** Something is held back: flush() should be retried soon. */
  get blocked(): boolean {
    return this.lanes.some((l) => l.backlog.length > 0 || l.ticks.holding);
  }

  /** Ticks replaced by a newer one before a busy shard could take them. */
  get conflatedTicks(): number {
    return this.lanes.reduce((n, l) => n + l.ticks.conflated, 0);
  }

  /** Delivery stopped inside a frame, or frames wait: call receive() again soon. */
  get backlogged(): boolean {
    return this.cursor !== null || this.queued.length > 0;
  }

  /** Delivers what the shards sent, for at most about `budgetMs`; returns the frames taken from the transport. */
  receive(budgetMs: number): number {
    const deadline = performance.now() + budgetMs;
    const taken = this.transport.receive(FRAMES_PER_RECEIVE, (frame) => this.queued.push(frame));
    while (this.cursor !== null || this.queued.length > 0) {
      if (this.cursor === null) {
        const frame = this.queued.shift()!;
        if (frame.t !== 'batch') {
          this.notify(frame);
          continue;
        }
        this.cursor = { frame, item: 0, event: 0, accountsDone: false };
      }
      if (!this.deliver(this.cursor, deadline)) return taken;
      this.cursor = null;
    }
    return taken;
  }

  /** Advances through one batch; false when the budget ran out first. */
  private deliver(c: Cursor, deadline: number): boolean {
    const { frame } = c;
    if (!c.accountsDone) {
      c.accountsDone = true;
      if (frame.accounts.length > 0) this.each((l) => l.accounts?.(frame.accounts));
    }
    while (c.item < frame.items.length) {
      const item = frame.items[c.item]!;
      const n = item.events.length;
      while (c.event < n) {
        const end = Math.min(n, c.event + EVENTS_PER_BUDGET_CHECK);
        const slice = c.event === 0 && end === n ? item.events : item.events.slice(c.event, end);
        c.event = end;
        this.each((l) => l.events?.(slice, frame.shard, frame.lsn, item.k === 'reply'));
        if (c.event < n && performance.now() >= deadline) return false;
      }
      if (item.k === 'fired') this.each((l) => l.deadMan?.(item.result, frame.shard));
      if (item.k === 'reply') {
        const waiting = this.pending.get(item.corr);
        if (waiting !== undefined) {
          this.pending.delete(item.corr);
          this.lanes[waiting.shard]!.inFlight--;
          this.safely(() => waiting.onAnswer(item.answer, item.events));
        }
      }
      c.item++;
      c.event = 0;
      if (c.item < frame.items.length && performance.now() >= deadline) return false;
    }
    return true;
  }

  private notify(frame: Exclude<ShardOutbound, { t: 'batch' }>): void {
    switch (frame.t) {
      case 'checkpoint': this.each((l) => l.checkpoint?.(frame.shard, frame.lsn)); break;
      case 'health': this.each((l) => l.health?.(frame.shard, frame.journal)); break;
      case 'checkpointHealth': this.each((l) => l.checkpointHealth?.(frame.shard, frame.checkpoint)); break;
      case 'equity': this.each((l) => l.equity?.(frame.atMs, frame.samples)); break;
      case 'live': this.each((l) => l.live?.(frame.accounts, frame.ts)); break;
    }
  }

  private each(run: (l: ShardListener) => void): void {
    for (const l of this.listeners) this.safely(() => run(l));
  }

  /** A listener's or a callback's bug costs its own work, not the rest of the delivery. */
  private safely(run: () => void): void {
    try {
      run();
    } catch (err) {
      this.onListenerError(err);
    }
  }

  private nextCorr(): number {
    this.corr = this.corr >= Number.MAX_SAFE_INTEGER ? 1 : this.corr + 1;
    return this.corr;
  }
}
