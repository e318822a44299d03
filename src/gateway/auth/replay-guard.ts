// Replay refusal (DECISIONS "Authentication"): a signature already accepted for a POST or DELETE
// within the timestamp window gets 401. A signature covers its timestamp, so once the timestamp
// leaves the window the request is refused anyway and its entry can go.
//
// Across restarts (replay-memory.ts): a clean stop hands the live signatures to the next start; a
// start after an unclean stop cannot know which signatures the dead process accepted, only that
// their timestamps are before the crash plus the window, so it refuses every timestamp before its
// own start plus the window (the fence).
import { Fifo } from '../../engine/fifo.js';
import type { UnixMs } from '../../engine/types.js';

export type ReplayVerdict =
  | 'accepted'
  /** Already accepted within the window. */
  | 'replayed'
  /** Before the fence: a process that stopped uncleanly may have accepted it. */
  | 'fenced'
  /** The guard was handed over (the service is stopping): nothing more can be recorded. */
  | 'closed';

export type Remembered = readonly (readonly [signature: string, expiresMs: number])[];

export class ReplayGuard {
  /** signature → expiry (Unix ms). */
  private readonly seen = new Map<string, number>();
  /**
   * The same entries in insertion order, pruned from the oldest while expired. Client clocks
   * differ within the window, so an entry may outlive its expiry by up to one window: harmless,
   * since its timestamp is refused by then anyway. Pruning walks this queue, not the map: a Map
   * iterator starts at the oldest slot and steps over every deleted one until the table is
   * rehashed, which made each accept cost 3-28 µs at a sustained 10k signatures a second with the
   * 5 s window; the queue's head is where the last prune stopped.
   */
  private readonly order = new Fifo<readonly [signature: string, expiresMs: number]>();
  private closed = false;

  /**
   * `fenceMs`: timestamps before it are refused (0: none). `remembered`: what a clean stop handed
   * over, oldest expiry first.
   */
  constructor(readonly windowMs: number, readonly fenceMs = 0, remembered: Remembered = []) {
    for (const [signature, expiresMs] of remembered) this.remember(signature, expiresMs);
  }

  /** Records the signature when it may be accepted. */
  accept(signature: string, timestampMs: number, nowMs: UnixMs): ReplayVerdict {
    if (this.closed) return 'closed';
    if (timestampMs < this.fenceMs) return 'fenced';
    this.prune(nowMs);
    if (this.seen.has(signature)) return 'replayed';
    this.remember(signature, timestampMs + this.windowMs);
    return 'accepted';
  }

  /** Refuses everything from now on; returns the signatures still in the window, oldest expiry first. */
  close(nowMs: UnixMs): Remembered {
    this.closed = true;
    this.prune(nowMs);
    return [...this.seen].sort((a, b) => a[1] - b[1]);
  }

  private remember(signature: string, expiresMs: number): void {
    this.seen.set(signature, expiresMs);
    this.order.push([signature, expiresMs]);
  }

  private prune(nowMs: UnixMs): void {
    for (let oldest = this.order.peek(); oldest !== undefined && oldest[1] < nowMs; oldest = this.order.peek()) {
      this.order.shift();
      this.seen.delete(oldest[0]);
    }
  }
}
