// The SDK's stream client against the real server through a TCP proxy the test cuts: during a
// burst of fills the connection dies again and again, the client reconnects with backoff,
// resubscribes and resumes with since_seq, and its handlers see every order and position event
// exactly once, in seq order. When the missed events are no longer kept, it says so (`gap`) and
// starts over from a snapshot.
import { shardOf } from '../../src/shard/protocol.js';
import { openStore } from '../../src/store/store.js';
import { afterAll, describe, expect, it } from 'vitest';
import { StreamClient } from '../../src/client/index.js';
import { DEFAULT_SHARDS as SHARDS, startServer, tempDir, type RunningServer } from '../support/server.js';
import { KEYS, LOGIN, STREAM_CONFIG, streamSeed } from '../stream/support/seed.js';
import { operatorOrder, pushQuote } from '../stream/support/stream-client.js';
import { TcpProxy } from './support/tcp-proxy.js';

const servers: RunningServer[] = [];
const proxies: TcpProxy[] = [];
const clients: StreamClient[] = [];
afterAll(async () => {
  for (const c of clients) c.close();
  for (const p of proxies) await p.close();
  for (const s of servers) await s.stop();
});

function richSeed(): Record<string, unknown> {
  const seed = streamSeed();
  const accounts = (seed['accounts'] as Record<string, unknown>[]).map((a) => (a['login'] === LOGIN ? { ...a, balance: 10_000_000 } : a));
  return { ...seed, accounts };
}

function client(port: number): StreamClient {
  const c = new StreamClient({
    url: `ws://127.0.0.1:${port}/v1`, keyId: KEYS.main.id, secret: KEYS.main.secret,
    backoff: { initialMs: 20, maxMs: 200 }, staleMs: 3000,
  });
  clients.push(c);
  return c;
}

/** Resolves when `pred` holds, checked after each event the client hands out. */
function until(pred: () => boolean, on: (wake: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    if (pred()) { resolve(); return; }
    on(() => { if (pred()) resolve(); });
  });
}

const fill = (i: number) => ({ login: LOGIN, symbol: 'BTCUSD', side: i % 2 === 0 ? 'buy' : 'sell', volume: 0.01 });

describe('StreamClient', () => {
  it('delivers every event exactly once across connections cut during a burst of fills', async () => {
    const server = await startServer({ seed: richSeed(), config: STREAM_CONFIG });
    servers.push(server);
    const proxy = await TcpProxy.start(server.httpPort);
    proxies.push(proxy);
    const sdk = client(proxy.port);
    const seqs: number[] = [];
    const wakers: (() => void)[] = [];
    const wake = (): void => { for (const w of wakers) w(); };
    let opens = 0;
    let disconnects = 0;
    sdk.on('order', (m) => { seqs.push(m.seq); wake(); })
      .on('position', (m) => { seqs.push(m.seq); wake(); })
      .on('open', () => { opens++; wake(); })
      .on('disconnect', () => { disconnects++; });
    await sdk.connect();
    await sdk.subscribe({ channels: ['orders', 'positions', 'quotes'], symbols: ['BTCUSD'] });
    const start = await new Promise<number>((resolve) => {
      const seen = sdk.lastSeq(LOGIN);
      if (seen !== undefined) resolve(seen); else sdk.on('snapshot', (s) => resolve(s.seq));
    });

    let running = true;
    let acked = 0;
    let n = 0;
    const loops = Array.from({ length: 6 }, async () => {
      while (running) {
        expect((await operatorOrder(server, fill(n++))).status).toBe(200);
        acked++;
      }
    });
    for (let cut = 1; cut <= 6; cut++) {
      const atLeast = seqs.length + 60;
      await until(() => seqs.length >= atLeast, (w) => wakers.push(w));
      proxy.cut();
      await until(() => opens > cut, (w) => wakers.push(w));
    }
    running = false;
    await Promise.all(loops);
    const last = start + 2 * acked;
    await until(() => seqs[seqs.length - 1] === last, (w) => wakers.push(w));

    expect(seqs).toEqual(Array.from({ length: last - start }, (_, i) => start + 1 + i));
    expect(sdk.lastSeq(LOGIN)).toBe(last);
    expect(disconnects).toBeGreaterThanOrEqual(6);
    expect(proxy.accepted).toBeGreaterThanOrEqual(7);

    // Quotes were resubscribed too.
    const quote = new Promise<number>((resolve) => sdk.on('quote', (q) => { if (q.bid === 65123) resolve(q.ask); }));
    await pushQuote(server, 'BTCUSD', 65123, 65133);
    expect(await quote).toBe(65133);
    sdk.close();
  }, 120_000);

  it('reports a gap and starts over from a snapshot when the missed events are gone', async () => {
    const dataDir = tempDir();
    const first = await startServer({ dataDir, seed: richSeed(), config: STREAM_CONFIG });
    const proxy = await TcpProxy.start(first.httpPort);
    proxies.push(proxy);
    const sdk = client(proxy.port);
    const seqs: number[] = [];
    const gaps: unknown[] = [];
    const snapshots: number[] = [];
    const wakers: (() => void)[] = [];
    const wake = (): void => { for (const w of wakers) w(); };
    sdk.on('position', (m) => { seqs.push(m.seq); wake(); })
      .on('snapshot', (s) => { snapshots.push(s.seq); wake(); })
      .on('gap', (g) => { gaps.push(g); wake(); });
    await sdk.connect();
    await sdk.subscribe({ channels: ['positions'] });
    await operatorOrder(first, fill(0));
    await until(() => seqs.length === 1, (w) => wakers.push(w));
    expect(seqs).toEqual([2]);

    // Cut off while more happens, and the journal loses what the client missed.
    proxy.refuse(true);
    proxy.cut();
    for (let i = 0; i < 5; i++) await operatorOrder(first, fill(i));
    expect(await first.stop()).toBe(0);
    const store = openStore(dataDir, 'sync', SHARDS);
    const { events } = store.shards[shardOf(LOGIN, SHARDS)]!;
    await store.root.transaction(() => { for (let seq = 1; seq <= 8; seq++) void events.remove([LOGIN, seq]); });
    await events.flushed;
    await store.close();
    const second = await startServer({ dataDir, seed: richSeed(), config: STREAM_CONFIG });
    servers.push(second);
    proxy.targetPort = second.httpPort;
    proxy.refuse(false);

    await until(() => snapshots.length === 2, (w) => wakers.push(w));
    expect(gaps).toEqual([{ login: LOGIN, sinceSeq: 2, oldestSeq: 9 }]);
    expect(snapshots).toEqual([0, 12]);
    expect(sdk.lastSeq(LOGIN)).toBe(12);
    await operatorOrder(second, fill(1));
    await until(() => seqs.length === 2, (w) => wakers.push(w));
    expect(seqs).toEqual([2, 14]);
    sdk.close();
  }, 60_000);
});
