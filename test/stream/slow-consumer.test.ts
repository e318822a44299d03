// A client that never reads, under a flood of simulated ticks: its quotes are conflated (it leaves
// the fan-out instead of piling up), the clients that do read keep getting every tick promptly,
// and once order/position events push its buffer past stream.max_buffer_bytes it is closed with
// 1008 — having received, before the close, every event up to then in seq order.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../rest/support/client.js';
import { startServer, type LogLine, type RunningServer } from '../support/server.js';
import { KEYS, LOGIN, streamSeed } from './support/seed.js';
import { operatorOrder, pushQuote, streamUrl, TestStream, type Msg } from './support/stream-client.js';

const FLOOD = Array.from({ length: 150 }, (_, i) => `F${String(i).padStart(3, '0')}`);
const MAX_BUFFER_BYTES = 256 * 1024;

function floodSeed(): Record<string, unknown> {
  const seed = streamSeed();
  const symbols = (seed['symbols'] as Record<string, unknown>[]).filter((s) => s['name'] === 'BTCUSD');
  const flood = FLOOD.map((name) => ({
    name, digits: 2, contract_size: 1, bid: 1000, ask: 1001, volatility: 0.5, tick_ms: 10, max_volume: 10, session: '24x7',
    base_currency: null, quote_currency: 'USD',
  }));
  const accounts = (seed['accounts'] as Record<string, unknown>[]).map((a) => (a['login'] === LOGIN ? { ...a, balance: 10_000_000 } : a));
  return { ...seed, symbols: [...symbols.map((s) => ({ ...s, tick_ms: 3_600_000 })), ...flood], accounts };
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({
    seed: floodSeed(),
    config: { prices: { source: 'simulated' }, log: { level: 'debug' }, stream: { heartbeat_ms: 1000, max_buffer_bytes: MAX_BUFFER_BYTES } },
  });
});
afterAll(async () => { await server?.stop(); });

const ofReader = (msg: string) => (l: LogLine): boolean => l.msg === msg && l['key'] === KEYS.readOnly.id;
/** Order and position events (live P&L updates carry no seq). */
const isEvent = (m: Msg): boolean => (m.channel === 'order' || m.channel === 'position') && m.live !== true;

describe('slow consumer', () => {
  it('is conflated, then closed at the buffer limit, without slowing the others', async () => {
    let socket: net.Socket | null = null;
    const reader = await TestStream.open(streamUrl(server.httpPort, KEYS.readOnly), {
      createConnection: (opts) => { socket = net.connect(opts as net.NetConnectOpts); return socket; },
    });
    await reader.request({ op: 'subscribe', id: 1, channels: ['quotes', 'orders', 'positions'], symbols: ['BTCUSD', ...FLOOD] });
    const snapshot = await reader.take((m) => m.channel === 'snapshot');
    socket!.pause();

    const readers = await Promise.all(Array.from({ length: 3 }, () => TestStream.connect(server.httpPort, KEYS.main)));
    for (const r of readers) await r.request({ op: 'subscribe', id: 1, channels: ['quotes'], symbols: ['BTCUSD', ...FLOOD.slice(0, 20)] });

    // The kernel's socket buffers fill first; then uWS's buffer passes 64 KiB and the quotes conflate.
    await server.waitForLog(ofReader('stream consumer slow: quotes conflated'), 60_000);

    // Meanwhile every reading client gets every tick of BTCUSD, in order, promptly.
    const latencies: number[] = [];
    for (let i = 1; i <= 30; i++) {
      await pushQuote(server, 'BTCUSD', 65000 + i, 65010 + i);
      const got = await Promise.all(readers.map((r) => r.take((m) => m.channel === 'quote' && m.symbol === 'BTCUSD' && m.bid === 65000 + i)));
      for (const q of got) latencies.push(Date.now() - q.ts);
    }
    for (const r of readers) {
      expect(r.of('quote').filter((q) => q.symbol === 'BTCUSD' && q.bid > 65000).map((q) => q.bid)).toEqual(Array.from({ length: 30 }, (_, i) => 65001 + i));
    }
    latencies.sort((a, b) => a - b);
    expect(latencies[Math.floor(latencies.length * 0.99)]).toBeLessThan(500);
    // The 30 BTCUSD ticks the paused reader missed are counted as conflated quotes (docs/metrics.md).
    const metrics = await send(server.consolePort, 'GET', '/metrics', { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(Number(/^tas_ws_quotes_conflated_total (\d+)$/m.exec(metrics.text)?.[1])).toBeGreaterThanOrEqual(30);

    // Events are never dropped: they pile up until the buffer passes the hard limit, then 1008.
    while (!server.logs.some(ofReader('stream consumer too slow: closed'))) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => operatorOrder(server, { login: LOGIN, symbol: 'BTCUSD', side: i % 2 ? 'sell' : 'buy', volume: 0.01 })));
    }
    socket!.resume();
    const closed = await reader.closed;
    expect(closed.code).toBe(1008);
    expect(closed.reason).toMatch(/slow consumer/);
    const seqs = reader.messages.filter(isEvent).map((e) => e.seq);
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs).toEqual(seqs.map((_, i) => snapshot.seq + 1 + i));
    // Conflated quotes are never out of order per symbol.
    const lastTs = new Map<string, number>();
    for (const q of reader.of('quote')) {
      expect(q.ts).toBeGreaterThanOrEqual(lastTs.get(q.symbol) ?? 0);
      lastTs.set(q.symbol, q.ts);
    }

    // The readers never noticed.
    await pushQuote(server, 'BTCUSD', 66000, 66010);
    await Promise.all(readers.map((r) => r.take((m) => m.channel === 'quote' && m.bid === 66000)));
    await Promise.all(readers.map((r) => r.close()));
  }, 120_000);
});
