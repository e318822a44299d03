// Ticks from the main thread's market to the FIX thread, for W streaming "on every tick": one more
// SPSC ring into the FIX thread, created with its doorbell so the same Inbox wakes it for shard
// replies and ticks alike. Why a ring and not polling board.version(): a poll interval P costs P/2
// of latency on average and a wake-up every P even when nothing ticks, while the ring wakes the
// thread only for a tick, microseconds after it (bench/fix-roundtrip.bench.ts measures tick → W).
// A full ring holds the latest quote per symbol back (quotes only matter as the latest one) and
// retries on the next tick or shortly after.
import { ConflatingWriter, FrameReader, FrameWriter, createRing, type RingChannel } from '../ring/index.js';
import type { Quote } from '../engine/types.js';

export const TICK_RING_BYTES = 1 << 18;
const RETRY_MS = 1;
const MAX_DRAIN_FRAMES = 1024;

/** Main-thread side. */
export class TickForwarder {
  readonly channel: RingChannel;
  private readonly writer: ConflatingWriter<string, Quote>;
  private retry: NodeJS.Timeout | null = null;

  constructor(fixDoorbell: SharedArrayBuffer) {
    this.channel = createRing(TICK_RING_BYTES, fixDoorbell);
    const frames = new FrameWriter<Quote>(this.channel);
    this.writer = new ConflatingWriter((quote) => frames.tryWrite(quote));
  }

  forward(quote: Quote): void {
    this.writer.offer(quote.symbol, quote);
    this.retryHeld();
  }

  close(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    this.writer.clear();
  }

  private retryHeld(): void {
    if (!this.writer.holding || this.retry !== null) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.writer.flush();
      this.retryHeld();
    }, RETRY_MS);
  }
}

/** FIX-thread side. */
export class TickReceiver {
  private readonly reader: FrameReader<Quote>;

  constructor(channel: RingChannel) {
    this.reader = new FrameReader<Quote>(channel);
  }

  drain(onQuote: (quote: Quote) => void): number {
    return this.reader.drain(MAX_DRAIN_FRAMES, onQuote);
  }
}
