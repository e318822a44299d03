// Batches ticks per symbol for the fan-out. A tick after a quiet spell is handed on at the end of
// its event-loop turn (setImmediate), so an isolated tick waits for nothing; ticks arriving within
// `windowMs` of the last hand-over wait for the window to end. Under load every symbol's ticks of
// a window then leave together: one frame per symbol and one socket write per subscriber, instead
// of one write per tick per subscriber (a loopback write costs microseconds of kernel time, far
// more than building the frame).
import type { Quote } from '../../engine/types.js';

export type BatchSink = (symbol: string, quotes: readonly Quote[]) => void;

export class TickBatcher {
  private batches = new Map<string, Quote[]>();
  private scheduled = false;
  private lastFlushMs = Number.NEGATIVE_INFINITY;
  private readonly flushNow = (): void => this.flush();

  constructor(private readonly windowMs: number, private readonly sink: BatchSink) {}

  add(quote: Quote): void {
    const batch = this.batches.get(quote.symbol);
    if (batch) batch.push(quote);
    else this.batches.set(quote.symbol, [quote]);
    if (this.scheduled) return;
    this.scheduled = true;
    const waitMs = this.lastFlushMs + this.windowMs - performance.now();
    if (waitMs <= 0) setImmediate(this.flushNow);
    else setTimeout(this.flushNow, waitMs);
  }

  private flush(): void {
    this.scheduled = false;
    this.lastFlushMs = performance.now();
    const batches = this.batches;
    this.batches = new Map();
    for (const [symbol, quotes] of batches) this.sink(symbol, quotes);
  }
}
