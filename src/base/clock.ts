// Time as a dependency: the price sources read the clock and arm timers only through these, so
// tests drive them with virtual time and a day of ticks runs in milliseconds.
import type { UnixMs } from '../engine/types.js';

export interface Clock { nowMs(): UnixMs }

/** Disarms a timer; calling it after the timer fired (or twice) does nothing. */
export type CancelTimer = () => void;

export interface Scheduler { schedule(delayMs: number, task: () => void): CancelTimer }

export const systemClock: Clock = { nowMs: () => Date.now() };

export const systemScheduler: Scheduler = {
  schedule(delayMs, task) {
    const timer = setTimeout(task, Math.max(0, delayMs));
    return () => clearTimeout(timer);
  },
};
