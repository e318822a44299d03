// Wake-ups for ring consumers whose event loop must stay free (shard workers commit LMDB
// asynchronously and run timers; the main thread serves sockets): no blocking Atomics.wait.
// A consumer drains its rings while they have frames and, when all are empty, awaits
// Inbox.whenReadable(): it polls the rings for a few microseconds (a burst's next frame or a
// ping-pong reply usually lands by then, and parking costs a notify plus an event-loop wake-up),
// then parks with Atomics.waitAsync on the doorbell all its rings share. Producers pay one
// Atomics.load per frame and call Atomics.notify only when the consumer announced it is asleep.
//
// The spin adapts. It pays only while the producer runs on another core; on a box with more
// busy threads than cores (2 cores: main, 2 shards, FIX) the spinner keeps the core its producer
// waits for, and a fixed 20 µs spin made a loaded ping-pong hop 28 µs where parking at once took
// 8 µs. So every spin that ends in a park halves the budget, one that finds a frame restores it,
// and every 16th idle turn probes with the full budget, so a budget that fell to zero comes back
// once spinning pays again. An idle consumer thus stops spinning too.
// The handshake and its memory ordering are in layout.ts; bench/ring.bench.ts compares it with
// spin-then-yield polling.
import { BELL_ASLEEP, BELL_ID, BELL_PARKS, BELL_SEQ, HEAD, TAIL, doorbellView, openRing, type RingChannel } from './layout.js';

/** Producer side, after publishing a frame: ring the bell if (and only if) its consumer sleeps. */
export function wakeConsumer(bell: Int32Array): void {
  // The CAS lets one of several producers ring; the others see asleep=0 and skip the notify.
  if (Atomics.load(bell, BELL_ASLEEP) !== 0 && Atomics.compareExchange(bell, BELL_ASLEEP, 1, 0) === 1) {
    Atomics.add(bell, BELL_SEQ, 1);
    Atomics.notify(bell, BELL_SEQ);
  }
}

export interface DoorbellState {
  /** The consumer announced it is going to sleep and no producer has rung since. */
  readonly asleep: boolean;
  /** Times the consumer actually parked in Atomics.waitAsync. */
  readonly parks: number;
  /** Times a producer (or close()) rang the bell. */
  readonly rings: number;
}

export function doorbellState(doorbell: SharedArrayBuffer): DoorbellState {
  const bell = doorbellView(doorbell);
  return {
    asleep: Atomics.load(bell, BELL_ASLEEP) === 1,
    parks: Atomics.load(bell, BELL_PARKS),
    rings: Atomics.load(bell, BELL_SEQ),
  };
}

export interface InboxOptions {
  /** Longest whenReadable() polls the rings before parking (0..1000; 0: park at once). Default 20 µs. */
  readonly spinMicros?: number;
}

// On an idle 2-core box a ping-pong reply lands within it (bench: one-way hop p50 1.5 µs with
// it, 51 µs parking at once: waking a thread whose vCPU went idle is slow).
const DEFAULT_SPIN_MICROS = 20;
const PROBE_EVERY_IDLE_TURNS = 16;
// Below this a spin is not worth starting.
const MIN_SPIN_MS = 0.001;
// Reading the clock costs about as much as polling two rings, so it is read every few polls.
const POLLS_PER_CLOCK_READ = 16;

/** The sleeping side of one consuming thread: waits until any of its input rings has a frame. */
export class Inbox {
  readonly #bell: Int32Array;
  readonly #controls: readonly Int32Array[];
  readonly #maxSpinMs: number;
  #spinMs: number;
  #idleTurns = 0;
  // A pending Atomics.waitAsync does not keep a Node event loop alive (a worker whose only work
  // is waiting would exit), so a ref'd timer holds it open while the consumer sleeps.
  readonly #keepAlive: NodeJS.Timeout;
  #pending: Promise<boolean> | null = null;
  #closed = false;

  /** channels: every ring this thread consumes; they must all have been created with one doorbell. */
  constructor(channels: readonly RingChannel[], options: InboxOptions = {}) {
    const spinMicros = options.spinMicros ?? DEFAULT_SPIN_MICROS;
    if (!(spinMicros >= 0 && spinMicros <= 1000)) throw new RangeError(`spinMicros must be 0..1000, got ${spinMicros}`);
    this.#maxSpinMs = spinMicros / 1000;
    this.#spinMs = this.#maxSpinMs;
    const first = channels[0];
    if (first === undefined) throw new RangeError('an Inbox needs at least one ring');
    this.#bell = doorbellView(first.doorbell);
    for (const channel of channels) {
      if (doorbellView(channel.doorbell)[BELL_ID] !== this.#bell[BELL_ID]) {
        throw new Error('an Inbox\'s rings must share one doorbell: a producer ringing another bell would never wake this consumer');
      }
    }
    this.#controls = channels.map((channel) => openRing(channel).control);
    this.#keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
    this.#keepAlive.unref();
  }

  /**
   * Resolves true as soon as any ring has a frame (at once if one has already), false once the
   * Inbox is closed. Concurrent calls share one wait.
   */
  whenReadable(): Promise<boolean> {
    if (this.#pending !== null) return this.#pending;
    if (this.#spin()) return Promise.resolve(true);
    this.#pending = this.#sleep().finally(() => { this.#pending = null; });
    return this.#pending;
  }

  /**
   * Blocks the thread until a ring has a frame or `timeoutMs` passes: the same doorbell handshake
   * as whenReadable(), with Atomics.wait instead of waitAsync, for a consumer that runs its own duty
   * cycle (a shard) and returns to its event loop only when it chooses to. True when a ring has a frame.
   */
  park(timeoutMs: number): boolean {
    if (this.#anyReadable()) return true;
    if (this.#closed) return false;
    const bell = this.#bell;
    const seq = Atomics.load(bell, BELL_SEQ);
    Atomics.store(bell, BELL_ASLEEP, 1);
    if (!this.#anyReadable()) {
      Atomics.add(bell, BELL_PARKS, 1);
      Atomics.wait(bell, BELL_SEQ, seq, timeoutMs);
    }
    Atomics.store(bell, BELL_ASLEEP, 0);
    return this.#anyReadable();
  }

  /** Whether any ring has a frame now (one Atomics.load pair per ring). */
  get readable(): boolean {
    return this.#anyReadable();
  }

  /** Ends a pending and every later whenReadable() with false and lets the thread exit. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    Atomics.add(this.#bell, BELL_SEQ, 1);
    Atomics.notify(this.#bell, BELL_SEQ);
  }

  async #sleep(): Promise<boolean> {
    const bell = this.#bell;
    while (!this.#closed) {
      const seq = Atomics.load(bell, BELL_SEQ);
      Atomics.store(bell, BELL_ASLEEP, 1);
      // The re-check after announcing sleep closes the race with a producer that published
      // before it could see asleep=1 (layout.ts, DOORBELL).
      if (this.#anyReadable()) {
        Atomics.store(bell, BELL_ASLEEP, 0);
        return true;
      }
      const wait = Atomics.waitAsync(bell, BELL_SEQ, seq);
      if (wait.async) {
        Atomics.add(bell, BELL_PARKS, 1);
        this.#keepAlive.ref();
        try {
          await wait.value;
        } finally {
          if (!this.#closed) this.#keepAlive.unref();
        }
      }
      Atomics.store(bell, BELL_ASLEEP, 0);
      if (this.#anyReadable()) return true;
    }
    return false;
  }

  /** Polls the rings for the current budget; true as soon as one has a frame. */
  #spin(): boolean {
    if (this.#anyReadable()) return true;
    if (this.#closed) return false;
    const probe = ++this.#idleTurns % PROBE_EVERY_IDLE_TURNS === 0;
    const budgetMs = probe ? this.#maxSpinMs : this.#spinMs;
    if (budgetMs < MIN_SPIN_MS) return false;
    const deadline = performance.now() + budgetMs;
    for (let polls = 1; ; polls++) {
      if (this.#anyReadable()) {
        this.#spinMs = this.#maxSpinMs;
        return true;
      }
      if (polls % POLLS_PER_CLOCK_READ === 0 && performance.now() >= deadline) {
        this.#spinMs = this.#spinMs / 2 < MIN_SPIN_MS ? 0 : this.#spinMs / 2;
        return false;
      }
    }
  }

  #anyReadable(): boolean {
    for (const control of this.#controls) {
      if (Atomics.load(control, HEAD) !== Atomics.load(control, TAIL)) return true;
    }
    return false;
  }
}
