// Batches ticks per symbol for the fan-out: the ticks of one event-loop turn are handed on together
// at its end (setImmediate). An isolated tick waits for nothing; under load the turns grow, and
// with them the batches: one frame per symbol and one socket write per subscriber for all the
// ticks of a turn, instead of one write per tick per subscriber (a loopback write costs
// microseconds of kernel time, far more than building the frame). Measured in
// bench/stream.bench.ts: a fixed extra window (1-2 ms) bought no throughput there, only latency.
import type { Quote } from '../../engine/types.js';

export type BatchSink = (symbol: string, quotes: readonly Quote[]) => void;

export class TickBatcher {
  private batches = new Map<string, Quote[]>();
  private scheduled = false;
  private readonly flushNow = (): void => this.flush();

  constructor(private readonly sink: BatchSink) {}

  add(quote: Quote): void {
    const batch = this.batches.get(quote.symbol);
    if (batch) batch.push(quote);
    else this.batches.set(quote.symbol, [quote]);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.flushNow);
  }

  private flush(): void {
    this.scheduled = false;
    const batches = this.batches;
    this.batches = new Map();
    for (const [symbol, quotes] of batches) this.sink(symbol, quotes);
  }
}
