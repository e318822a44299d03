// Virtual time for the price sources: a clock that moves only when the test says so and runs the
// timers that fall due on the way, in due order (ties in the order they were armed).
import type { CancelTimer, Clock, Scheduler } from '../../../src/base/clock.js';

interface Timer { readonly dueMs: number; readonly order: number; readonly task: () => void; cancelled: boolean }

export class VirtualTime implements Clock, Scheduler {
  private timers: Timer[] = [];
  private armed = 0;

  constructor(private now: number) {}

  nowMs(): number {
    return this.now;
  }

  schedule(delayMs: number, task: () => void): CancelTimer {
    const timer: Timer = { dueMs: this.now + Math.max(0, delayMs), order: this.armed++, task, cancelled: false };
    this.timers.push(timer);
    this.timers.sort((a, b) => a.dueMs - b.dueMs || a.order - b.order);
    return () => { timer.cancelled = true; };
  }

  /** Timers still armed. */
  pending(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }

  /** Moves the clock to `targetMs`, running every timer due by then (including ones armed meanwhile). */
  advanceTo(targetMs: number): void {
    for (;;) {
      const next = this.timers[0];
      if (!next || next.dueMs > targetMs) break;
      this.timers.shift();
      if (next.cancelled) continue;
      this.now = Math.max(this.now, next.dueMs);
      next.task();
    }
    this.now = Math.max(this.now, targetMs);
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.now + ms);
  }

  /** Moves the clock to the earliest armed timer and runs that one only; false when none is armed. */
  runNext(): boolean {
    for (;;) {
      const next = this.timers.shift();
      if (!next) return false;
      if (next.cancelled) continue;
      this.now = Math.max(this.now, next.dueMs);
      next.task();
      return true;
    }
  }

  /** Runs timers until none is armed (at most `limit`, so a runaway source fails the test). */
  runAll(limit = 1_000_000): void {
    for (let n = 0; n < limit; n++) if (!this.runNext()) return;
    throw new Error(`timers still armed after ${limit} turns`);
  }
}
