// `make soak`: the real service under a steady mixed load at the documented limits for a long
// while (SOAK_MINUTES, default 30), loopback only, with its memory sampled every SOAK_SAMPLE_S
// seconds (default 10). The load keeps the number of open positions steady, so memory that keeps
// growing after the warm-up is memory kept per request, not state. It prints a table, a plot of
// the anonymous resident memory over time (the resident size also counts the LMDB pages mapped
// from the data files, which grow with the data kept, by design), and the growth after warm-up
// against the goal (< 5%). Each thread's JavaScript heap (main, FIX, every shard: used, and held
// from the system) is sampled too, so a growth of the process can be told apart by thread; what
// no heap shows (malloc arenas, native libraries' buffers) is the anonymous memory beyond them.
//
// The load, all through the SDK's real clients:
//   - 50 accounts, each trading 4 calls/s (under the 10/s trade limit): a market order, then the
//     close of its oldest position, so each keeps about 2 positions open;
//   - reads at 5/s per key: GET /v1/positions, /v1/accounts, /v1/orders;
//   - 20 stream connections subscribing quotes, orders and positions, each closed and reopened
//     every 5 s (connection churn);
//   - a webhook with 10 targets: buy, then close_all, every 2.5 s (4 per 10 s, under the limit of 5).
//
// Run: `make soak`, or `SOAK_MINUTES=2 node dist/bench/soak.js` for a short look.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RestClient, StreamClient } from '../src/client/index.js';
import { startService, type ServiceProcess } from './support/child-process.js';

const MINUTES = Number(process.env['SOAK_MINUTES'] ?? 30);
const SAMPLE_S = Number(process.env['SOAK_SAMPLE_S'] ?? 10);
/** Memory settles (JIT, caches, LMDB maps, GC heuristics) before growth counts. */
const WARMUP_FRACTION = 0.2;
const GOAL_GROWTH = 0.05;
const TRADERS = 50;
const TRADE_PAIRS_PER_S = 2;
const READS_PER_S = 5;
const STREAMS = 20;
const STREAM_LIFE_MS = 5000;
const SIGNAL_EVERY_MS = 2500;
const TARGETS = 10;
const FIRST_LOGIN = 600_001;

interface Key { readonly id: string; readonly secret: string; readonly login: string }
const keys: Key[] = Array.from({ length: TRADERS }, (_, i) => ({ id: `soak-${i}`, secret: `soak-secret-${i}-0123456789`, login: String(FIRST_LOGIN + i) }));
const WEBHOOK = { id: 'soak-hook', secret: 'soak-hook-secret-0123456789' };

function seed(): Record<string, unknown> {
  return {
    symbols: [{ name: 'BTCUSD', digits: 2, contract_size: 1, bid: 65000, ask: 65010, volatility: 5, tick_ms: 100, max_volume: 10, session: '24x7' }],
    users: [{ id: 'soak', password: 'soak-password', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' }],
    accounts: keys.map((k) => ({ login: k.login, user: 'soak', type: 'demo', group: 'demo\\standard', currency: 'USD', balance: 1_000_000, leverage: 100 })),
    keys: keys.map((k) => ({ id: k.id, secret: k.secret, login: k.login, scopes: ['read', 'trade'], rate_limit: 20 })),
    webhooks: [{ id: WEBHOOK.id, user: 'soak', secret: WEBHOOK.secret, symbols: ['BTCUSD'], targets: keys.slice(0, TARGETS).map((k) => ({ login: k.login, sizing: { type: 'fixed', lots: 0.01 } })) }],
  };
}

interface ThreadHeap { readonly usedMb: number; readonly totalMb: number }

interface Sample {
  readonly atS: number;
  /** Resident memory not backed by files: what the process keeps (the LMDB pages it maps grow with the data). */
  readonly anonMb: number;
  readonly rssMb: number;
  /** By thread name (main, fix, shard-0, …). */
  readonly heaps: Readonly<Record<string, ThreadHeap>>;
  readonly positions: number;
  readonly orders: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs `tick` every `everyMs` until `until()` says stop; one tick at a time. */
async function every(everyMs: number, until: () => boolean, tick: () => Promise<void>): Promise<void> {
  while (!until()) {
    const t0 = Date.now();
    await tick().catch(() => undefined);
    await sleep(Math.max(0, everyMs - (Date.now() - t0)));
  }
}

interface Scrape {
  /** The first sample of the metric (NaN when absent). */
  value(name: string): number;
  /** The metric's samples by the value of `label`. */
  by(name: string, label: string): Map<string, number>;
}

async function scrape(service: ServiceProcess, token: string): Promise<Scrape> {
  const res = await fetch(`http://127.0.0.1:${service.consolePort}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const lines = (await res.text()).split('\n');
  const valueOf = (line: string): number => Number(line.slice(line.lastIndexOf(' ') + 1));
  return {
    value(name) {
      const line = lines.find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
      return line === undefined ? Number.NaN : valueOf(line);
    },
    by(name, label) {
      const found = new Map<string, number>();
      for (const l of lines) {
        const m = new RegExp(`^${name}\\{.*\\b${label}="([^"]*)"`).exec(l);
        if (m !== null) found.set(m[1]!, valueOf(l));
      }
      return found;
    },
  };
}

function heapsOf(m: Scrape): Record<string, ThreadHeap> {
  const total = m.by('tas_thread_heap_total_bytes', 'thread');
  return Object.fromEntries([...m.by('tas_thread_heap_used_bytes', 'thread')].map(([thread, used]) =>
    [thread, { usedMb: used / 2 ** 20, totalMb: (total.get(thread) ?? Number.NaN) / 2 ** 20 }]));
}

function plot(samples: readonly Sample[]): string {
  const width = 60;
  const height = 12;
  const values = samples.map((s) => s.anonMb);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const rows: string[][] = Array.from({ length: height }, () => Array<string>(width).fill(' '));
  samples.forEach((s, i) => {
    const x = Math.round((i / Math.max(1, samples.length - 1)) * (width - 1));
    const y = hi === lo ? 0 : Math.round(((s.anonMb - lo) / (hi - lo)) * (height - 1));
    rows[height - 1 - y]![x] = '*';
  });
  const label = (v: number): string => `${v.toFixed(0).padStart(5)} MB |`;
  return rows.map((r, i) => `${i === 0 ? label(hi) : i === height - 1 ? label(lo) : '         |'}${r.join('')}`).join('\n')
    + `\n         +${'-'.repeat(width)}\n          0 s${' '.repeat(width - 12)}${samples.at(-1)?.atS ?? 0} s`;
}

export async function soak(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tas-soak-'));
  const token = 'soak-admin-token-0123456789';
  const service = await startService(work, { console: { port: 0, admin_token: token }, prices: { source: 'simulated', seed: 7, file: null, speed: 1 } }, seed());
  const endAt = Date.now() + MINUTES * 60_000;
  const done = (): boolean => Date.now() >= endAt;
  const base = `http://127.0.0.1:${service.httpPort}/v1`;
  const samples: Sample[] = [];
  try {
    const traders = keys.map((k) => ({ key: k, rest: new RestClient({ baseUrl: base, keyId: k.id, secret: k.secret }), opened: [] as number[] }));
    let n = 0;
    const trading = traders.map((t) => every(1000 / TRADE_PAIRS_PER_S, done, async () => {
      const order = await t.rest.placeOrder({ login: t.key.login, symbol: 'BTCUSD', side: n++ % 2 === 0 ? 'buy' : 'sell', type: 'market', volume: 0.01, client_id: `s-${t.key.id}-${n}` });
      if (order.ticket !== null) t.opened.push(order.ticket);
      if (t.opened.length > 2) await t.rest.closePosition(t.opened.shift()!);
    }));
    const reading = traders.map((t, i) => every(1000 / READS_PER_S, done, async () => {
      const which = (n + i) % 3;
      if (which === 0) await t.rest.positions();
      else if (which === 1) await t.rest.accounts();
      else await t.rest.listOrders({ limit: 20 });
    }));
    const streaming = Array.from({ length: STREAMS }, (_, i) => every(STREAM_LIFE_MS, done, async () => {
      const k = keys[i % keys.length]!;
      const stream = new StreamClient({ url: base.replace('http', 'ws'), keyId: k.id, secret: k.secret });
      await stream.connect();
      await stream.subscribe({ channels: ['quotes', 'orders', 'positions'], symbols: ['BTCUSD'], login: k.login });
      await sleep(STREAM_LIFE_MS - 100);
      stream.close();
    }));
    let buy = true;
    const signalling = every(SIGNAL_EVERY_MS, done, async () => {
      const body = buy ? { secret: WEBHOOK.secret, action: 'buy', symbol: 'BTCUSD' } : { secret: WEBHOOK.secret, action: 'close_all', symbol: 'BTCUSD' };
      buy = !buy;
      await fetch(`${base}/signal/${WEBHOOK.id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    });
    const startedAt = Date.now();
    const sampling = every(SAMPLE_S * 1000, done, async () => {
      const positions = (await Promise.all(traders.map((t) => t.rest.positions()))).reduce((sum, p) => sum + p.data.length, 0);
      const m = await scrape(service, token);
      samples.push({
        atS: Math.round((Date.now() - startedAt) / 1000),
        anonMb: m.value('tas_process_anon_resident_bytes') / 2 ** 20,
        rssMb: m.value('tas_process_resident_bytes') / 2 ** 20,
        heaps: heapsOf(m),
        positions,
        orders: m.value('tas_orders_total'),
      });
      const s = samples.at(-1)!;
      const heaps = Object.entries(s.heaps).map(([thread, h]) => `${thread} ${h.usedMb.toFixed(1)}/${h.totalMb.toFixed(1)}`).join('  ');
      console.log(`${String(s.atS).padStart(5)} s  anon ${s.anonMb.toFixed(1)} MB  rss ${s.rssMb.toFixed(1)} MB  heap used/total MB: ${heaps}  open positions ${s.positions}`);
    });
    await Promise.all([...trading, ...reading, ...streaming, signalling, sampling]);
  } finally {
    await service.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  const settled = samples.slice(Math.floor(samples.length * WARMUP_FRACTION));
  const first = settled[0];
  const last = settled.at(-1);
  const threads = Object.keys(samples[0]?.heaps ?? {});
  console.table(samples.map((s) => ({
    's': s.atS, 'anon resident MB': s.anonMb.toFixed(1), 'resident MB': s.rssMb.toFixed(1),
    ...Object.fromEntries(threads.map((t) => [`${t} heap MB`, `${s.heaps[t]?.usedMb.toFixed(1)}/${s.heaps[t]?.totalMb.toFixed(1)}`])),
    'open positions': s.positions, 'order events': s.orders,
  })));
  console.log('(heap MB: used/held from the system, per thread)');
  console.log(plot(samples));
  if (first === undefined || last === undefined) return;
  // The heap of a collected runtime saws up and down: compare the averages of the first and last fifths.
  const fifth = Math.max(1, Math.floor(settled.length / 5));
  const mean = (xs: readonly Sample[], f: (s: Sample) => number): number => xs.reduce((sum, s) => sum + f(s), 0) / xs.length;
  const growth = (f: (s: Sample) => number): number => mean(settled.slice(-fifth), f) / mean(settled.slice(0, fifth), f) - 1;
  const pct = (x: number): string => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  for (const t of threads) {
    const used = (s: Sample): number => s.heaps[t]?.usedMb ?? Number.NaN;
    const held = (s: Sample): number => s.heaps[t]?.totalMb ?? Number.NaN;
    console.log(`  ${t.padEnd(8)} heap used ${mean(settled.slice(0, fifth), used).toFixed(1)} → ${mean(settled.slice(-fifth), used).toFixed(1)} MB (${pct(growth(used))}), `
      + `held ${mean(settled.slice(0, fifth), held).toFixed(1)} → ${mean(settled.slice(-fifth), held).toFixed(1)} MB (${pct(growth(held))})`);
  }
  const heldMb = (s: Sample): number => Object.values(s.heaps).reduce((sum, h) => sum + h.totalMb, 0);
  console.log(`  beyond the heaps (anonymous resident − every heap held): ${mean(settled.slice(0, fifth), (s) => s.anonMb - heldMb(s)).toFixed(1)} → `
    + `${mean(settled.slice(-fifth), (s) => s.anonMb - heldMb(s)).toFixed(1)} MB`);
  const anonGrowth = growth((s) => s.anonMb);
  const heapGrowth = growth((s) => s.heaps['main']?.usedMb ?? Number.NaN);
  console.log(`after warm-up (${first.atS} s → ${last.atS} s): anonymous resident ${(anonGrowth * 100).toFixed(1)}%, main heap ${(heapGrowth * 100).toFixed(1)}%, `
    + `resident with the mapped data ${((growth((s) => s.rssMb)) * 100).toFixed(1)}% `
    + `(goal < ${GOAL_GROWTH * 100}% anonymous and heap: ${anonGrowth < GOAL_GROWTH && heapGrowth < GOAL_GROWTH ? 'met' : 'MISSED'}); open positions ${first.positions} → ${last.positions}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await soak();
