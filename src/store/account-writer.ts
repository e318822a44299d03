// Writes one drained batch of a shard in a single synchronous LMDB transaction on the shard's own
// environment: its journal entries in the order they were applied, and the state they produced.
// When it returns, the batch is on disk (durability `sync`) and its answers may leave.
import type { AccountRecord, Outcome } from '../engine/types.js';
import type { JournalEntry } from './journal.js';
import type { ShardStore } from './store.js';

/** A journal entry and, for commands (not for journaled quotes), what it changed. */
export interface Applied { readonly entry: JournalEntry; readonly outcome: Outcome | null }

/**
 * True when the outcome changed the engine's state, so its command must be journaled (a rejected
 * command changes nothing). Key halts are persisted by the console in the key record, but later
 * commands depend on them, so a replay needs them in the journal.
 */
export function changesState(o: Outcome): boolean {
  return o.events.length > 0 || o.accounts.length > 0 || o.orders.length > 0 || o.positions.length > 0
    || o.closedTickets.length > 0 || o.clientIds.length > 0 || o.keyHalts.length > 0;
}

/** Commits the batch; returns the next journal number. */
export function writeBatch(store: ShardStore, journalSeq: number, idCounter: number, applied: readonly Applied[]): number {
  let n = journalSeq;
  // An account changes with most commands of a batch: only its last state is written.
  const accounts = new Map<string, AccountRecord>();
  store.root.transactionSync(() => {
    for (const { entry, outcome } of applied) {
      store.journal.putSync(n++, entry);
      if (!outcome) continue;
      for (const a of outcome.accounts) accounts.set(a.login, a);
      writeOutcome(store, outcome);
    }
    for (const a of accounts.values()) store.accounts.putSync(a.login, a);
    store.meta.putSync('idCounter', idCounter);
  });
  return n;
}

function writeOutcome(store: ShardStore, outcome: Outcome): void {
  for (const o of outcome.orders) {
    store.orders.putSync([o.login, Number(o.id)], o);
    if (o.status === 'pending') store.pending.putSync(o.id, o);
    // A market order is never pending, so it has nothing to remove.
    else if (o.type !== 'market') store.pending.removeSync(o.id);
  }
  for (const p of outcome.positions) store.positions.putSync(p.ticket, p);
  for (const t of outcome.closedTickets) store.positions.removeSync(t);
  for (const c of outcome.clientIds) store.clientIds.putSync([c.login, c.clientId], { orderId: c.orderId, atMs: c.atMs });
  for (const e of outcome.events) {
    const login = e.type === 'order' ? e.order.login : e.position.login;
    store.events.putSync([login, e.seq], e);
  }
}
