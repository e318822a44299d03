// Live position P&L on the stream through the real process: `position` messages marked
// `live: true` (no seq, never replayed) carry the floating profit the shard computed, at most every
// 100 ms per position; a reader too slow for them gets the latest value per position once it
// drains, while readers that keep up get them all.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type LogLine, type RunningServer } from '../support/server.js';
import { KEYS, LOGIN, streamSeed } from '../stream/support/seed.js';
import { operatorOrder, pushQuote, rest, streamUrl, TestStream, type Msg } from '../stream/support/stream-client.js';

/** Simulated symbols ticking every 10 ms fill a paused reader's buffers; BTCUSD moves only when pushed. */
const FLOOD = Array.from({ length: 150 }, (_, i) => `F${String(i).padStart(3, '0')}`);

function seed(): Record<string, unknown> {
  const s = streamSeed();
  const btc = (s['symbols'] as Record<string, unknown>[]).filter((x) => x['name'] === 'BTCUSD').map((x) => ({ ...x, tick_ms: 3_600_000 }));
  const flood = FLOOD.map((name) => ({
    name, digits: 2, contract_size: 1, bid: 1000, ask: 1001, volatility: 0.5, tick_ms: 10, max_volume: 10, session: '24x7', base_currency: null, quote_currency: 'USD',
  }));
  const accounts = (s['accounts'] as Record<string, unknown>[]).map((a) => (a['login'] === LOGIN ? { ...a, balance: 1_000_000 } : a));
  return { ...s, symbols: [...btc, ...flood], accounts };
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ seed: seed(), config: { prices: { source: 'simulated' }, log: { level: 'debug' }, stream: { max_buffer_bytes: 256 * 1024 } } });
});
afterAll(async () => { await server?.stop(); });

const isLive = (m: Msg): boolean => m.channel === 'position' && m.live === true;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('live P&L', () => {
  it('streams each position\'s floating profit as prices move, no seq, at most every 100 ms per position', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.main);
    await s.request({ op: 'subscribe', id: 1, channels: ['positions'] });
    const opened = await operatorOrder(server, { login: LOGIN, symbol: 'BTCUSD', side: 'buy', volume: 1 });
    expect(opened.status).toBe(200);
    const ticket = opened.body.ticket as number;
    for (let i = 1; i <= 40; i++) {
      await pushQuote(server, 'BTCUSD', 65000 + 10 * i, 65010 + 10 * i);
      await sleep(10);
    }
    // The last price: bid 65400 on 1 lot opened at 65010 is a floating 390.
    const last = await s.take((m) => isLive(m) && m.ticket === ticket && m.profit === 390);
    expect(Object.keys(last).sort()).toEqual(['channel', 'equity', 'live', 'login', 'profit', 'symbol', 'ticket', 'ts']);
    expect(last).toMatchObject({ login: LOGIN, symbol: 'BTCUSD' });
    const live = s.messages.filter((m) => isLive(m) && m.ticket === ticket);
    expect(live.length).toBeGreaterThan(1);
    expect(live.length).toBeLessThan(40);
    for (let i = 1; i < live.length; i++) expect(live[i].ts - live[i - 1].ts).toBeGreaterThanOrEqual(100);
    const positions = await rest(server, KEYS.main, 'GET', '/positions');
    expect(positions.body.data.find((p: { ticket: number }) => p.ticket === ticket).profit).toBe(390);
    // Live updates are states, not events: a replay from seq 0 carries none.
    const replay = await TestStream.connect(server.httpPort, KEYS.main);
    await replay.request({ op: 'subscribe', id: 1, channels: ['positions'], since_seq: 0 });
    await replay.take((m) => m.channel === 'position' && m.ticket === ticket && m.seq !== undefined);
    expect(replay.messages.filter((m) => isLive(m) && m.ts < Date.now() - 5_000)).toEqual([]);
    await Promise.all([s.close(), replay.close()]);
    expect((await rest(server, KEYS.main, 'DELETE', `/positions/${ticket}`)).status).toBe(200);
  });

  it('conflates to the latest value per position for a reader that does not keep up', async () => {
    let socket: net.Socket | null = null;
    const slow = await TestStream.open(streamUrl(server.httpPort, KEYS.readOnly), {
      createConnection: (opts) => { socket = net.connect(opts as net.NetConnectOpts); return socket; },
    });
    await slow.request({ op: 'subscribe', id: 1, channels: ['quotes', 'positions'], symbols: ['BTCUSD', ...FLOOD] });
    const fast = await TestStream.connect(server.httpPort, KEYS.main);
    await fast.request({ op: 'subscribe', id: 1, channels: ['positions'] });
    const opened: { ticket: number; side: string; price: number }[] = [];
    for (const side of ['buy', 'sell', 'buy']) opened.push((await operatorOrder(server, { login: LOGIN, symbol: 'BTCUSD', side, volume: 1 })).body);
    const tickets = opened.map((o) => o.ticket);
    // After the last push: bid 63700, ask 63710; 1 lot of BTCUSD moves 1 USD per point.
    const finalProfit = opened.map((o) => (o.side === 'buy' ? 63700 - o.price : o.price - 63710));
    socket!.pause();
    await server.waitForLog((l: LogLine) => l.msg === 'stream consumer slow: quotes conflated' && l['key'] === KEYS.readOnly.id, 60_000);

    const fromMs = Date.now();
    for (let i = 1; i <= 30; i++) {
      await pushQuote(server, 'BTCUSD', 64000 - 10 * i, 64010 - 10 * i);
      await sleep(25);
    }
    const final = await Promise.all(tickets.map((t, i) => fast.take((m) => isLive(m) && m.ticket === t && m.ts >= fromMs && m.profit === finalProfit[i])));
    const fastCount = (t: number): number => fast.messages.filter((m) => isLive(m) && m.ticket === t && m.ts >= fromMs).length;
    for (const t of tickets) expect(fastCount(t)).toBeGreaterThanOrEqual(4);

    socket!.resume();
    // Once it drains, the slow reader gets the latest value of each position, and only that.
    const caught = await Promise.all(tickets.map((t, i) => slow.take((m) => isLive(m) && m.ticket === t && m.ts === final[i].ts, 20_000)));
    for (const [i, t] of tickets.entries()) {
      expect(caught[i].profit).toBe(final[i].profit);
      const slowCount = slow.messages.filter((m) => isLive(m) && m.ticket === t && m.ts >= fromMs).length;
      expect(slowCount).toBeLessThan(fastCount(t));
    }
    await Promise.all([slow.close(), fast.close()]);
  });
});
