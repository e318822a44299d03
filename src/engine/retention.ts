// Client ids are remembered for the retention window (DECISIONS: at least 24 h, across restarts).
// Memory holds the youngest of them, forgotten deterministically as `nowMs` passes them, oldest
// first: all of the retention without an archive, the archive's `memoryMs` with one, which then
// answers for the older ones (types.ts, ClientIdArchive).
import type { AccountState } from './account.js';
import { Fifo } from './fifo.js';
import type { ClientIdArchive, ClientIdRecord, UnixMs } from './types.js';

export class ClientIdMemory {
  private readonly queue = new Fifo<{ readonly account: AccountState; readonly record: ClientIdRecord }>();
  /** How long a client id stays in memory. */
  readonly memoryMs: number;

  constructor(readonly retentionMs: number, private readonly archive: ClientIdArchive | null = null) {
    this.memoryMs = archive === null ? retentionMs : Math.min(archive.memoryMs, retentionMs);
  }

  remember(account: AccountState, record: ClientIdRecord): void {
    account.clientIds.set(record.clientId, record);
    this.queue.push({ account, record });
  }

  /** The client id's record when it was accepted within the retention, from memory or the archive. */
  seen(account: AccountState, clientId: string, nowMs: UnixMs): ClientIdRecord | undefined {
    const kept = account.clientIds.get(clientId);
    if (kept !== undefined || this.archive === null) return kept;
    const earlier = this.archive.find(account.login, clientId);
    return earlier !== undefined && earlier.atMs > nowMs - this.retentionMs ? earlier : undefined;
  }

  prune(nowMs: UnixMs): void {
    const cutoff = nowMs - this.memoryMs;
    for (let e = this.queue.peek(); e !== undefined && e.record.atMs <= cutoff; e = this.queue.peek()) {
      this.queue.shift();
      const ids = e.account.clientIds;
      if (ids.get(e.record.clientId) === e.record) ids.delete(e.record.clientId);
    }
  }
}
