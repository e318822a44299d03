// The cost of live position P&L (issue 12) through the real service process: 1,000 open positions
// over 100 accounts on 100 simulated symbols ticking every 10 ms (10k ticks/s in all), and durable
// orders at a fixed 200/s (POST /v1/orders, limit orders that open no position, over the 100
// accounts) measured from each order's intended send time, first with no stream subscriber, then with 10 connections subscribed
// to the positions of 10 accounts (their shards compute live P&L every 100 ms and the main thread
// fans it out), three times over: the goal is the order latency with subscribers within 10% of it
// without. The driver shares the machine's 2 cores with the server (at nice 19, as rest.bench.ts).
// Run on its own: `npx tsc -p tsconfig.json && node dist/bench/live-pnl.bench.js`.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { processCpuMs, startService, type ServiceProcess } from './support/child-process.js';
import { fixedRate, type LoadResult } from './support/http-load.js';
import { perSec, us, type Row } from './support/stats.js';

const ACCOUNTS = 100;
const POSITIONS_PER_ACCOUNT = 10;
const SYMBOLS = Array.from({ length: 100 }, (_, i) => `L${String(i).padStart(3, '0')}`);
const TICK_MS = 10;
const SUBSCRIBERS = 10;
const ORDER_RATE = 200;
/**
 * 8 s per run after 1 s of warm-up: the load driver keeps its idle connections LIFO and does not
 * notice one the server closed after 10 s unused (http-load.ts), so a run stays under that.
 */
const ORDERS = ORDER_RATE * 8;
const ROUNDS = 3;
const CONNECTIONS = 64;
const DRIVER_NICE = 19;
const FIRST_LOGIN = 700_001;

interface Key { readonly id: string; readonly secret: string; readonly login: string }
const keys: Key[] = Array.from({ length: ACCOUNTS }, (_, i) => ({ id: `live-${i}`, secret: `live-secret-${i}-0123456789`, login: String(FIRST_LOGIN + i) }));

function seed(): Record<string, unknown> {
  return {
    symbols: SYMBOLS.map((name) => ({
      name, digits: 2, contract_size: 1, bid: 1000, ask: 1000.5, volatility: 0.2, tick_ms: TICK_MS, max_volume: 10, session: '24x7',
      base_currency: null, quote_currency: 'USD',
    })),
    users: [{ id: 'bench', password: 'bench-password', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' }],
    accounts: keys.map((k) => ({ login: k.login, user: 'bench', type: 'demo', group: 'demo\\ECN', currency: 'USD', balance: 10_000_000, leverage: 100 })),
    keys: keys.map((k) => ({ id: k.id, secret: k.secret, login: k.login, scopes: ['read', 'trade'], rate_limit: 100 })),
    webhooks: [],
  };
}

/**
 * Market orders open the positions; the measured orders are limit buys far below the market: the
 * same durable order path (journal, sync, answer), and the open positions stay at 1,000.
 */
function orderRequest(prefix: string, symbolOf: (i: number) => string, type: 'market' | 'limit'): (i: number) => Buffer {
  return (i) => {
    const key = keys[i % ACCOUNTS]!;
    const terms = type === 'market' ? { side: i % 2 === 0 ? 'buy' : 'sell', type } : { side: 'buy', type, price: 500 };
    const body = JSON.stringify({ login: key.login, symbol: symbolOf(i), ...terms, volume: 0.01, client_id: `${prefix}-${i}` });
    const ts = String(Date.now());
    const sig = createHmac('sha256', key.secret).update(`${ts}POST/v1/orders${body}`).digest('hex');
    return Buffer.from(`POST /v1/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nX-SVC-KEY: ${key.id}\r\nX-SVC-TIMESTAMP: ${ts}\r\nX-SVC-SIGNATURE: ${sig}\r\n`
      + `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
}

/** A stream connection of key `k`, counting the messages that match. */
async function stream(port: number, k: Key, op: Record<string, unknown>, counts: (m: { channel: string; live?: boolean }) => boolean): Promise<{ ws: WebSocket; count: () => number }> {
  const ts = String(Date.now());
  const sig = createHmac('sha256', k.secret).update(`${ts}GET/v1`).digest('hex');
  const ws = new WebSocket(`ws://127.0.0.1:${port}/v1?key=${k.id}&ts=${ts}&sig=${sig}`, { perMessageDeflate: false });
  let n = 0;
  ws.on('message', (data) => { for (const line of String(data).split('\n')) if (counts(JSON.parse(line) as { channel: string })) n++; });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`stream upgrade refused: ${res.statusCode}`)));
  });
  ws.send(JSON.stringify({ id: 1, ...op }));
  return { ws, count: () => n };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const progress = (what: string): void => { process.stderr.write(`live-pnl bench: ${what}\n`); };

function expectAll(r: LoadResult, what: string): void {
  if ((r.statuses.get(200) ?? 0) !== r.completed) throw new Error(`${what}: ${[...r.statuses].map(([s, n]) => `${n}×${s}`).join(' ')}`);
}

export async function benchLivePnl(): Promise<Row[]> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-live-bench-'));
  const driverPriority = os.getPriority();
  let service: ServiceProcess | null = null;
  const sockets: WebSocket[] = [];
  try {
    service = await startService(work, { prices: { source: 'simulated' }, durability: 'sync', log: { level: 'info' } }, seed());
    const port = service.httpPort;
    const pid = service.child.pid!;
    os.setPriority(DRIVER_NICE);
    const setup = await fixedRate({
      port, connections: CONNECTIONS, ratePerSec: 500, warmup: 0, count: ACCOUNTS * POSITIONS_PER_ACCOUNT,
      request: orderRequest('setup', (i) => SYMBOLS[i % SYMBOLS.length]!, 'market'),
    });
    expectAll(setup, 'setup orders');
    progress(`${ACCOUNTS * POSITIONS_PER_ACCOUNT} positions open`);

    // The tick rate the market really produced, seen by one quotes subscriber for 2 s.
    const quotes = await stream(port, keys[ACCOUNTS - 1]!, { op: 'subscribe', channels: ['quotes'], symbols: SYMBOLS }, (m) => m.channel === 'quote');
    await sleep(500);
    const q0 = quotes.count();
    await sleep(2000);
    const ticksPerSec = (quotes.count() - q0) / 2;
    quotes.ws.close();
    progress(`${ticksPerSec} ticks/s`);

    let phase = 0;
    const measure = async (): Promise<{ r: LoadResult; cpuMsPerS: number }> => {
      const cpu0 = processCpuMs(pid);
      const t0 = Date.now();
      const r = await fixedRate({ port, connections: CONNECTIONS, ratePerSec: ORDER_RATE, warmup: ORDER_RATE, count: ORDERS, request: orderRequest(`p${phase++}`, (i) => SYMBOLS[(i * 7) % SYMBOLS.length]!, 'limit') });
      expectAll(r, 'orders');
      progress(`phase ${phase} measured`);
      return { r, cpuMsPerS: (processCpuMs(pid) - cpu0) / ((Date.now() - t0) / 1000) };
    };
    const subscribe = async (): Promise<() => number> => {
      const live = await Promise.all(keys.slice(0, SUBSCRIBERS).map((k) => stream(port, k, { op: 'subscribe', channels: ['positions'] }, (m) => m.channel === 'position' && m.live === true)));
      for (const s of live) sockets.push(s.ws);
      return () => live.reduce((n, s) => n + s.count(), 0);
    };
    const unsubscribe = async (): Promise<void> => {
      for (const ws of sockets.splice(0)) ws.close();
      await sleep(500);
    };

    const runs: { name: string; r: LoadResult; cpuMsPerS: number; livePerSec: number | null }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      runs.push({ name: `orders, no subscribers (${round})`, ...(await measure()), livePerSec: null });
      const liveCount = await subscribe();
      progress('subscribed');
      const l0 = liveCount();
      const t0 = Date.now();
      const m = await measure();
      runs.push({ name: `orders, ${SUBSCRIBERS} positions subscribers (${round})`, ...m, livePerSec: (liveCount() - l0) / ((Date.now() - t0) / 1000) });
      await unsubscribe();
    }
    const p99 = (r: LoadResult): number => r.latencyUs.getValueAtPercentile(99);
    const p50 = (r: LoadResult): number => r.latencyUs.getValueAtPercentile(50);
    const avg = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    const without = runs.filter((x) => x.livePerSec === null);
    const withSubs = runs.filter((x) => x.livePerSec !== null);
    const ratio50 = avg(withSubs.map((x) => p50(x.r))) / avg(without.map((x) => p50(x.r)));
    const ratio99 = avg(withSubs.map((x) => p99(x.r))) / avg(without.map((x) => p99(x.r)));
    return [
      ...runs.map((x) => ({
        name: `POST /v1/orders limit @ ${ORDER_RATE}/s, ${x.name}`, median: us(p50(x.r)), p99: us(p99(x.r)), throughput: perSec(x.r.completed / (x.r.elapsedMs / 1000)),
        note: `${ACCOUNTS * POSITIONS_PER_ACCOUNT} open positions, ${perSec(ticksPerSec)} ticks; server ${x.cpuMsPerS.toFixed(0)} ms CPU/s`
          + (x.livePerSec === null ? '' : `; ${perSec(x.livePerSec)} live P&L messages received`),
      })),
      { name: 'with / without subscribers', median: `${(ratio50 * 100).toFixed(0)}%`, p99: `${(ratio99 * 100).toFixed(0)}%`, note: 'goal <= 110%' },
    ];
  } finally {
    for (const ws of sockets) ws.close();
    os.setPriority(driverPriority);
    await service?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.table(await benchLivePnl());
