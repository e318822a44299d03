// The shard's checkpoint on a real LMDB environment: a large checkpoint queues what may go ahead of
// its record (orders, client ids, events, new positions) over several event-loop turns, stays
// readable until it is durable, and then holds every record, but never over a slice that failed
// (a table whose puts fail for one account stands in for a failed transaction); a start after a
// crash between those writes and the record loads none of them as state (src/store/checkpoint.ts);
// a checkpoint that fails hands what it held to the next, which the shard's upkeep retries later
// and later while they fail, telling the main thread how they fare; the upkeep lets records
// gather under load, not at a light one (src/shard/upkeep.ts); a shard notes a batch for its
// checkpoint only once the batch's frames are out, yet never answers from behind it
// (src/shard/core.ts).
import fs from 'node:fs';
import type { Durability } from '../../src/config/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Command, OrderRecord, Outcome, UnixMs } from '../../src/engine/types.js';
import { NO_STOP_OUT } from '../../src/engine/stop-out.js';
import { loadShardState } from '../../src/store/account-loader.js';
import { CheckpointWriter, type CheckpointHooks } from '../../src/store/checkpoint.js';
import { FsJournalIo } from '../../src/store/journal/io.js';
import { checkpointOf, openShardStore, type ShardStore } from '../../src/store/store.js';
import { recoverShard, type Recovered } from '../../src/shard/recovery.js';
import { ShardStatsBoard } from '../../src/shard/stats.js';
import { MAIN, ShardCore, type Inbound } from '../../src/shard/core.js';
import { OrderArchive } from '../../src/shard/order-archive.js';
import { JournalWriter } from '../../src/store/journal/writer.js';
import type { ShardOutbound } from '../../src/shard/protocol.js';
import { ShardUpkeep } from '../../src/shard/upkeep.js';
import { createLogger } from '../../src/base/log.js';
import { account, close, DAY_MS, ok, pending, place, SYMBOLS, tick, WED_NOON } from '../engine/fixtures.js';
import { tempDir } from '../support/server.js';

const dirs: string[] = [];
const stores: ShardStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function recover(store: ShardStore, hooks: CheckpointHooks = {}): Recovered {
  return recoverShard(store, new FsJournalIo('none'), {
    shard: 0, symbols: SYMBOLS, clientIdRetentionMs: DAY_MS, clientIdMemoryMs: DAY_MS, haltedKeys: [], marginPolicy: NO_STOP_OUT, nowMs: WED_NOON,
    checkpointHooks: hooks,
  });
}

function shard(logins: readonly string[], hooks: CheckpointHooks = {}, durability: Durability = 'none'): { store: ShardStore; recovered: Recovered; apply: (cmd: Command) => Outcome } {
  const dir = tempDir('tas-checkpoint-');
  dirs.push(dir);
  const store = openShardStore(dir, 0, durability, null);
  stores.push(store);
  store.root.transactionSync(() => { for (const login of logins) store.accounts.putSync(login, account(login, 'USD', 100_000_000)); });
  const recovered = recover(store, hooks);
  let lsn = 0;
  // As a shard does: every outcome noted for the checkpoint once applied (and journaled).
  const apply = (cmd: Command): Outcome => {
    const outcome = recovered.engine.apply(cmd, WED_NOON as UnixMs);
    recovered.checkpoint.note(++lsn, outcome);
    return outcome;
  };
  apply(tick('EURUSD', 108_500, 108_510));
  return { store, recovered, apply };
}

describe('a checkpoint', () => {
  it('queues a large history over several turns, answers from memory until durable, then holds every record', async () => {
    const logins = Array.from({ length: 200 }, (_, i) => String(300_000 + i));
    let committedWhenRecordQueued: number[] = [];
    const { store, recovered: { engine, checkpoint }, apply } = shard(logins, {
      afterQueued: () => { committedWhenRecordQueued = [store.orders.getCount(), store.clientIds.getCount(), store.events.getCount(), store.positions.getCount()]; },
    }, 'sync');
    const orders: OrderRecord[] = [];
    for (let round = 0; round < 10; round++) {
      for (const login of logins) orders.push(ok(apply(place(login, 'EURUSD', 'buy', 1, { clientId: `c-${round}` })), 'place').order);
    }

    let turns = 0;
    let writing = true;
    const count = (): void => { if (writing) { turns++; setImmediate(count); } };
    setImmediate(count);
    const written = checkpoint.begin(engine.idCounter)!;
    const last = orders.at(-1)!;
    expect(checkpoint.order(last.login, last.id)).toEqual(last);
    expect(checkpoint.order('300000', last.id)).toBeUndefined();
    expect(checkpoint.clientId(last.login, 'c-9')?.orderId).toBe(last.id);
    const lsn = await written;
    writing = false;

    // 2,000 orders, their client ids, events and positions: 10,000 puts, 625 a turn. The last
    // slice (the last 625 positions) went with the record, after every earlier slice committed.
    expect(turns).toBeGreaterThanOrEqual(15);
    expect(committedWhenRecordQueued).toEqual([2000, 2000, 4000, 1375]);
    expect(checkpointOf(store)).toMatchObject({ lsn, idCounter: engine.idCounter });
    expect(store.orders.getCount()).toBe(orders.length);
    expect(store.clientIds.getCount()).toBe(orders.length);
    expect(store.events.getCount()).toBe(orders.length * 2);
    expect(store.positions.getCount()).toBe(orders.length);
    expect(checkpoint.order(last.login, last.id)).toBeUndefined();
    expect(store.orders.get([last.login, Number(last.id)])).toEqual(last);
  });

  it('never commits its record over an earlier slice whose write failed', async () => {
    const logins = Array.from({ length: 200 }, (_, i) => String(300_000 + i));
    const { store, recovered: { engine, checkpoint }, apply } = shard(logins, {}, 'sync');
    await checkpoint.begin(engine.idCounter);
    const before = checkpointOf(store);
    // The same shard's tables, but one order's put fails: that of the 21st account, which the
    // second of the 16 slices carries (each account's 10 orders, 10 client ids and 20 events are
    // 40 puts; 625 puts a slice). Every other write reaches LMDB and commits.
    const failing = logins[20]!;
    const orders = new Proxy(store.orders, {
      get: (target, name, receiver) => (name !== 'put' ? Reflect.get(target, name, receiver) as unknown
        : (key: [string, number], value: OrderRecord) => (key[0] === failing ? Promise.reject(new Error('slice write failed')) : target.put(key, value))),
    });
    const writer = new CheckpointWriter({ ...store, orders }, 0, before);
    let lsn = before.lsn;
    for (let round = 0; round < 10; round++) {
      for (const login of logins) writer.note(++lsn, apply(place(login, 'EURUSD', 'buy', 1, { clientId: `c-${round}` })));
    }

    await expect(writer.begin(engine.idCounter)).rejects.toThrow('slice write failed');
    // Whatever was queued has committed by now: later slices, but never the last one (with the
    // state and the record).
    await store.root.flushed;
    expect(store.events.getCount()).toBeGreaterThan(0);
    expect(checkpointOf(store)).toEqual(before);
    expect(writer.backlog).toBeGreaterThan(0);
  });

  it('whose record never committed leaves what went ahead of it out of the state a start loads', async () => {
    let crashAt = 0;
    const { store, recovered: { engine, checkpoint }, apply } = shard(['usd1'], { afterAhead: (n) => { if (n === crashAt) throw new Error('crash'); } });
    const before = ok(apply(place('usd1', 'EURUSD', 'buy', 1, { clientId: 'before' })), 'place');
    const limit = ok(apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_400, 1)), 'place').order;
    await checkpoint.begin(engine.idCounter);
    const state = checkpointOf(store);

    // After the checkpoint: a new order, and the limit order filled.
    const after = ok(apply(place('usd1', 'EURUSD', 'buy', 1, { clientId: 'after' })), 'place');
    apply(tick('EURUSD', 108_390, 108_400));
    crashAt = 2;
    await expect(checkpoint.begin(engine.idCounter)).rejects.toThrow('crash');
    expect(checkpointOf(store)).toEqual(state);
    expect(store.orders.get(['usd1', Number(after.order.id)])?.status).toBe('filled');
    expect(store.orders.get(['usd1', Number(limit.id)])?.status).toBe('filled');
    expect(store.clientIds.get(['usd1', 'after'])?.orderId).toBe(after.order.id);
    expect(store.positions.getCount()).toBe(3);

    const loaded = loadShardState(store, 0, state, 0);
    expect(loaded.pendingOrders.map((o) => o.id)).toEqual([limit.id]);
    expect(loaded.recentOrders.map((o) => o.id)).toEqual([before.order.id]);
    expect(loaded.clientIds.map((c) => c.clientId)).toEqual(['before']);
    expect(loaded.positions.map((p) => p.ticket)).toEqual([before.position!.ticket]);

    // A start from that checkpoint, applying the records after it again (a replay, or a cluster
    // replica's catch-up): the client id written ahead is not yet a duplicate, and the order comes
    // back with the same id.
    const again = recover(store).engine;
    expect(again.idCounter).toBe(state.idCounter);
    again.apply(tick('EURUSD', 108_500, 108_510), WED_NOON as UnixMs);
    const replayed = ok(again.apply(place('usd1', 'EURUSD', 'buy', 1, { clientId: 'after' }), WED_NOON as UnixMs), 'place');
    expect(replayed.order.id).toBe(after.order.id);
    // Once the engine has allocated it, the stored entry counts.
    expect(again.apply(place('usd1', 'EURUSD', 'buy', 1, { clientId: 'before' }), WED_NOON as UnixMs).result).toMatchObject({ ok: false, name: 'duplicate_client_id' });
  });

  it('that failed is written again by the next: the state a start loads holds what the failed one held', async () => {
    let failAt = 0;
    const { store, recovered: { engine, checkpoint }, apply } = shard(['usd1', 'usd2'], { afterAhead: (n) => { if (n === failAt) throw new Error('disk full'); } });
    const opened = ok(apply(place('usd1', 'EURUSD', 'buy', 1)), 'place');
    const limit = ok(apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_400, 1)), 'place').order;
    await checkpoint.begin(engine.idCounter);

    // What only the failed checkpoint held: the position closed, the limit order cancelled, the
    // account after both (its balance, its seq). None of it was allocated since the last checkpoint, so
    // it is written with the record, not ahead of it.
    expect(ok(apply(close('usd1', opened.position!.ticket)), 'close').closedVolume).toBe(1);
    const cancelled = apply({ kind: 'cancel', login: 'usd1', orderId: limit.id, source: 'api', keyId: null });
    failAt = 2;
    await expect(checkpoint.begin(engine.idCounter)).rejects.toThrow('disk full');
    expect(checkpoint.backlog).toBeGreaterThan(0);

    const other = ok(apply(place('usd2', 'EURUSD', 'buy', 1)), 'place');
    await checkpoint.begin(engine.idCounter);
    const loaded = loadShardState(store, 0, checkpointOf(store), 0);
    expect(loaded.meta.lsn).toBe(checkpoint.notedLsn);
    expect(loaded.positions.map((p) => p.ticket)).toEqual([other.position!.ticket]);
    expect(loaded.pendingOrders).toEqual([]);
    expect(loaded.accounts.find((a) => a.login === 'usd1')).toEqual(cancelled.accounts.find((a) => a.login === 'usd1'));
    expect(store.orders.get(['usd1', Number(limit.id)])?.status).toBe('cancelled');
  });
});

/**
 * A shard upkeep over the shard, started a second before `t0`, so the first checkpoint is due by
 * time; `startsAt(offsetMs)` runs it at t0 + offsetMs and waits for what it started.
 */
function upkeepOf({ store, recovered: { engine, checkpoint } }: ReturnType<typeof shard>) {
  const stats = ShardStatsBoard.create();
  const toMain: ShardOutbound[] = [];
  const upkeep = new ShardUpkeep({
    shard: 0, store, eventRetentionMs: DAY_MS, clientIdRetentionMs: DAY_MS, log: createLogger('silent'), stats,
    onCheckpoint: () => undefined, toMain: (frame) => { toMain.push(frame); },
  });
  const target = { engine, checkpoint, health: { state: 'ok' } as const };
  const t0 = Date.now() + 1000;
  const startsAt = async (offsetMs: number, ordersWaiting = false): Promise<boolean> => {
    const started = upkeep.run((t0 + offsetMs) as UnixMs, target, ordersWaiting);
    await upkeep.settle(checkpoint);
    return started;
  };
  /** What the main thread was last told of the checkpoints' health. */
  const health = (): unknown => toMain.filter((f) => f.t === 'checkpointHealth').at(-1)?.checkpoint;
  return { stats, startsAt, health, t0 };
}

describe('the shard upkeep after a failed checkpoint', () => {
  it('waits twice as long before each retry while checkpoints fail, and as usual once one is durable', async () => {
    let failing = true;
    const s = shard(['usd1'], { afterAhead: () => { if (failing) throw new Error('disk full'); } });
    const { store, recovered: { checkpoint }, apply } = s;
    const { stats, startsAt, health, t0 } = upkeepOf(s);
    apply(place('usd1', 'EURUSD', 'buy', 1));

    expect(await startsAt(0)).toBe(true);
    expect(stats.read().checkpointsFailed).toBe(1);
    expect(health()).toEqual({ state: 'failing', failedInARow: 1, sinceMs: t0 });
    // 50 ms after the failed one, not 25.
    expect(await startsAt(25)).toBe(false);
    expect(await startsAt(50)).toBe(true);
    expect(stats.read().checkpointsFailed).toBe(2);
    // Then 100 ms.
    expect(await startsAt(125)).toBe(false);
    expect(await startsAt(150)).toBe(true);
    expect(stats.read().checkpointsFailed).toBe(3);
    expect(health()).toEqual({ state: 'failing', failedInARow: 3, sinceMs: t0 });

    failing = false;
    expect(await startsAt(350)).toBe(true);
    expect(stats.read()).toMatchObject({ checkpoints: 1, checkpointsFailed: 3 });
    expect(health()).toEqual({ state: 'ok' });
    expect(checkpointOf(store).lsn).toBe(checkpoint.notedLsn);
    apply(place('usd1', 'EURUSD', 'buy', 1));
    expect(await startsAt(375)).toBe(true);
    expect(stats.read().checkpoints).toBe(2);
  });
});

describe('when the shard upkeep starts a checkpoint', () => {
  it('25 ms after the last while records come slowly, 500 ms while they come fast, and at once past 32k records', async () => {
    const logins = Array.from({ length: 100 }, (_, i) => String(400_000 + i));
    const s = shard(logins);
    const { store, recovered: { checkpoint }, apply } = s;
    const { stats, startsAt, health } = upkeepOf(s);
    let placed = 0;
    const placeUntil = (records: number): void => {
      while (checkpoint.backlog < records) apply(place(logins[placed++ % logins.length]!, 'EURUSD', 'buy', 1));
    };
    placeUntil(1);
    expect(await startsAt(0)).toBe(true);

    placeUntil(1);
    expect(await startsAt(24)).toBe(false);
    expect(await startsAt(25)).toBe(true);

    // Records noted as fast as 1,024 in 25 ms gather (fewer leaves per order), and still wait while
    // orders are queued.
    placeUntil(1024);
    expect(await startsAt(50)).toBe(false);
    placeUntil(1024 * 499 / 25);
    expect(await startsAt(524)).toBe(false);
    expect(await startsAt(525, true)).toBe(false);
    expect(await startsAt(525)).toBe(true);

    // A backlog as large, noted more slowly (a light load behind a slow checkpoint), goes at once.
    placeUntil(1100);
    expect(await startsAt(550)).toBe(false);
    expect(await startsAt(625)).toBe(true);

    placeUntil(32 * 1024);
    expect(await startsAt(626, true)).toBe(true);
    expect(checkpoint.backlog).toBe(0);
    expect(checkpointOf(store).lsn).toBe(checkpoint.notedLsn);
    expect(stats.read()).toMatchObject({ checkpoints: 5, checkpointsFailed: 0 });
    expect(health()).toBeUndefined();
  });
});

describe('a shard\'s batch', () => {
  it('is noted for the checkpoint after its frames, before anything reads the shard again, and never settled twice unnoted', async () => {
    const login = '300000';
    const { store, recovered } = shard([login]);
    const { engine, checkpoint } = recovered;
    const journal = await JournalWriter.start({
      dir: store.journalDir, shard: 0, segmentBytes: 1 << 20, headroomBytes: 1 << 16, io: new FsJournalIo('none'),
      clock: () => WED_NOON, nextLsn: recovered.nextLsn, onSegmentError: (err) => { throw err; },
    });
    const core = new ShardCore(0, engine, journal, checkpoint, new OrderArchive(engine, checkpoint, store), () => WED_NOON as UnixMs, ShardStatsBoard.create());
    const cmds = (corr: number, cmd: Command): Inbound => ({ peer: MAIN, frame: { t: 'cmds', items: [{ corr, cmd }] } });
    const noted = checkpoint.notedLsn;
    const backlog = checkpoint.backlog;

    const [frame] = core.process([cmds(1, place(login, 'EURUSD', 'buy', 100, { clientId: 'c-1' }))]);
    const reply = frame?.t === 'batch' ? frame.items.find((i) => i.k === 'reply') : undefined;
    expect(reply?.k === 'reply' && reply.answer.t === 'done' && reply.answer.result.kind).toBe('place');
    // The answer may leave while the checkpoint has not heard of the order yet.
    expect([checkpoint.notedLsn, checkpoint.backlog]).toEqual([noted, backlog]);

    // The next batch asks for the order by its client id: staged only after the last is noted.
    const [answered] = core.process([{ peer: MAIN, frame: { t: 'query', corr: 2, query: { kind: 'order', login, ref: { by: 'clientId', clientId: 'c-1' } } } }]);
    const found = answered?.t === 'batch' ? answered.items.find((i) => i.k === 'reply') : undefined;
    expect(found?.k === 'reply' && found.answer.t === 'order' && found.answer.order?.clientId).toBe('c-1');
    expect(checkpoint.notedLsn).toBe(journal.durableLsn);
    expect(checkpoint.backlog).toBeGreaterThan(backlog);

    // A cluster shard stages, awaits its commit, settles and notes: settling again first would drop a batch's notes.
    const staged = core.stage([cmds(3, place(login, 'EURUSD', 'sell', 100))], 'fire');
    journal.commit();
    core.settle(staged, null);
    expect(() => core.settle(staged, null)).toThrow(/before the one before it was noted/);
    core.noteDurable();
    expect(checkpoint.notedLsn).toBe(journal.durableLsn);
    await journal.close();
  });
});
