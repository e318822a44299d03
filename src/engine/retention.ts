// Client ids are remembered for the retention window (DECISIONS: at least 24 h, across restarts)
// and forgotten deterministically as `nowMs` passes them, oldest first.
import type { AccountState } from './account.js';
import { Fifo } from './fifo.js';
import type { ClientIdRecord, UnixMs } from './types.js';

export class ClientIdMemory {
  private readonly queue = new Fifo<{ readonly account: AccountState; readonly record: ClientIdRecord }>();

  constructor(readonly retentionMs: number) {}

  remember(account: AccountState, record: ClientIdRecord): void {
    account.clientIds.set(record.clientId, record);
    this.queue.push({ account, record });
  }

  prune(nowMs: UnixMs): void {
    const cutoff = nowMs - this.retentionMs;
    for (let e = this.queue.peek(); e !== undefined && e.record.atMs <= cutoff; e = this.queue.peek()) {
      this.queue.shift();
      const ids = e.account.clientIds;
      if (ids.get(e.record.clientId) === e.record) ids.delete(e.record.clientId);
    }
  }
}
