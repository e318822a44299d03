// A shard's checkpoint: its LMDB tables (accounts, orders, pending orders, positions, client ids,
// events, armed dead-man's switches) as of one journal LSN, written behind the journal. The journal makes an order durable;
// the checkpoint only bounds how much journal a start must replay, so no caller ever waits for it.
//
// The shard notes every journaled outcome here once its batch is synced. Changes coalesce per key
// (an account changed by 100 orders is written once). begin() hands everything noted so far to
// lmdb-js as asynchronous puts, in two parts:
// - what may go ahead of the checkpoint's record: the history (orders, client ids, events),
//   account by account in key order, and the positions and pending orders opened since the last
//   checkpoint, in slices over a few event-loop turns, so the shard's orders run between slices;
// - with the last slice, in the same synchronous run, the rest of the state (accounts, positions
//   and pending orders that existed before, dead-man's switches) with the checkpoint record (LSN,
//   id counter, the journal's quotes) last. lmdb-js commits the writes of one event turn in one
//   transaction, off this thread, in the order they were queued, and resolves once it is synced.
//   The last slice waits until every earlier one has committed, so the record never covers a
//   slice whose transaction failed.
// A checkpoint that fails hands what it held back to the next one (Changes.absorb).
// Why slices: the history tables are keyed by account, so a transaction rewrites a leaf page per
// account it touches in each of them, and a checkpoint of N orders over N accounts rewrote ~3 N
// pages of 4 KiB. The larger a checkpoint, the more orders share a leaf; sliced, a large one no
// longer stalls the shard for all its puts at once (docs/architecture.md, "Measured"). A small
// checkpoint is one slice: one turn, one transaction, as before.
//
// A crash before the record's transaction commits leaves the previous checkpoint whole and the
// journal holding everything after it; the tables may then hold what went ahead for records after
// the checkpoint's LSN. A replay writes the same entries again (the engine is deterministic), and a
// start tells them apart and leaves them out of the state it loads: they belong to orders and
// positions whose ids were allocated after the checkpoint's id counter (`allocatedAfter`;
// account-loader.ts and client-id-archive.ts) or are the settled form of an order still pending at
// it.
//
// Until a checkpoint is durable, what it holds is still readable here (lookups see noted changes
// first, then LMDB), so the shard can answer about any order it ever accepted.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { AccountRecord, DeadManRecord, EngineEvent, OrderRecord, Outcome, PositionRecord, Quote } from '../engine/types.js';
import { allocatedAfter } from '../engine/ids.js';
import type { ClientIdEntry, ShardMeta, ShardStore } from './store.js';

/**
 * What a checkpoint writes ahead is queued in this many event-loop turns, between these many puts
 * a turn. A put costs the shard's thread about 1 µs (record-codec.ts's encoding and lmdb-js's
 * bookkeeping), so the largest slice holds an order back by about 2 ms. A busy shard turns its
 * event loop every 2 ms, and at 50k orders/s it notes some 250k records a second: 512 a turn fell
 * behind (the backlog, and the journal kept for it, grew without bound); 2048 a turn keep up with
 * a million records a second.
 */
const AHEAD_TURNS = 16;
const AHEAD_MIN_PUTS_PER_TURN = 512;
const AHEAD_MAX_PUTS_PER_TURN = 2048;

const awaitedLater = (): void => undefined;

/** One account's history noted for a checkpoint. */
class AccountHistory {
  readonly orders = new Map<string, OrderRecord>();
  readonly clientIds = new Map<string, ClientIdEntry>();
  readonly events: EngineEvent[] = [];
}

class Changes {
  readonly accounts = new Map<string, AccountRecord>();
  /** null: the order left the pending table. */
  readonly pending = new Map<string, OrderRecord | null>();
  /** null: the position closed. */
  readonly positions = new Map<number, PositionRecord | null>();
  /** [login, key id] → the armed switch; null: disarmed. */
  readonly deadMen = new Map<string, { readonly key: [string, string]; readonly armed: DeadManRecord | null }>();
  readonly history = new Map<string, AccountHistory>();
  records = 0;

  note(o: Outcome): void {
    for (const a of o.accounts) this.accounts.set(a.login, a);
    for (const order of o.orders) {
      this.historyOf(order.login).orders.set(order.id, order);
      if (order.status === 'pending') this.pending.set(order.id, order);
      // A market order is never pending, so it has nothing to remove.
      else if (order.type !== 'market') this.pending.set(order.id, null);
    }
    for (const p of o.positions) this.positions.set(p.ticket, p);
    for (const t of o.closedTickets) this.positions.set(t, null);
    for (const c of o.clientIds) this.historyOf(c.login).clientIds.set(c.clientId, { orderId: c.orderId, atMs: c.atMs });
    for (const e of o.events) this.historyOf(e.type === 'order' ? e.order.login : e.position.login).events.push(e);
    for (const d of o.deadMen) {
      const key: [string, string] = d.t === 'armed' ? [d.deadMan.login, d.deadMan.keyId] : [d.login, d.keyId];
      this.deadMen.set(JSON.stringify(key), { key, armed: d.t === 'armed' ? d.deadMan : null });
    }
    this.records += o.accounts.length + o.deadMen.length + o.orders.length + o.clientIds.length + o.events.length + o.positions.length + o.closedTickets.length;
  }

  /**
   * The writes that may go ahead of the checkpoint's record, and how many: the history account by
   * account in key order, then the positions and pending orders `opened` since the last checkpoint
   * (a removal too: a crash may have left one written ahead). Each is queued as the caller pulls.
   */
  ahead(store: ShardStore, opened: (id: number) => boolean): { readonly count: number; readonly puts: Iterator<Promise<boolean>> } {
    const positions = [...this.positions].filter(([ticket]) => opened(ticket));
    const pending = [...this.pending].filter(([id]) => opened(Number(id)));
    let count = positions.length + pending.length;
    for (const h of this.history.values()) count += h.orders.size + h.clientIds.size + h.events.length;
    return { count, puts: this.putAhead(store, positions, pending) };
  }

  private *putAhead(store: ShardStore, positions: readonly [number, PositionRecord | null][], pending: readonly [string, OrderRecord | null][]): Generator<Promise<boolean>> {
    for (const login of [...this.history.keys()].sort()) {
      const h = this.history.get(login)!;
      for (const o of h.orders.values()) yield store.orders.put([login, Number(o.id)], o);
      for (const [clientId, entry] of h.clientIds) yield store.clientIds.put([login, clientId], entry);
      for (const e of h.events) yield store.events.put([login, e.seq], e);
    }
    for (const [ticket, p] of positions) yield p === null ? store.positions.remove(ticket) : store.positions.put(ticket, p);
    for (const [id, o] of pending) yield o === null ? store.pending.remove(id) : store.pending.put(id, o);
  }

  /** Queues the rest, the state as it was before: call inside one synchronous run (one transaction). */
  putState(store: ShardStore, opened: (id: number) => boolean): void {
    for (const [login, a] of this.accounts) void store.accounts.put(login, a);
    for (const [id, o] of this.pending) if (!opened(Number(id))) void (o === null ? store.pending.remove(id) : store.pending.put(id, o));
    for (const [ticket, p] of this.positions) if (!opened(ticket)) void (p === null ? store.positions.remove(ticket) : store.positions.put(ticket, p));
    for (const { key, armed } of this.deadMen.values()) void (armed === null ? store.deadMen.remove(key) : store.deadMen.put(key, armed));
  }

  /** Everything, synchronously, inside the caller's transaction. */
  putSync(store: ShardStore): void {
    for (const [login, a] of this.accounts) store.accounts.putSync(login, a);
    for (const [id, o] of this.pending) { if (o === null) store.pending.removeSync(id); else store.pending.putSync(id, o); }
    for (const [ticket, p] of this.positions) { if (p === null) store.positions.removeSync(ticket); else store.positions.putSync(ticket, p); }
    for (const { key, armed } of this.deadMen.values()) { if (armed === null) store.deadMen.removeSync(key); else store.deadMen.putSync(key, armed); }
    for (const [login, h] of this.history) {
      for (const o of h.orders.values()) store.orders.putSync([login, Number(o.id)], o);
      for (const [clientId, entry] of h.clientIds) store.clientIds.putSync([login, clientId], entry);
      for (const e of h.events) store.events.putSync([login, e.seq], e);
    }
  }

  /**
   * Lays the changes noted after these on top of them, so a checkpoint that failed is written again
   * by the next: the changes it held are nowhere else but in the journal it did not release.
   */
  absorb(later: Changes): this {
    for (const [login, a] of later.accounts) this.accounts.set(login, a);
    for (const [id, o] of later.pending) this.pending.set(id, o);
    for (const [ticket, p] of later.positions) this.positions.set(ticket, p);
    for (const [key, d] of later.deadMen) this.deadMen.set(key, d);
    for (const [login, h] of later.history) {
      const mine = this.historyOf(login);
      for (const [id, o] of h.orders) mine.orders.set(id, o);
      for (const [clientId, entry] of h.clientIds) mine.clientIds.set(clientId, entry);
      mine.events.push(...h.events);
    }
    this.records += later.records;
    return this;
  }

  private historyOf(login: string): AccountHistory {
    let h = this.history.get(login);
    if (h === undefined) { h = new AccountHistory(); this.history.set(login, h); }
    return h;
  }
}

export interface CheckpointHooks {
  /** Runs once what the Nth checkpoint writes ahead is durable, before the rest is queued (fault injection). */
  readonly afterAhead?: (n: number) => void;
  /** Runs after the Nth checkpoint's state is queued, before it commits (fault injection). */
  readonly afterQueued?: (n: number) => void;
}

export class CheckpointWriter {
  private noted = new Changes();
  private flying: Changes | null = null;
  private lsn: number;
  private streamSeq: number;
  private readonly quotes = new Map<string, Quote>();
  private count = 0;
  /**
   * The id counter of the last checkpoint begun. A start after a crash filters by the counter of
   * the last one durable, never a higher one, so whatever was allocated after this one may go ahead.
   */
  private begunIdCounter: number;

  constructor(private readonly store: ShardStore, private readonly shard: number, from: ShardMeta, private readonly hooks: CheckpointHooks = {}) {
    this.begunIdCounter = from.idCounter;
    this.lsn = from.lsn;
    this.streamSeq = from.stream ?? 0;
    for (const q of from.quotes) this.quotes.set(q.symbol, q);
  }

  /** The outcome of the command journaled at `lsn` (durable). */
  note(lsn: number, outcome: Outcome | null): void {
    if (outcome !== null) this.noted.note(outcome);
    this.lsn = lsn;
  }

  /** A quote journaled at `lsn`: the engine's price of its symbol from there on, which a replay starts from. */
  noteQuote(lsn: number, quote: Quote): void {
    this.quotes.set(quote.symbol, quote);
    this.lsn = lsn;
  }

  /** In a cluster: everything noted so far came from the shard's stream up to this message. */
  noteStream(seq: number): void {
    this.streamSeq = seq;
  }

  /** The stream message the noted records reach (0: none, or not in a cluster). */
  get notedStream(): number { return this.streamSeq; }

  /** Records noted and not yet in a checkpoint being written. */
  get backlog(): number { return this.noted.records; }

  get inFlight(): boolean { return this.flying !== null; }

  /** The LSN everything noted so far reflects. */
  get notedLsn(): number { return this.lsn; }

  /**
   * Starts writing everything noted as one checkpoint; resolves with its LSN once durable. Null
   * when one is already being written (the next begins after it) or nothing changed. When it
   * fails, what it held is noted again, under what was noted since, for the next one.
   */
  begin(idCounter: number): Promise<number> | null {
    if (this.flying !== null) return null;
    const changes = this.noted;
    this.noted = new Changes();
    this.flying = changes;
    return this.write(changes, this.meta(idCounter), ++this.count)
      .catch((err: unknown) => {
        this.noted = changes.absorb(this.noted);
        throw err;
      })
      .finally(() => { this.flying = null; });
  }

  /** Writes everything noted as one checkpoint, synchronously (start-up after a replay, shutdown). */
  writeSync(idCounter: number): number {
    const changes = this.noted;
    this.noted = new Changes();
    const meta = this.meta(idCounter);
    this.begunIdCounter = idCounter;
    this.store.root.transactionSync(() => {
      changes.putSync(this.store);
      this.store.checkpoint.putSync('shard', meta);
    });
    return meta.lsn;
  }

  /** An order of the account as last noted (committed or not), else undefined: the caller reads LMDB next. */
  order(login: string, id: string): OrderRecord | undefined {
    return this.noted.history.get(login)?.orders.get(id) ?? this.flying?.history.get(login)?.orders.get(id);
  }

  clientId(login: string, clientId: string): ClientIdEntry | undefined {
    return this.noted.history.get(login)?.clientIds.get(clientId) ?? this.flying?.history.get(login)?.clientIds.get(clientId);
  }

  /** What may go ahead in slices, then the rest with the record (see the head of this file); the LSN once durable. */
  private async write(changes: Changes, meta: ShardMeta, n: number): Promise<number> {
    const before = this.begunIdCounter;
    this.begunIdCounter = meta.idCounter;
    const opened = (id: number): boolean => allocatedAfter(id, this.shard, before);
    const { count, puts } = changes.ahead(this.store, opened);
    const perTurn = Math.min(AHEAD_MAX_PUTS_PER_TURN, Math.max(AHEAD_MIN_PUTS_PER_TURN, Math.ceil(count / AHEAD_TURNS)));
    const lastSlice = Math.max(0, Math.ceil(count / perTurn) - 1) * perTurn;
    // lmdb-js hands every put of one transaction the same promise: one per slice or so, all
    // awaited, so a failed commit of any slice fails the checkpoint (and, marked as handled when
    // queued, does not end the thread as an unhandled rejection while slices follow).
    const commits = new Set<Promise<boolean>>();
    for (let queued = 0; ; queued++) {
      // The last slice shares a transaction with the state and the record (lmdb-js commits one
      // turn's writes together), and is queued only once every earlier slice has committed: a
      // record never commits over a slice that failed while a later transaction went through.
      if (queued > 0 && queued < count && queued % perTurn === 0) await (queued === lastSlice ? Promise.all(commits) : nextTurn());
      const next = puts.next();
      if (next.done === true) break;
      if (!commits.has(next.value)) { commits.add(next.value); next.value.catch(awaitedLater); }
    }
    // Fault injection waits for the last slice too, to crash between it and the state.
    if (this.hooks.afterAhead !== undefined) {
      await Promise.all(commits);
      this.hooks.afterAhead(n);
    }
    changes.putState(this.store, opened);
    commits.add(this.store.checkpoint.put('shard', meta));
    this.hooks.afterQueued?.(n);
    await Promise.all(commits);
    return meta.lsn;
  }

  private meta(idCounter: number): ShardMeta {
    return { lsn: this.lsn, idCounter, quotes: [...this.quotes.values()], stream: this.streamSeq };
  }
}
