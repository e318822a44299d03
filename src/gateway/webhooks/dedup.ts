// The `comment` dedup of DECISIONS "Signal webhooks": an accepted signal's comment is remembered
// on its webhook for the window (config webhooks.dedup_window_ms, counted from the first signal)
// together with the promise of its answer. A repeat within the window is answered with that answer;
// a repeat arriving while the first is still fanning out waits for the same promise, so a comment
// trades once however the repeats interleave. Only accepted signals are remembered: a refused one
// traded nothing, and sending it again is how a sender recovers.
import type { UnixMs } from '../../engine/types.js';

export interface Remembered<T> { readonly signalId: string; readonly atMs: UnixMs; readonly answer: Promise<T> }

export class DedupTable<T> {
  private readonly byWebhook = new Map<string, Map<string, Remembered<T>>>();

  constructor(private readonly windowMs: number) {}

  find(webhookId: string, comment: string, nowMs: UnixMs): Remembered<T> | undefined {
    const seen = this.byWebhook.get(webhookId)?.get(comment);
    return seen !== undefined && nowMs - seen.atMs < this.windowMs ? seen : undefined;
  }

  /** Remembers an accepted signal; expired entries of the webhook go at the same time. */
  remember(webhookId: string, comment: string, entry: Remembered<T>): void {
    let comments = this.byWebhook.get(webhookId);
    if (comments === undefined) { comments = new Map(); this.byWebhook.set(webhookId, comments); }
    // The rate limit keeps this map to a few entries per window, so the sweep is cheap.
    for (const [c, seen] of comments) if (entry.atMs - seen.atMs >= this.windowMs) comments.delete(c);
    comments.set(comment, entry);
  }
}
