// Order and position events for stream subscribers (DECISIONS "WebSocket messages"). Every event a
// shard commits reaches the main thread in a batch, numbered with its account's `seq` (+1 per event,
// persisted in the `events` db). Per connection and login one feed hands them out in seq order,
// each at most once, and never drops one (a consumer too slow for them is closed instead, and
// resumes with since_seq).
//
// Starting points: a plain subscribe sends a snapshot (snapshot.ts: pages, then snapshot_end)
// stamped with the account's seq, then every later event. A subscribe with since_seq first replays
// the journaled events after it in chunks. Both are paced by the connection's buffer, one page or
// chunk per turn, and hold the live events that arrive meanwhile; once the snapshots are sent and
// a replay read finds no more, the held events follow. Snapshots queued on a feed go before the
// rest of its replay, so no event of a channel precedes that channel's snapshot. Every snapshot
// page after a snapshot's first costs a token of the connection's op budget (the subscribe op
// paid for the first): a client cannot make the server build pages faster than it may send ops.
//
// Why there is no gap or duplicate: a shard's events reach this thread once they are durable in
// its journal, and the history holds every one of them (in its checkpoint tables, or still in its
// tail until a checkpoint does); events still to come arrive later through onEvents; and the
// feed's cursor (the last seq handled) drops anything the replay already covered. A snapshot is
// taken only once the read model has every event the cursor passed: its records and seq then
// cover every event its channels skipped.
import type { Cents, EngineEvent, OrderRecord, PositionRecord, SymbolSpec, UnixMs } from '../../engine/types.js';
import type { Clock } from '../../base/clock.js';
import type { ReadModel } from '../../shard/read-model.js';
import { eventText, StreamError, type Pricing } from './messages.js';
import type { EventChannel } from './ops.js';
import { Snapshot } from './snapshot.js';

export interface EventOutlet {
  readonly isOpen: boolean;
  push(text: string): void;
  bufferedBytes(): number;
  overflow(bufferedBytes: number): void;
  /** Takes one token of the connection's op budget: 0, or the ms until there is one. */
  charge(nowMs: UnixMs): number;
}

export interface ReplayOptions {
  /** Events read from the db per turn at most. */
  readonly chunkEvents: number;
  /** Snapshot pages end at the record that takes them past this size (JSON characters). */
  readonly pageBytes: number;
  /** A replay or snapshot stops, and waits, while the connection has more than this buffered. */
  readonly pauseAtBytes: number;
  /** How often a paused one looks at the buffer again (a drain event wakes it sooner). */
  readonly retryMs: number;
  /** Live events held during one catch-up before the connection counts as too slow. */
  readonly maxHeldEvents: number;
}

/** The shards' events as the main thread reads them (src/shard/history.ts). */
export interface EventHistory {
  eventsAfter(login: string, afterSeq: number, limit: number): EngineEvent[];
  oldestSeq(login: string): number | null;
}

export interface EventSources {
  readonly history: EventHistory;
  readonly readModel: ReadModel;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
  readonly clock: Clock;
}

/** A feed not yet live: snapshots to send and/or stored events to replay, live events held meanwhile. */
interface CatchUp {
  readonly held: EngineEvent[];
  /** In the order they were asked for; the first may be half sent. */
  readonly snapshots: Snapshot[];
  /** Stored events after the cursor may remain (since_seq). */
  replaying: boolean;
  timer: NodeJS.Timeout | null;
  immediate: NodeJS.Immediate | null;
}

interface Feed {
  readonly outlet: EventOutlet;
  readonly login: string;
  /** Subscribed channels, each with the seq after which its events are wanted (MAX_SEQ until its snapshot is taken). */
  readonly from: Map<EventChannel, number>;
  /** The last seq handled (sent, or not wanted): nothing at or below it is sent again. */
  cursor: number;
  catchUp: CatchUp | null;
}

const MAX_SEQ = Number.MAX_SAFE_INTEGER;

const loginOf = (e: EngineEvent): string => (e.type === 'order' ? e.order.login : e.position.login);
const channelOf = (e: EngineEvent): EventChannel => (e.type === 'order' ? 'orders' : 'positions');

export class EventStream {
  private readonly byLogin = new Map<string, Set<Feed>>();
  private readonly byOutlet = new Map<EventOutlet, Map<string, Feed>>();
  private readonly pricing: Pricing;

  constructor(private readonly src: EventSources, private readonly opts: ReplayOptions) {
    this.pricing = {
      symbols: src.symbols,
      floatingProfit: (p: PositionRecord): Cents | null => {
        const account = src.readModel.account(p.login);
        return account ? src.readModel.profit(p, account.currency) : null;
      },
    };
  }

  /** Why this subscribe would be refused; checked before anything of the op changes. */
  check(outlet: EventOutlet, login: string, sinceSeq: number | null): StreamError | null {
    const account = this.src.readModel.account(login);
    if (!account) return new StreamError('not_found', `account ${login} does not exist`, 'login');
    if (sinceSeq === null) return null;
    if (this.byOutlet.get(outlet)?.has(login)) {
      return new StreamError('bad_request', `since_seq applies to the first subscribe of account ${login}'s orders or positions on a connection; this one already has them`, 'since_seq');
    }
    if (sinceSeq > account.seq) {
      return new StreamError('bad_request', `since_seq ${sinceSeq} is ahead of account ${login}'s last event (seq ${account.seq})`, 'since_seq');
    }
    if (sinceSeq === account.seq) return null;
    const oldest = this.oldestStored(login) ?? account.seq + 1;
    if (sinceSeq + 1 < oldest) {
      return new StreamError('not_found', `events after seq ${sinceSeq} are no longer kept for account ${login}; the oldest available is seq ${oldest} (subscribe with since_seq ${oldest - 1}, or without since_seq for a snapshot)`, 'since_seq', { oldest_seq: oldest });
    }
    return null;
  }

  /** Subscribes after `check` passed: snapshot (plain) or replay (since_seq), then live. */
  subscribe(outlet: EventOutlet, login: string, channels: readonly EventChannel[], sinceSeq: number | null): void {
    const account = this.src.readModel.account(login)!;
    let feeds = this.byOutlet.get(outlet);
    if (!feeds) { feeds = new Map(); this.byOutlet.set(outlet, feeds); }
    let feed = feeds.get(login);
    if (!feed) {
      feed = { outlet, login, from: new Map(), cursor: sinceSeq ?? account.seq, catchUp: null };
      feeds.set(login, feed);
      let same = this.byLogin.get(login);
      if (!same) { same = new Set(); this.byLogin.set(login, same); }
      same.add(feed);
    }
    const added = channels.filter((c) => !feed.from.has(c));
    if (added.length === 0) return;
    for (const c of added) feed.from.set(c, sinceSeq ?? MAX_SEQ);
    if (sinceSeq === account.seq) return;
    const running = feed.catchUp;
    const catchUp: CatchUp = running ?? { held: [], snapshots: [], replaying: false, timer: null, immediate: null };
    if (sinceSeq === null) catchUp.snapshots.push(new Snapshot(login, added, this.opts.pageBytes));
    else catchUp.replaying = true;
    feed.catchUp = catchUp;
    // A catch-up already under way picks the snapshot up on its next turn.
    if (running === null) this.pump(feed, catchUp);
  }

  /** Drops channels of a login (all of them when null). */
  unsubscribe(outlet: EventOutlet, login: string, channels: readonly EventChannel[] | null): void {
    const feed = this.byOutlet.get(outlet)?.get(login);
    if (!feed) return;
    for (const c of channels ?? [...feed.from.keys()]) {
      feed.from.delete(c);
      for (const snapshot of feed.catchUp?.snapshots ?? []) snapshot.drop(c);
    }
    if (feed.from.size === 0) { this.remove(feed); return; }
    // A snapshot of nothing but dropped channels is not sent (nor the rest of one half sent).
    const snapshots = feed.catchUp?.snapshots;
    if (snapshots) for (let i = snapshots.length - 1; i >= 0; i--) if (snapshots[i]!.wanted.size === 0) snapshots.splice(i, 1);
  }

  drop(outlet: EventOutlet): void {
    for (const feed of this.byOutlet.get(outlet)?.values() ?? []) this.remove(feed);
  }

  /** Events from the shards, after the read model applied them. */
  onEvents(events: readonly EngineEvent[]): void {
    for (const e of events) {
      const feeds = this.byLogin.get(loginOf(e));
      if (!feeds) continue;
      let text: string | null = null;
      for (const feed of feeds) {
        if (feed.catchUp) {
          feed.catchUp.held.push(e);
          if (feed.catchUp.held.length > this.opts.maxHeldEvents) feed.outlet.overflow(feed.outlet.bufferedBytes());
          continue;
        }
        text = this.deliver(feed, e, text);
      }
    }
  }

  /** The connection's buffer drained: a paused replay may go on now. */
  onDrain(outlet: EventOutlet): void {
    for (const feed of this.byOutlet.get(outlet)?.values() ?? []) {
      const c = feed.catchUp;
      if (c?.timer) {
        clearTimeout(c.timer);
        c.timer = null;
        c.immediate = setImmediate(() => this.pump(feed, c));
      }
    }
  }

  close(): void {
    for (const feeds of this.byOutlet.values()) for (const feed of feeds.values()) this.stopCatchUp(feed);
  }

  /** Sends the event unless the feed handled its seq already or does not want its channel; returns its text. */
  private deliver(feed: Feed, e: EngineEvent, cached: string | null): string | null {
    if (e.seq <= feed.cursor) return cached;
    feed.cursor = e.seq;
    const from = feed.from.get(channelOf(e));
    if (from === undefined || e.seq <= from) return cached;
    const text = cached ?? eventText(e, this.pricing);
    feed.outlet.push(text);
    return text;
  }

  /** One snapshot page or replay chunk per turn, while the connection's buffer has room. */
  private pump(feed: Feed, catchUp: CatchUp): void {
    catchUp.timer = null;
    catchUp.immediate = null;
    if (feed.catchUp !== catchUp || !feed.outlet.isOpen) return;
    if (feed.outlet.bufferedBytes() > this.opts.pauseAtBytes) {
      this.wait(feed, catchUp, this.opts.retryMs);
      return;
    }
    const snapshot = catchUp.snapshots[0];
    if (snapshot) {
      const waitMs = this.page(feed, snapshot);
      if (waitMs > 0) this.wait(feed, catchUp, waitMs);
      else this.again(feed, catchUp);
      return;
    }
    if (catchUp.replaying && this.replayChunk(feed, catchUp)) return;
    feed.catchUp = null;
    for (const e of catchUp.held) this.deliver(feed, e, null);
  }

  private wait(feed: Feed, catchUp: CatchUp, ms: number): void {
    catchUp.timer = setTimeout(() => this.pump(feed, catchUp), ms);
  }

  private again(feed: Feed, catchUp: CatchUp): void {
    catchUp.immediate = setImmediate(() => this.pump(feed, catchUp));
  }

  /** Sends the snapshot's next page (and, after its last, takes it off the queue); else the ms to wait. */
  private page(feed: Feed, snapshot: Snapshot): number {
    const nowMs = this.src.clock.nowMs();
    if (!snapshot.isTaken) {
      const account = this.src.readModel.account(feed.login)!;
      // The replay delivered events the read model has not applied yet (two separate steps): wait for it.
      if (account.seq < feed.cursor) return this.opts.retryMs;
      const rm = this.src.readModel;
      const positions = snapshot.wanted.has('positions') ? [...rm.openPositions(feed.login)].sort((a, b) => a.ticket - b.ticket) : [];
      const orders = snapshot.wanted.has('orders') ? [...rm.pendingOrders(feed.login)].sort(byId) : [];
      snapshot.take(account.seq, positions, orders);
      for (const c of snapshot.wanted) feed.from.set(c, account.seq);
    } else {
      const waitMs = feed.outlet.charge(nowMs);
      if (waitMs > 0) return waitMs;
    }
    const { text, done } = snapshot.next(this.pricing, nowMs);
    feed.outlet.push(text);
    if (done) feed.catchUp!.snapshots.shift();
    return 0;
  }

  /** Replays one chunk of stored events; false once a read finds no more. */
  private replayChunk(feed: Feed, catchUp: CatchUp): boolean {
    let read = 0;
    let full = false;
    for (const value of this.src.history.eventsAfter(feed.login, feed.cursor, this.opts.chunkEvents)) {
      read++;
      this.deliver(feed, value, null);
      // Big events fill the buffer before the chunk ends: the rest waits for the next look.
      if (feed.outlet.bufferedBytes() > this.opts.pauseAtBytes) { full = true; break; }
    }
    if (full) this.wait(feed, catchUp, this.opts.retryMs);
    else if (read === this.opts.chunkEvents) this.again(feed, catchUp);
    else catchUp.replaying = false;
    return catchUp.replaying;
  }

  private oldestStored(login: string): number | null {
    return this.src.history.oldestSeq(login);
  }

  private remove(feed: Feed): void {
    this.stopCatchUp(feed);
    const feeds = this.byOutlet.get(feed.outlet);
    feeds?.delete(feed.login);
    if (feeds?.size === 0) this.byOutlet.delete(feed.outlet);
    const same = this.byLogin.get(feed.login);
    same?.delete(feed);
    if (same?.size === 0) this.byLogin.delete(feed.login);
  }

  private stopCatchUp(feed: Feed): void {
    const c = feed.catchUp;
    if (!c) return;
    if (c.timer) clearTimeout(c.timer);
    if (c.immediate) clearImmediate(c.immediate);
    feed.catchUp = null;
  }
}

const byId = (a: OrderRecord, b: OrderRecord): number => Number(a.id) - Number(b.id);
