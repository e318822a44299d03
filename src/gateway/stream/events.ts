// Order and position events for stream subscribers (DECISIONS "WebSocket messages"). Every event a
// shard commits reaches the main thread in a batch, numbered with its account's `seq` (+1 per event,
// persisted in the `events` db). Per connection and login one feed hands them out in seq order,
// each at most once, and never drops one (a consumer too slow for them is closed instead, and
// resumes with since_seq).
//
// Starting points: a plain subscribe sends a snapshot stamped with the account's seq, then every
// later event. A subscribe with since_seq first replays the journaled events after it in chunks
// (paced by the connection's buffer), holding the live events that arrive meanwhile; when a read
// finds no more, the held events follow. Why there is no gap or duplicate: a shard's events reach
// this thread once they are durable in its journal, and the history holds every one of them (in
// its checkpoint tables, or still in its tail until a checkpoint does); events still to come
// arrive later through onEvents; and the feed's cursor (the last seq handled) drops anything the
// replay already covered.
import type { Cents, EngineEvent, OrderRecord, PositionRecord, SymbolSpec } from '../../engine/types.js';
import type { Clock } from '../../market/clock.js';
import type { ReadModel } from '../../shard/read-model.js';
import { eventText, snapshotText, StreamError, type Pricing } from './messages.js';
import type { EventChannel } from './ops.js';

export interface EventOutlet {
  readonly isOpen: boolean;
  push(text: string): void;
  bufferedBytes(): number;
  overflow(bufferedBytes: number): void;
}

export interface ReplayOptions {
  /** Events read from the db per turn at most. */
  readonly chunkEvents: number;
  /** The replay stops reading, and waits, while the connection has more than this buffered. */
  readonly pauseAtBytes: number;
  /** How often a paused replay looks at the buffer again (a drain event wakes it sooner). */
  readonly retryMs: number;
  /** Live events held during one replay before the connection counts as too slow. */
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

interface CatchUp {
  readonly held: EngineEvent[];
  timer: NodeJS.Timeout | null;
  immediate: NodeJS.Immediate | null;
}

interface Feed {
  readonly outlet: EventOutlet;
  readonly login: string;
  /** Subscribed channels, each with the seq after which its events are wanted. */
  readonly from: Map<EventChannel, number>;
  /** The last seq handled (sent, or not wanted): nothing at or below it is sent again. */
  cursor: number;
  catchUp: CatchUp | null;
}


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
    const start = sinceSeq ?? account.seq;
    for (const c of added) feed.from.set(c, start);
    if (sinceSeq === null) {
      if (added.length > 0) outlet.push(this.snapshot(login, account.seq, added));
    } else if (sinceSeq < account.seq) {
      const catchUp: CatchUp = { held: [], timer: null, immediate: null };
      feed.catchUp = catchUp;
      this.pump(feed, catchUp);
    }
  }

  /** Drops channels of a login (all of them when null). */
  unsubscribe(outlet: EventOutlet, login: string, channels: readonly EventChannel[] | null): void {
    const feed = this.byOutlet.get(outlet)?.get(login);
    if (!feed) return;
    for (const c of channels ?? [...feed.from.keys()]) feed.from.delete(c);
    if (feed.from.size === 0) this.remove(feed);
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

  /** One chunk of a replay per turn, while the connection's buffer has room. */
  private pump(feed: Feed, catchUp: CatchUp): void {
    catchUp.timer = null;
    catchUp.immediate = null;
    if (feed.catchUp !== catchUp || !feed.outlet.isOpen) return;
    if (feed.outlet.bufferedBytes() > this.opts.pauseAtBytes) {
      catchUp.timer = setTimeout(() => this.pump(feed, catchUp), this.opts.retryMs);
      return;
    }
    let read = 0;
    let full = false;
    for (const value of this.src.history.eventsAfter(feed.login, feed.cursor, this.opts.chunkEvents)) {
      read++;
      this.deliver(feed, value, null);
      // Big events fill the buffer before the chunk ends: the rest waits for the next look.
      if (feed.outlet.bufferedBytes() > this.opts.pauseAtBytes) { full = true; break; }
    }
    if (full || read === this.opts.chunkEvents) {
      if (full) catchUp.timer = setTimeout(() => this.pump(feed, catchUp), this.opts.retryMs);
      else catchUp.immediate = setImmediate(() => this.pump(feed, catchUp));
      return;
    }
    feed.catchUp = null;
    for (const e of catchUp.held) this.deliver(feed, e, null);
  }

  private snapshot(login: string, seq: number, channels: readonly EventChannel[]): string {
    const rm = this.src.readModel;
    const positions = channels.includes('positions') ? [...rm.openPositions(login)].sort((a, b) => a.ticket - b.ticket) : null;
    const orders = channels.includes('orders') ? [...rm.pendingOrders(login)].sort(byId) : null;
    return snapshotText({ login, seq, ts: this.src.clock.nowMs(), positions, orders }, this.pricing);
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
