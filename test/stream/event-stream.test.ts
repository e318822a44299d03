// EventStream on a real LMDB store (behind the main thread's ShardHistory) with an outlet whose send
// buffer and op budget the test controls: a replay stops while the buffer is full and goes on when
// it drains, live events arriving meanwhile are held and follow it, and every seq reaches the outlet
// once, in order, whether it was read from the checkpoint tables or from the history's tail.
// Snapshots come in pages, each after the first paid from the op budget, go before the rest of a
// replay, wait for the read model to catch up with what a replay read, and stop when unsubscribed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountRecord, EngineEvent, OrderRecord, PositionRecord, SymbolSpec } from '../../src/engine/types.js';
import { EventStream, type EventOutlet } from '../../src/gateway/stream/events.js';
import { ShardHistory } from '../../src/shard/history.js';
import { ReadModel } from '../../src/shard/read-model.js';
import { openShardStore, type ShardStore } from '../../src/store/store.js';

const LOGIN = '100001';
const BTC: SymbolSpec = { name: 'BTCUSD', digits: 2, contractSize: 1, maxVolume: 1000, baseCurrency: 'BTC', quoteCurrency: 'USD', session: '24x7' };
const PAUSE_AT = 20_000;
/** Small pages: a few positions each. */
const PAGE_BYTES = 1000;

const account = (seq: number): AccountRecord => ({
  login: LOGIN, user: 'u', type: 'demo', group: 'g', currency: 'USD', leverage: 100, server: 's', balance: 1_000_000, margin: 0, seq,
  accountHalted: false, userHalted: false,
});

const order = (seq: number): EngineEvent => {
  const o: OrderRecord = {
    id: String(seq), login: LOGIN, symbol: 'BTCUSD', side: 'buy', type: 'limit', volume: 1, price: 6_000_000, requestedPrice: 6_000_000,
    sl: null, tp: null, status: 'pending', ticket: null, source: 'api', keyId: 'k', clientId: null, webhookId: null,
    createdAt: seq, filledAt: null, closedAt: null, reason: null,
  };
  return { type: 'order', seq, ts: seq, order: o };
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- stream JSON under test
type Msg = any;

class Outlet implements EventOutlet {
  isOpen = true;
  buffered = 0;
  /** Op budget tokens left; an empty budget makes a page wait (a drain wakes it). */
  tokens = Number.POSITIVE_INFINITY;
  charged = 0;
  readonly messages: Msg[] = [];
  /** Seqs of the order and position events, in arrival order. */
  readonly seqs: number[] = [];
  private waiter: { n: number; resolve: () => void } | null = null;
  private readonly channelWaiters: { channel: string; resolve: (m: Msg) => void }[] = [];

  push(text: string): void {
    this.buffered += text.length;
    for (const line of text.split('\n')) {
      const m = JSON.parse(line) as Msg;
      this.messages.push(m);
      if (m.channel === 'order' || m.channel === 'position') this.seqs.push(m.seq);
      for (const w of this.channelWaiters.filter((x) => x.channel === m.channel)) {
        this.channelWaiters.splice(this.channelWaiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
    if (this.waiter && this.seqs.length >= this.waiter.n) this.waiter.resolve();
  }

  bufferedBytes(): number { return this.buffered; }
  overflow(): void { throw new Error('the outlet overflowed'); }

  charge(): number {
    if (this.tokens < 1) return 60_000;
    this.tokens--;
    this.charged++;
    return 0;
  }

  of(channel: string): Msg[] { return this.messages.filter((m) => m.channel === channel); }

  /** Resolves with the first message of `channel`, already here or yet to come. */
  first(channel: string): Promise<Msg> {
    const seen = this.of(channel)[0];
    return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => this.channelWaiters.push({ channel, resolve }));
  }

  /** Resolves once `n` events arrived. */
  count(n: number): Promise<void> {
    return this.seqs.length >= n ? Promise.resolve() : new Promise((resolve) => { this.waiter = { n, resolve }; });
  }

  /** Resolves once the stream stops sending (nothing arrives for a few turns). */
  async stalled(): Promise<void> {
    let last = -1;
    while (last !== this.messages.length) {
      last = this.messages.length;
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    }
  }
}

let dir: string;
let store: ShardStore;
let readModel: ReadModel;
let history: ShardHistory;
let stream: EventStream;
let lsn = 0;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-events-'));
  store = openShardStore(dir, 0, 'none', null);
  await store.root.transaction(() => { for (let seq = 1; seq <= 1200; seq++) store.events.put([LOGIN, seq], order(seq)); });
  readModel = new ReadModel([BTC]);
  readModel.accounts([account(1200)]);
  history = new ShardHistory([store]);
  stream = new EventStream({ history, readModel, symbols: new Map([['BTCUSD', BTC]]), clock: { nowMs: () => 0 } }, {
    chunkEvents: 500, pageBytes: PAGE_BYTES, pauseAtBytes: PAUSE_AT, retryMs: 5, maxHeldEvents: 10_000,
  });
});
afterEach(async () => {
  stream.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const position = (seq: number, ticket: number): EngineEvent => {
  const p: PositionRecord = {
    ticket, login: LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 1, openPrice: 6_500_000, sl: null, tp: null, source: 'api', keyId: 'k',
    webhookId: null, orderId: String(ticket), margin: 650, openedAt: seq,
  };
  return { type: 'position', seq, ts: seq, status: 'open', position: p, reason: null, closePrice: null, closedVolume: null, profit: null };
};

/** Events durable in the shard's journal reach the main thread (history, read model, then stream) before any checkpoint holds them. */
function deliver(seqs: number[]): void {
  const events = seqs.map(order);
  history.events(events, 0, ++lsn);
  readModel.accounts([account(seqs[seqs.length - 1]!)]);
  stream.onEvents(events);
}

/** The shard's checkpoint of everything delivered so far. */
async function checkpoint(seqs: number[]): Promise<void> {
  await store.root.transaction(() => { for (const seq of seqs) store.events.put([LOGIN, seq], order(seq)); });
  history.checkpoint(0, lsn);
}

describe('EventStream replay', () => {
  it('pauses on a full buffer, resumes on drain, and hands over to held live events without gap or repeat', async () => {
    const outlet = new Outlet();
    expect(stream.check(outlet, LOGIN, 100)).toBeNull();
    stream.subscribe(outlet, LOGIN, ['orders'], 100);
    await outlet.stalled();
    const firstStop = outlet.seqs.length;
    expect(firstStop).toBeGreaterThan(0);
    expect(firstStop).toBeLessThan(1100);

    // Live events while the replay waits: held, not sent; some reach a checkpoint meanwhile.
    deliver([1201, 1202]);
    await checkpoint([1201, 1202]);
    deliver([1203]);
    expect(outlet.seqs).not.toContain(1201);

    while (outlet.seqs.length < 1103) {
      outlet.buffered = 0;
      stream.onDrain(outlet);
      await outlet.stalled();
    }
    deliver([1204]);
    await outlet.count(1104);
    expect(outlet.seqs).toEqual(Array.from({ length: 1104 }, (_, i) => 101 + i));
  });

  it('replays events only the tail holds yet, then those of a checkpoint, once each', async () => {
    deliver([1201, 1202, 1203]);
    const outlet = new Outlet();
    stream.subscribe(outlet, LOGIN, ['orders'], 1198);
    await outlet.count(5);
    expect(outlet.seqs).toEqual([1199, 1200, 1201, 1202, 1203]);
    await checkpoint([1201, 1202, 1203]);
    expect(history.tailEvents).toBe(0);
    const later = new Outlet();
    stream.subscribe(later, LOGIN, ['orders'], 1200);
    await later.count(3);
    expect(later.seqs).toEqual([1201, 1202, 1203]);
  });

  it('refuses since_seq values it cannot serve', async () => {
    const outlet = new Outlet();
    expect(stream.check(outlet, LOGIN, 1201)).toMatchObject({ errorName: 'bad_request', field: 'since_seq' });
    expect(stream.check(outlet, '999', null)).toMatchObject({ errorName: 'not_found', field: 'login' });
    await store.root.transaction(() => { for (let seq = 1; seq <= 30; seq++) store.events.remove([LOGIN, seq]); });
    expect(stream.check(outlet, LOGIN, 29)).toMatchObject({ errorName: 'not_found', extra: { oldest_seq: 31 } });
    expect(stream.check(outlet, LOGIN, 30)).toBeNull();
    expect(stream.check(outlet, LOGIN, 1200)).toBeNull();
  });
});

describe('EventStream snapshots', () => {
  /** 40 open positions (seq 1201..1240) on the account, in the history and the read model. */
  function openPositions(): void {
    const events = Array.from({ length: 40 }, (_, i) => position(1201 + i, 5001 + i));
    history.events(events, 0, ++lsn);
    readModel.events(events);
    readModel.accounts([account(1240)]);
    stream.onEvents(events);
  }

  const tickets = (pages: Msg[]): number[] => pages.flatMap((p) => (p.positions ?? []).map((x: Msg) => x.ticket));

  it('pages a snapshot, charging every page after the first, then ends it', async () => {
    openPositions();
    const outlet = new Outlet();
    outlet.tokens = 2;
    stream.subscribe(outlet, LOGIN, ['positions', 'orders'], null);
    await outlet.stalled();
    expect(outlet.of('snapshot').map((p) => p.page)).toEqual([1, 2, 3]);
    expect(outlet.of('snapshot_end')).toEqual([]);
    // Live events wait for the end.
    deliver([1241]);
    outlet.tokens = Number.POSITIVE_INFINITY;
    stream.onDrain(outlet);
    await outlet.count(1);
    const pages = outlet.of('snapshot');
    const end = outlet.of('snapshot_end')[0];
    expect(end).toMatchObject({ login: LOGIN, seq: 1240, pages: pages.length, position_count: 40, order_count: 0 });
    expect(outlet.charged).toBe(pages.length - 1);
    for (const p of pages) expect(JSON.stringify(p.positions).length).toBeLessThan(PAGE_BYTES + 300);
    expect(tickets(pages)).toEqual(Array.from({ length: 40 }, (_, i) => 5001 + i));
    expect(outlet.messages.indexOf(end)).toBeLessThan(outlet.messages.findIndex((m) => m.seq === 1241 && m.channel === 'order'));
    expect(outlet.seqs).toEqual([1241]);
  });

  it('drops an unsubscribed channel from a half-sent snapshot, and all of it with the last channel', async () => {
    openPositions();
    const outlet = new Outlet();
    outlet.tokens = 0;
    stream.subscribe(outlet, LOGIN, ['positions', 'orders'], null);
    stream.unsubscribe(outlet, LOGIN, ['positions']);
    outlet.tokens = Number.POSITIVE_INFINITY;
    stream.onDrain(outlet);
    await outlet.stalled();
    // Page 1 went out before the unsubscribe; the rest holds the orders only (there are none).
    const [first, ...rest] = outlet.of('snapshot');
    expect(first.positions.length).toBeGreaterThan(0);
    expect(rest.every((p) => p.positions === undefined)).toBe(true);
    expect(outlet.of('snapshot_end')).toEqual([expect.objectContaining({ order_count: 0 })]);
    expect(outlet.of('snapshot_end')[0].position_count).toBeUndefined();

    const gone = new Outlet();
    gone.tokens = 0;
    stream.subscribe(gone, LOGIN, ['positions'], null);
    stream.unsubscribe(gone, LOGIN, ['positions']);
    gone.tokens = Number.POSITIVE_INFINITY;
    stream.onDrain(gone);
    deliver([1241]);
    await gone.stalled();
    expect(gone.of('snapshot')).toHaveLength(1);
    expect(gone.of('snapshot_end')).toEqual([]);
    expect(gone.seqs).toEqual([]);
  });

  it('goes before the rest of a paused replay', async () => {
    const outlet = new Outlet();
    stream.subscribe(outlet, LOGIN, ['orders'], 100);
    await outlet.stalled();
    const before = outlet.seqs.length;
    expect(before).toBeLessThan(1100);
    stream.subscribe(outlet, LOGIN, ['positions'], null);
    while (outlet.seqs.length < 1100) {
      outlet.buffered = 0;
      stream.onDrain(outlet);
      await outlet.stalled();
    }
    const end = outlet.of('snapshot_end')[0];
    expect(end).toMatchObject({ seq: 1200, position_count: 0 });
    const firstAfter = outlet.messages.findIndex((m) => m.channel === 'order' && m.seq === 101 + before);
    expect(outlet.messages.indexOf(end)).toBeLessThan(firstAfter);
    expect(outlet.seqs).toEqual(Array.from({ length: 1100 }, (_, i) => 101 + i));
  });

  it('is taken only once the read model has every event a replay read', async () => {
    // In the history, not yet applied by the read model.
    const late = [1201, 1202, 1203].map(order);
    history.events(late, 0, ++lsn);
    const outlet = new Outlet();
    stream.subscribe(outlet, LOGIN, ['orders'], 1190);
    stream.subscribe(outlet, LOGIN, ['positions'], null);
    await outlet.stalled();
    // The replay read past the read model (seq 1200): a snapshot taken now would miss 1201-1203.
    expect(outlet.seqs).toEqual(Array.from({ length: 13 }, (_, i) => 1191 + i));
    expect(outlet.of('snapshot')).toEqual([]);
    readModel.events(late);
    readModel.accounts([account(1203)]);
    stream.onEvents(late);
    expect(await outlet.first('snapshot_end')).toMatchObject({ seq: 1203, position_count: 0 });
    deliver([1204]);
    await outlet.count(14);
    expect(outlet.seqs).toEqual(Array.from({ length: 14 }, (_, i) => 1191 + i));
  });
});
