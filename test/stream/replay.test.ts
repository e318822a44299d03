// since_seq through the real server: a replay that spans several chunks while fills keep coming
// hands over to the live events with no gap and no duplicate (proved by seq), and a since_seq
// older than what the journal still keeps is refused naming the oldest available.
import { shardOf } from '../../src/shard/protocol.js';
import { openStore } from '../../src/store/store.js';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SHARDS as SHARDS, startServer, tempDir, type RunningServer } from '../support/server.js';
import { KEYS, LOGIN, STREAM_CONFIG, streamSeed } from './support/seed.js';
import { operatorOrder, TestStream, type Msg } from './support/stream-client.js';

/** Order and position events (live P&L updates carry no seq). */
const isEvent = (m: Msg): boolean => (m.channel === 'order' || m.channel === 'position') && m.live !== true;

/** A seed whose main account can hold thousands of small positions. */
function richSeed(): Record<string, unknown> {
  const seed = streamSeed();
  const accounts = (seed['accounts'] as Record<string, unknown>[]).map((a) => (a['login'] === LOGIN ? { ...a, balance: 10_000_000 } : a));
  return { ...seed, accounts };
}

const fill = (i: number) => ({ login: LOGIN, symbol: 'BTCUSD', side: i % 2 === 0 ? 'buy' : 'sell', volume: 0.01 });

/**
 * Places orders from `workers` concurrent loops until `stop()`; resolves with how many were
 * acknowledged. `during` waits for something while the loops run, and fails at once, with the
 * answer, when an order is not acknowledged (the loops would stop, and the wait time out on
 * heartbeats alone).
 */
function burst(server: RunningServer, workers: number): { during<T>(wait: Promise<T>): Promise<T>; stop(): Promise<number> } {
  let running = true;
  let acked = 0;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const res = await operatorOrder(server, fill(n++));
      if (res.status !== 200) throw new Error(`an order of the burst was answered ${res.status}: ${JSON.stringify(res.body)}`);
      acked++;
    }
  });
  const failed = Promise.all(loops).then(() => new Promise<never>(() => {}));
  return {
    during: (wait) => Promise.race([wait, failed]),
    stop: async () => { running = false; await Promise.all(loops); return acked; },
  };
}

/**
 * The wait, failing with what the streams and the server show. It showed why this test timed out on
 * heartbeats about once in ten full-suite runs: the burst had stopped right at the event the wait
 * for `live.seq + 200` took, so that event was the last, and a second `take` of it never came.
 */
async function explained<T>(wait: Promise<T>, server: RunningServer, streams: Record<string, TestStream>): Promise<T> {
  try {
    return await wait;
  } catch (err) {
    const seen = Object.entries(streams).map(([name, s]) => {
      const events = s.messages.filter(isEvent);
      const replies = s.messages.filter((m) => m.channel === 'subscribed' || m.channel === 'error');
      return `${name}: ${events.length} events, last seq ${events.at(-1)?.seq ?? '-'}, replies ${JSON.stringify(replies)}`;
    });
    const logged = server.logs.filter((l) => l.level >= 40).slice(-10).map((l) => JSON.stringify(l));
    throw new Error(`${(err as Error).message}\n${seen.join('\n')}\nserver warnings and errors:\n${logged.join('\n') || '(none)'}`, { cause: err });
  }
}

const servers: RunningServer[] = [];
afterAll(async () => { for (const s of servers) await s.stop(); });

describe('since_seq replay', () => {
  it('replays past several chunks while fills go on, then goes live: every seq exactly once, in order', async () => {
    const server = await startServer({ seed: richSeed(), config: STREAM_CONFIG });
    servers.push(server);
    const fills = burst(server, 8);
    // Well past two replay chunks (500 events each) before anyone subscribes.
    while ((await fills.during(countEvents(server))) < 1300) { /* the burst goes on */ }
    const from = await TestStream.connect(server.httpPort, KEYS.main);
    const mid = await TestStream.connect(server.httpPort, KEYS.main);
    from.send({ op: 'subscribe', id: 1, channels: ['orders', 'positions'], since_seq: 0 });
    mid.send({ op: 'subscribe', id: 1, channels: ['orders', 'positions'], since_seq: 777 });
    const streams = { from, mid };
    // Fills continue through the replay and after the handover.
    const live = await explained(fills.during(from.take((m) => isEvent(m) && m.seq >= 1300)), server, streams);
    await explained(fills.during(from.take((m) => isEvent(m) && m.seq >= live.seq + 200)), server, streams);
    // Each market order makes two events (order, position): the account's last seq. When the
    // burst stops right at the event the wait above took, that event is the last: `seen`, not `take`.
    const total = 2 * await fills.stop();
    await explained(from.seen((m) => isEvent(m) && m.seq === total), server, streams);
    await explained(mid.seen((m) => isEvent(m) && m.seq === total), server, streams);
    expect(from.of('snapshot')).toHaveLength(0);
    expect(from.messages.filter(isEvent).map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(mid.messages.filter(isEvent).map((e) => e.seq)).toEqual(Array.from({ length: total - 777 }, (_, i) => i + 778));
    await Promise.all([from.close(), mid.close()]);
  }, 120_000);

  it('refuses a since_seq older than the kept events, naming the oldest available', async () => {
    const dataDir = tempDir();
    const first = await startServer({ dataDir, seed: streamSeed(), config: STREAM_CONFIG });
    for (let i = 0; i < 10; i++) await operatorOrder(first, fill(i));
    expect(await first.stop()).toBe(0);
    // Retention dropped the account's first six events.
    const store = openStore(dataDir, 'sync', SHARDS);
    const { events } = store.shards[shardOf(LOGIN, SHARDS)]!;
    await store.root.transaction(() => { for (let seq = 1; seq <= 6; seq++) void events.remove([LOGIN, seq]); });
    await events.flushed;
    await store.close();

    const server = await startServer({ dataDir, seed: streamSeed(), config: STREAM_CONFIG });
    servers.push(server);
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    for (const [id, since] of [[1, 0], [2, 5]] as const) {
      const err = await s.request({ op: 'subscribe', id, channels: ['orders', 'positions'], since_seq: since });
      expect(err).toMatchObject({ channel: 'error', id, name: 'not_found', field: 'since_seq', oldest_seq: 7 });
      expect(err.message).toMatch(/oldest available is seq 7/);
    }
    expect((await s.request({ op: 'subscribe', id: 3, channels: ['orders', 'positions'], since_seq: 6 })).channel).toBe('subscribed');
    await s.take((m) => isEvent(m) && m.seq === 20);
    expect(s.messages.filter(isEvent).map((e) => e.seq)).toEqual(Array.from({ length: 14 }, (_, i) => i + 7));
    await s.close();
  }, 60_000);
});

/** The account's event count, read from its seq on a fresh stream snapshot. */
async function countEvents(server: RunningServer): Promise<number> {
  const s = await TestStream.connect(server.httpPort, KEYS.readOnly);
  await s.request({ op: 'subscribe', id: 1, channels: ['orders'] });
  const snap = await s.take((m) => m.channel === 'snapshot');
  await s.close();
  return snap.seq;
}
