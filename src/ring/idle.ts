// What a consumer thread with its own duty cycle (a shard) does when a cycle found no work, in the
// style of agrona's idle strategies. Each one ends as soon as a ring has a frame, and returns to
// the thread's event loop (a macrotask turn) at least every `maxBlockMs`, so LMDB commit callbacks,
// file preparation and timers still run.
//
//   spin     poll the rings until a frame or maxBlockMs, then one event-loop turn. The lowest
//            wake-up latency, and a whole core per shard, busy or not.
//   backoff  spin `spins` polls, then `yields` event-loop turns, then park (below); every cycle
//            with work starts over at spinning.
//   park     block in Atomics.wait on the doorbell (the producer's notify wakes it, a futex
//            wake-up), at most maxBlockMs, then one event-loop turn.
//   async    Atomics.waitAsync on the doorbell (Inbox.whenReadable): the event loop stays free
//            while waiting, and the wake-up is an event-loop task.
// bench/idle.bench.ts measures each on this machine; docs/configuration.md lists the figures.
import type { Inbox } from './inbox.js';

export const IDLE_STRATEGIES = ['park', 'backoff', 'spin', 'async'] as const;
export type IdleStrategyName = (typeof IDLE_STRATEGIES)[number];

export interface IdleStrategy {
  /** Waits for a frame, at most `maxBlockMs` before returning to the caller through the event loop. */
  idle(inbox: Inbox, maxBlockMs: number): Promise<void>;
  /** The cycle found work: the next idle() starts from its first step. */
  reset(): void;
}

export const eventLoopTurn = (): Promise<void> => new Promise((resolve) => { setImmediate(resolve); });

/** Polls the rings until a frame arrives or the deadline passes; true on a frame. */
function spinUntil(inbox: Inbox, deadlineMs: number): boolean {
  for (let polls = 1; ; polls++) {
    if (inbox.readable) return true;
    // Reading the clock costs about as much as polling a few rings.
    if (polls % 16 === 0 && performance.now() >= deadlineMs) return false;
  }
}

class Spin implements IdleStrategy {
  async idle(inbox: Inbox, maxBlockMs: number): Promise<void> {
    spinUntil(inbox, performance.now() + maxBlockMs);
    await eventLoopTurn();
  }

  reset(): void {}
}

class Park implements IdleStrategy {
  async idle(inbox: Inbox, maxBlockMs: number): Promise<void> {
    inbox.park(maxBlockMs);
    await eventLoopTurn();
  }

  reset(): void {}
}

class Async implements IdleStrategy {
  async idle(inbox: Inbox, maxBlockMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([inbox.whenReadable(), new Promise<void>((resolve) => { timer = setTimeout(resolve, maxBlockMs); })]);
    clearTimeout(timer);
  }

  reset(): void {}
}

/** agrona's BackoffIdleStrategy: spin, then yield, then park. */
class Backoff implements IdleStrategy {
  private step = 0;

  constructor(private readonly spins: number, private readonly yields: number) {}

  async idle(inbox: Inbox, maxBlockMs: number): Promise<void> {
    if (this.step < this.spins) {
      // One spin step is a short burst of polls; a ping-pong reply on another core lands within it.
      this.step += spinUntil(inbox, performance.now() + SPIN_STEP_MS) ? this.spins : 1;
      return;
    }
    if (this.step < this.spins + this.yields) {
      this.step++;
      await eventLoopTurn();
      return;
    }
    inbox.park(maxBlockMs);
    await eventLoopTurn();
  }

  reset(): void { this.step = 0; }
}

const SPIN_STEP_MS = 0.005;
const BACKOFF_SPIN_STEPS = 4;
const BACKOFF_YIELDS = 2;

export function idleStrategy(name: IdleStrategyName): IdleStrategy {
  switch (name) {
    case 'spin': return new Spin();
    case 'park': return new Park();
    case 'async': return new Async();
    case 'backoff': return new Backoff(BACKOFF_SPIN_STEPS, BACKOFF_YIELDS);
  }
}
