// Seqlock correctness across real threads, on the compiled board (build first: npx tsc -p tsconfig.json).
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { QuoteBoard, type QuoteCell } from '../../dist/src/market/quote-board.js';

const SYMBOLS = ['EVEN', 'ODD'];
const WRITER = new URL('./fixtures/board-writer.mjs', import.meta.url);
const TWO_POW_32_PLUS_1 = 4294967297;
/** Reads go on until this many value changes were seen (at least MIN_RUN_MS), or MAX_RUN_MS passed on a loaded box. */
const WANTED_CHANGES = 50_000;
const MIN_RUN_MS = 500;
const MAX_RUN_MS = 10_000;

/** Why a read is torn, or null when all its fields encode the same counter. */
function tornReason(cell: QuoteCell): string | null {
  if (cell.bid % TWO_POW_32_PLUS_1 !== 0) return `bid halves differ: ${cell.bid}`;
  if (cell.ask !== cell.bid + 7) return `ask ${cell.ask} is not bid ${cell.bid} + 7`;
  if (cell.ts !== cell.bid / TWO_POW_32_PLUS_1) return `ts ${cell.ts} does not match bid ${cell.bid}`;
  return null;
}

let worker: Worker | null = null;
afterEach(async () => {
  await worker?.terminate();
  worker = null;
});

async function startWriter(): Promise<{ board: QuoteBoard; flags: Int32Array; sab: SharedArrayBuffer }> {
  const control = new SharedArrayBuffer(8);
  const flags = new Int32Array(control);
  worker = new Worker(WRITER, { workerData: { symbols: SYMBOLS, control } });
  const { sab } = await new Promise<{ sab: SharedArrayBuffer }>((resolve, reject) => {
    worker?.once('message', resolve);
    worker?.once('error', reject);
  });
  const board = QuoteBoard.attach(sab, SYMBOLS);
  Atomics.store(flags, 0, 1);
  Atomics.notify(flags, 0);
  return { board, flags, sab };
}

function stopWriter(flags: Int32Array): void {
  Atomics.store(flags, 0, 2);
}

describe('QuoteBoard across threads', () => {
  it('a reader never sees a torn quote while another thread writes in a tight loop', async () => {
    const { board, flags } = await startWriter();
    const cell: QuoteCell = { bid: 0, ask: 0, ts: 0 };
    let reads = 0;
    let changes = 0;
    const lastTs = [-1, -1];
    const torn: string[] = [];
    const startMs = performance.now();
    const running = (): boolean => {
      const elapsedMs = performance.now() - startMs;
      return elapsedMs < MIN_RUN_MS || (changes < WANTED_CHANGES && elapsedMs < MAX_RUN_MS);
    };
    while (running()) {
      for (let k = 0; k < 1000; k++) {
        const slot = k & 1;
        if (!board.readInto(slot, cell)) continue;
        reads++;
        const reason = tornReason(cell);
        if (reason !== null && torn.length < 5) torn.push(reason);
        if ((cell.ts & 1) !== slot && torn.length < 5) torn.push(`slot ${slot} holds counter ${cell.ts}`);
        if (cell.ts !== lastTs[slot]) changes++;
        lastTs[slot] = cell.ts;
      }
    }
    stopWriter(flags);
    const writes = Atomics.load(flags, 1);
    expect(torn).toEqual([]);
    // The test means something only if the two threads really interleaved: the reader saw the
    // writer's values move many times (how many depends on how busy the cores are).
    expect(writes).toBeGreaterThan(100_000);
    expect(reads).toBeGreaterThan(100_000);
    expect(changes).toBeGreaterThan(100);
  });

  it('the same harness does catch torn quotes when the seqlock is bypassed', async () => {
    const { flags, sab } = await startWriter();
    const words = new Int32Array(sab);
    const base = 16; // slot 0 of the documented layout: seq, bid hi/lo, ask hi/lo, ts hi/lo
    const raw = (at: number): number => Atomics.load(words, base + at) * 2 ** 32 + (Atomics.load(words, base + at + 1) >>> 0);
    let torn = 0;
    const deadline = performance.now() + MAX_RUN_MS;
    while (torn === 0 && performance.now() < deadline) {
      for (let k = 0; k < 1000; k++) {
        const cell = { bid: raw(1), ask: raw(3), ts: raw(5) };
        if (cell.ts !== 0 && tornReason(cell) !== null) torn++;
      }
    }
    stopWriter(flags);
    expect(torn).toBeGreaterThan(0);
  });
});
