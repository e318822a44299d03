// Engine throughput in one thread: market fill → close cycles across many accounts, ticks over a
// large book that trigger nothing, and ticks that fill pending orders. Every figure is per engine
// operation (one fill cycle, one tick, one triggered fill) and is compared with the cheapest
// command measured in the same run (a tick on a symbol with an empty book).
// Run on its own: `npx tsc -p tsconfig.json && node dist/bench/engine.bench.js`.
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { Engine } from '../src/engine/engine.js';
import type { AccountRecord, Command, EngineInit, SymbolSpec } from '../src/engine/types.js';

export interface EngineBenchRow {
  readonly name: string;
  /** Per operation, e.g. "0.412 µs". */
  readonly median: string;
  readonly p99: string;
  /** Operations per second at the median. */
  readonly opsPerSec: number;
  /** Deals (fills, opening or closing) per second at the median; 0 for rows that fill nothing. */
  readonly fillsPerSec: number;
  /** Median cost relative to the baseline row. */
  readonly vsBaseline: string;
}

const DAY_MS = 86_400_000;
const START_MS = Date.UTC(2024, 0, 10, 12);
/** Simulated time per fill cycle (every symbol trades 24x7, so only client-id expiry reads it). */
const CYCLE_MS = 1000;
const ACCOUNTS = 10_000;
/** Few accounts that stay in the CPU caches: the contrast shows what memory traffic costs. */
const HOT_ACCOUNTS = 100;
const FILL_BATCH = 200;
const BOOK_ORDERS = 10_000;
const BOOK_POSITIONS = 10_000;
const TRIGGER_BATCH = 100;

const EURUSD: SymbolSpec = { name: 'EURUSD', digits: 5, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'EUR', quoteCurrency: 'USD', session: '24x7' };
const USDJPY: SymbolSpec = { name: 'USDJPY', digits: 3, contractSize: 100_000, maxVolume: 10_000, baseCurrency: 'USD', quoteCurrency: 'JPY', session: '24x7' };

function accounts(count: number): AccountRecord[] {
  return Array.from({ length: count }, (_, i) => ({
    login: String(100_000 + i), user: `u${i}`, type: 'demo' as const, group: 'demo', currency: 'USD', leverage: 100,
    server: 'Demo-1', balance: 100_000_000_00, margin: 0, seq: 0, accountHalted: false, userHalted: false,
  }));
}

function freshEngine(accountCount: number): Engine {
  const init: EngineInit = {
    shardId: 0, idCounter: 0, symbols: [EURUSD, USDJPY], accounts: accounts(accountCount), pendingOrders: [], positions: [],
    clientIds: [], haltedKeys: [], clientIdRetentionMs: DAY_MS,
    quotes: [{ symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: START_MS }, { symbol: 'USDJPY', bid: 150_000, ask: 150_020, ts: START_MS }],
  };
  return new Engine(init);
}

function mustSucceed(engine: Engine, cmd: Command, nowMs: number): number | null {
  const o = engine.apply(cmd, nowMs);
  if (!o.result.ok) throw new Error(`bench command rejected: ${o.result.name} ${o.result.message}`);
  return o.result.kind === 'place' ? o.result.position?.ticket ?? null : null;
}

/** Market buy → close on account after account, as a REST or FIX client would. */
function fillCycles(accountCount: number): () => void {
  const engine = freshEngine(accountCount);
  const logins = accounts(accountCount).map((a) => a.login);
  let nowMs = START_MS;
  let next = 0;
  return () => {
    for (let i = 0; i < FILL_BATCH; i++) {
      const login = logins[next] ?? '';
      next = (next + 1) % accountCount;
      nowMs += CYCLE_MS;
      const ticket = mustSucceed(engine, {
        kind: 'place', login, symbol: 'EURUSD', side: i % 2 === 0 ? 'buy' : 'sell', type: 'market', volume: 10, sizing: null,
        price: null, sl: null, tp: null, clientId: null, source: 'api', keyId: 'k', webhookId: null,
      }, nowMs) ?? 0;
      mustSucceed(engine, { kind: 'close', login, ticket, volume: null, source: 'api', keyId: 'k' }, nowMs);
    }
  };
}

/** Quiet ticks (nothing triggers) on a symbol carrying `orders` pending orders and `positions` with SL/TP. */
function quietTicks(orders: number, positions: number): () => void {
  const engine = freshEngine(ACCOUNTS);
  let n = 0;
  for (let i = 0; i < orders; i++) {
    const login = String(100_000 + (i % ACCOUNTS));
    mustSucceed(engine, {
      kind: 'place', login, symbol: 'EURUSD', side: i % 2 === 0 ? 'buy' : 'sell', type: 'limit', volume: 10, sizing: null,
      price: i % 2 === 0 ? 100_000 - i : 117_000 + i, sl: null, tp: null, clientId: null, source: 'api', keyId: 'k', webhookId: null,
    }, START_MS);
  }
  for (let i = 0; i < positions; i++) {
    const login = String(100_000 + (i % ACCOUNTS));
    const buy = i % 2 === 0;
    mustSucceed(engine, {
      kind: 'place', login, symbol: 'EURUSD', side: buy ? 'buy' : 'sell', type: 'market', volume: 10, sizing: null, price: null,
      sl: buy ? 98_000 - i : 119_000 + i, tp: buy ? 119_000 + i : 98_000 - i, clientId: null, source: 'api', keyId: 'k', webhookId: null,
    }, START_MS);
  }
  return () => {
    for (let i = 0; i < FILL_BATCH; i++) {
      n += 1;
      const bid = 108_500 + (n % 50);
      engine.apply({ kind: 'tick', quote: { symbol: 'EURUSD', bid, ask: bid + 10, ts: START_MS + n } }, START_MS + n);
    }
  };
}

/** TRIGGER_BATCH buy limits placed just under the ask, one tick fills them all; then closed again. */
function triggeredFills(): () => void {
  const engine = freshEngine(ACCOUNTS);
  let nowMs = START_MS;
  let next = 0;
  return () => {
    nowMs += CYCLE_MS;
    for (let i = 0; i < TRIGGER_BATCH; i++) {
      const login = String(100_000 + next);
      next = (next + 1) % ACCOUNTS;
      mustSucceed(engine, {
        kind: 'place', login, symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 10, sizing: null, price: 108_505,
        sl: null, tp: null, clientId: null, source: 'api', keyId: 'k', webhookId: null,
      }, nowMs);
    }
    const fills = engine.apply({ kind: 'tick', quote: { symbol: 'EURUSD', bid: 108_490, ask: 108_500, ts: nowMs } }, nowMs);
    for (const ev of fills.events) {
      if (ev.type === 'position') mustSucceed(engine, { kind: 'close', login: ev.position.login, ticket: ev.position.ticket, volume: null, source: 'api', keyId: 'k' }, nowMs);
    }
    engine.apply({ kind: 'tick', quote: { symbol: 'EURUSD', bid: 108_500, ask: 108_510, ts: nowMs } }, nowMs);
  };
}

function formatUs(ms: number): string {
  return `${(ms * 1000).toFixed(3)} µs`;
}

export async function benchEngine(): Promise<EngineBenchRow[]> {
  const bench = new Bench({ name: 'engine', time: 1500, warmupTime: 300 });
  // fills: deals per operation (a cycle opens and closes a position: two fills).
  const tasks: { name: string; perCall: number; fills: number; fn: () => void }[] = [
    { name: 'baseline: quiet tick, empty book', perCall: FILL_BATCH, fills: 0, fn: quietTicks(0, 0) },
    { name: `fill cycle (market fill + close), ${ACCOUNTS} accounts`, perCall: FILL_BATCH, fills: 2, fn: fillCycles(ACCOUNTS) },
    { name: `fill cycle (market fill + close), ${HOT_ACCOUNTS} accounts`, perCall: FILL_BATCH, fills: 2, fn: fillCycles(HOT_ACCOUNTS) },
    { name: `quiet tick, ${BOOK_ORDERS} pending + ${BOOK_POSITIONS} SL/TP positions`, perCall: FILL_BATCH, fills: 0, fn: quietTicks(BOOK_ORDERS, BOOK_POSITIONS) },
    { name: `triggered fill (limit placed, filled by tick, closed), ${TRIGGER_BATCH} per tick`, perCall: TRIGGER_BATCH, fills: 2, fn: triggeredFills() },
  ];
  for (const t of tasks) bench.add(t.name, t.fn);
  await bench.run();
  const rows = tasks.map((t, i) => {
    const result = bench.tasks[i]?.result;
    if (result === undefined || !('latency' in result)) throw new Error(`bench task ${t.name} did not complete`);
    const median = result.latency.p50 / t.perCall;
    return { name: t.name, medianMs: median, p99Ms: result.latency.p99 / t.perCall, fills: t.fills };
  });
  const baseline = rows[0]?.medianMs ?? 1;
  return rows.map((r) => ({
    name: r.name, median: formatUs(r.medianMs), p99: formatUs(r.p99Ms), opsPerSec: Math.round(1000 / r.medianMs),
    fillsPerSec: Math.round((1000 / r.medianMs) * r.fills),
    vsBaseline: `${(r.medianMs / baseline).toFixed(1)}x`,
  }));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await benchEngine());
}
