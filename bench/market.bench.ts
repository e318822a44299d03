// Market micro-benchmarks: quote board write/read (seqlock) and the decimal ↔ ticks conversions,
// each beside a baseline measured in the same run. Figures are per operation (each tinybench
// sample times a batch of BATCH operations). Run: npx tsc -p tsconfig.json && node dist/bench/market.bench.js
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { QuoteBoard, type QuoteCell } from '../src/market/quote-board.js';
import { parseTicks, toTicks } from '../src/market/ticks.js';

export interface BenchRow { readonly name: string; readonly median: number; readonly p99: number; readonly opsPerSec: number }

const BATCH = 1000;
const SYMBOLS = Array.from({ length: 64 }, (_, i) => `SYM${i}`);
/** Sink for results so the JIT cannot drop the work. */
let blackhole = 0;

/** A thread rewriting slot 0 in a loop, to measure reads that contend with the writer. */
async function startContendingWriter(): Promise<{ board: QuoteBoard; stop: () => Promise<void> }> {
  const boardUrl = new URL('../src/market/quote-board.js', import.meta.url).href;
  const control = new SharedArrayBuffer(4);
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.boardUrl).then(({ QuoteBoard }) => {
      const flag = new Int32Array(workerData.control);
      const board = QuoteBoard.create(workerData.symbols);
      parentPort.postMessage(board.sab);
      let n = 1;
      while (Atomics.load(flag, 0) === 0) { board.writeAt(0, 100000 + (n & 1023), 100010 + (n & 1023), n); n++; }
    });`;
  const worker = new Worker(code, { eval: true, workerData: { boardUrl, control, symbols: SYMBOLS } });
  const sab = await new Promise<SharedArrayBuffer>((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  return {
    board: QuoteBoard.attach(sab, SYMBOLS),
    stop: async () => { Atomics.store(new Int32Array(control), 0, 1); await worker.terminate(); },
  };
}

export async function benchMarket(): Promise<BenchRow[]> {
  const board = QuoteBoard.create(SYMBOLS);
  for (let i = 0; i < SYMBOLS.length; i++) board.writeAt(i, 108500 + i, 108510 + i, 1_700_000_000_000);
  const plain = new Float64Array(SYMBOLS.length * 8);
  const cell: QuoteCell = { bid: 0, ask: 0, ts: 0 };
  const prices = Array.from({ length: BATCH }, (_, i) => (108000 + i * 7) / 1e5);
  const priceTexts = prices.map((p) => p.toFixed(5));
  let ts = 1_700_000_000_000;

  const bench = new Bench({ time: 400, warmupTime: 100 });
  bench
    .add('board.writeAt (seqlock)', () => {
      for (let i = 0; i < BATCH; i++) board.writeAt(i & 63, 108500 + i, 108510 + i, ts++);
    })
    .add('baseline: plain Float64Array write, no seqlock', () => {
      for (let i = 0; i < BATCH; i++) {
        const at = (i & 63) * 8;
        plain[at] = 108500 + i;
        plain[at + 1] = 108510 + i;
        plain[at + 2] = ts++;
      }
    })
    .add('board.readInto (seqlock)', () => {
      for (let i = 0; i < BATCH; i++) if (board.readInto(i & 63, cell)) blackhole += cell.bid;
    })
    .add('baseline: plain Float64Array read, no seqlock', () => {
      for (let i = 0; i < BATCH; i++) {
        const at = (i & 63) * 8;
        cell.bid = plain[at] ?? 0;
        cell.ask = plain[at + 1] ?? 0;
        cell.ts = plain[at + 2] ?? 0;
        blackhole += cell.bid;
      }
    })
    .add('board.read(symbol) → Quote', () => {
      for (let i = 0; i < BATCH; i++) blackhole += board.read(SYMBOLS[i & 63] ?? '')?.bid ?? 0;
    })
    .add('toTicks(price, 5)', () => {
      for (let i = 0; i < BATCH; i++) blackhole += toTicks(prices[i] ?? 0, 5) ?? 0;
    })
    .add('baseline: Math.round(price * 1e5) (no exactness check)', () => {
      for (let i = 0; i < BATCH; i++) blackhole += Math.round((prices[i] ?? 0) * 1e5);
    })
    .add('baseline: toFixed string round trip', () => {
      for (let i = 0; i < BATCH; i++) {
        const p = prices[i] ?? 0;
        blackhole += Number(p.toFixed(5)) === p ? Math.round(p * 1e5) : 0;
      }
    })
    .add('parseTicks(text, 5) (replay CSV)', () => {
      for (let i = 0; i < BATCH; i++) blackhole += parseTicks(priceTexts[i] ?? '', 5) ?? 0;
    });

  await bench.run();

  // Separate run: the writer thread takes a core, which would skew every other row.
  const contended = await startContendingWriter();
  const contention = new Bench({ time: 400, warmupTime: 100 });
  contention.add('board.readInto, another thread rewriting the slot', () => {
    for (let i = 0; i < BATCH; i++) if (contended.board.readInto(0, cell)) blackhole += cell.bid;
  });
  try {
    await contention.run();
  } finally {
    await contended.stop();
  }
  return [...bench.tasks, ...contention.tasks].map((task) => {
    const r = task.result;
    if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state === 'errored' ? r.error.message : r.state}`);
    const nsPerOp = (ms: number): number => (ms * 1e6) / BATCH;
    return { name: task.name, median: nsPerOp(r.latency.p50), p99: nsPerOp(r.latency.p99), opsPerSec: r.throughput.mean * BATCH };
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await benchMarket();
  console.table(rows.map((r) => ({ name: r.name, 'median ns/op': r.median.toFixed(1), 'p99 ns/op': r.p99.toFixed(1), 'ops/s': Math.round(r.opsPerSec).toLocaleString('en') })));
  if (blackhole === Number.MIN_VALUE) console.log(blackhole);
}
