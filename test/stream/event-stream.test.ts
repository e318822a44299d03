// EventStream on a real LMDB store (behind the main thread's ShardHistory) with an outlet whose send
// buffer the test controls: a replay stops while the buffer is full and goes on when it drains, live
// events arriving meanwhile are held and follow it, and every seq reaches the outlet once, in order,
// whether it was read from the checkpoint tables or from the history's tail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccountRecord, EngineEvent, OrderRecord, SymbolSpec } from '../../src/engine/types.js';
import { EventStream, type EventOutlet } from '../../src/gateway/stream/events.js';
import { ShardHistory } from '../../src/shard/history.js';
import { ReadModel } from '../../src/shard/read-model.js';
import { openShardStore, type ShardStore } from '../../src/store/store.js';

const LOGIN = '100001';
const BTC: SymbolSpec = { name: 'BTCUSD', digits: 2, contractSize: 1, maxVolume: 1000, baseCurrency: 'BTC', quoteCurrency: 'USD', session: '24x7' };
const PAUSE_AT = 20_000;

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

class Outlet implements EventOutlet {
  isOpen = true;
  buffered = 0;
  readonly seqs: number[] = [];
  private waiter: { n: number; resolve: () => void } | null = null;

  push(text: string): void {
    this.buffered += text.length;
    for (const line of text.split('\n')) this.seqs.push((JSON.parse(line) as { seq: number }).seq);
    if (this.waiter && this.seqs.length >= this.waiter.n) this.waiter.resolve();
  }

  bufferedBytes(): number { return this.buffered; }
  overflow(): void { throw new Error('the outlet overflowed'); }

  /** Resolves once `n` events arrived. */
  count(n: number): Promise<void> {
    return this.seqs.length >= n ? Promise.resolve() : new Promise((resolve) => { this.waiter = { n, resolve }; });
  }

  /** Resolves once the replay stops for a full buffer (nothing arrives for a few turns). */
  async stalled(): Promise<void> {
    let last = -1;
    while (last !== this.seqs.length) {
      last = this.seqs.length;
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
  store = openShardStore(dir, 0, 'none');
  await store.root.transaction(() => { for (let seq = 1; seq <= 1200; seq++) store.events.put([LOGIN, seq], order(seq)); });
  readModel = new ReadModel([BTC]);
  readModel.accounts([account(1200)]);
  history = new ShardHistory([store]);
  stream = new EventStream({ history, readModel, symbols: new Map([['BTCUSD', BTC]]), clock: { nowMs: () => 0 } }, {
    chunkEvents: 500, pauseAtBytes: PAUSE_AT, retryMs: 5, maxHeldEvents: 10_000,
  });
});
afterEach(async () => {
  stream.close();
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

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
