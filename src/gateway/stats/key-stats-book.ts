// Every key's statistics, loaded at start from LMDB `key_stats` and saved periodically and at stop
// (only what changed). Statistics are reports, not account state: losing the last few seconds
// on a crash is acceptable, so saves are not awaited for durability.
import type { Database } from 'lmdb';
import type { UnixMs } from '../../engine/types.js';
import { table } from '../../store/table.js';
import type { Logger } from '../../base/log.js';
import { forEachSliced } from '../../base/event-loop-turn.js';
import { KeyStats, type KeyStatsRecord, type RequestTap } from './key-stats.js';

export const KEY_STATS = table<string, KeyStatsRecord>('key_stats');
export const KEY_STATS_SAVE_MS = 10_000;
const SAVE_CHUNK = 32;

export class KeyStatsBook {
  private readonly stats = new Map<string, KeyStats>();
  private listener: RequestTap | null = null;
  private readonly tap: RequestTap = (keyId, endpoint, errorName, latencyUs) => this.listener?.(keyId, endpoint, errorName, latencyUs);

  constructor(private readonly db: Database<KeyStatsRecord, string>) {
    for (const { value } of db.getRange()) this.stats.set(value.keyId, new KeyStats(value.keyId, value.sinceMs, value, this.tap));
  }

  /** The one listener told of every recorded request (the console's per-key time series). */
  onRequest(listener: RequestTap): void { this.listener = listener; }

  /** The key's statistics, started now if it has none. Call only for keys that exist. */
  of(keyId: string, nowMs: UnixMs): KeyStats {
    let s = this.stats.get(keyId);
    if (s === undefined) {
      s = new KeyStats(keyId, nowMs, undefined, this.tap);
      this.stats.set(keyId, s);
    }
    return s;
  }

  get(keyId: string): KeyStats | undefined { return this.stats.get(keyId); }

  /**
   * Writes every changed key; resolves with how many. Encoding a record costs tens of µs on the
   * main thread, so a few dozen go per event-loop turn and requests are served in between (a
   * thousand at once would stall every request for tens of ms). Puts of one turn share a commit.
   */
  async save(): Promise<number> {
    const changed = [...this.stats.values()].filter((s) => s.dirty);
    const writes: Promise<boolean>[] = [];
    await forEachSliced(changed, SAVE_CHUNK, (s) => {
      s.dirty = false;
      writes.push(this.db.put(s.keyId, s.toRecord()));
    });
    await Promise.all(writes);
    return changed.length;
  }

  /** Saves every `intervalMs` until the returned stop, which saves once more. */
  autosave(intervalMs: number, log: Logger): () => Promise<void> {
    const timer = setInterval(() => {
      this.save().catch((err: unknown) => log.error({ err }, 'saving key statistics failed'));
    }, intervalMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await this.save();
    };
  }
}
