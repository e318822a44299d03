// A shard's checkpoint: its LMDB tables (accounts, orders, pending orders, positions, client ids,
// events, armed dead-man's switches) as of one journal LSN, written behind the journal. The journal makes an order durable;
// the checkpoint only bounds how much journal a start must replay, so no caller ever waits for it.
//
// The shard notes every journaled outcome here once its batch is synced. Changes coalesce per key
// (an account changed by 100 orders is written once). begin() hands everything noted so far to
// lmdb-js as asynchronous puts issued in one synchronous run, with the checkpoint record (LSN, id
// counter, the journal's quotes) last: lmdb-js commits the writes of one event turn in one
// transaction, off this thread, and resolves once it is synced. A crash before that leaves the
// previous checkpoint whole, and the journal still holds everything after it.
//
// Until a checkpoint is durable, what it holds is still readable here (lookups see noted changes
// first, then LMDB), so the shard can answer about any order it ever accepted.
import type { AccountRecord, DeadManRecord, EngineEvent, OrderRecord, Outcome, PositionRecord, Quote } from '../engine/types.js';
import type { ClientIdEntry, ShardMeta, ShardStore } from './store.js';

class Changes {
  readonly accounts = new Map<string, AccountRecord>();
  readonly orders = new Map<string, OrderRecord>();
  /** null: the order left the pending table. */
  readonly pending = new Map<string, OrderRecord | null>();
  /** null: the position closed. */
  readonly positions = new Map<number, PositionRecord | null>();
  readonly clientIds = new Map<string, Map<string, ClientIdEntry>>();
  readonly events: EngineEvent[] = [];
  /** [login, key id] → the armed switch; null: disarmed. */
  readonly deadMen = new Map<string, { readonly key: [string, string]; readonly armed: DeadManRecord | null }>();
  records = 0;

  note(o: Outcome): void {
    for (const a of o.accounts) this.accounts.set(a.login, a);
    for (const order of o.orders) {
      this.orders.set(order.id, order);
      if (order.status === 'pending') this.pending.set(order.id, order);
      // A market order is never pending, so it has nothing to remove.
      else if (order.type !== 'market') this.pending.set(order.id, null);
    }
    for (const p of o.positions) this.positions.set(p.ticket, p);
    for (const t of o.closedTickets) this.positions.set(t, null);
    for (const c of o.clientIds) {
      let ids = this.clientIds.get(c.login);
      if (ids === undefined) { ids = new Map(); this.clientIds.set(c.login, ids); }
      ids.set(c.clientId, { orderId: c.orderId, atMs: c.atMs });
    }
    for (const e of o.events) this.events.push(e);
    for (const d of o.deadMen) {
      const key: [string, string] = d.t === 'armed' ? [d.deadMan.login, d.deadMan.keyId] : [d.login, d.keyId];
      this.deadMen.set(JSON.stringify(key), { key, armed: d.t === 'armed' ? d.deadMan : null });
    }
    this.records += o.accounts.length + o.orders.length + o.positions.length + o.closedTickets.length + o.clientIds.length + o.events.length
      + o.deadMen.length;
  }

  /** Queues every change as an asynchronous put; call inside one synchronous run (one transaction). */
  put(store: ShardStore): void {
    for (const [login, a] of this.accounts) void store.accounts.put(login, a);
    for (const o of this.orders.values()) void store.orders.put([o.login, Number(o.id)], o);
    for (const [id, o] of this.pending) void (o === null ? store.pending.remove(id) : store.pending.put(id, o));
    for (const [ticket, p] of this.positions) void (p === null ? store.positions.remove(ticket) : store.positions.put(ticket, p));
    for (const [login, ids] of this.clientIds) for (const [clientId, entry] of ids) void store.clientIds.put([login, clientId], entry);
    for (const e of this.events) void store.events.put([e.type === 'order' ? e.order.login : e.position.login, e.seq], e);
    for (const { key, armed } of this.deadMen.values()) void (armed === null ? store.deadMen.remove(key) : store.deadMen.put(key, armed));
  }

  /** The same, synchronously, inside the caller's transaction. */
  putSync(store: ShardStore): void {
    for (const [login, a] of this.accounts) store.accounts.putSync(login, a);
    for (const o of this.orders.values()) store.orders.putSync([o.login, Number(o.id)], o);
    for (const [id, o] of this.pending) { if (o === null) store.pending.removeSync(id); else store.pending.putSync(id, o); }
    for (const [ticket, p] of this.positions) { if (p === null) store.positions.removeSync(ticket); else store.positions.putSync(ticket, p); }
    for (const [login, ids] of this.clientIds) for (const [clientId, entry] of ids) store.clientIds.putSync([login, clientId], entry);
    for (const e of this.events) store.events.putSync([e.type === 'order' ? e.order.login : e.position.login, e.seq], e);
    for (const { key, armed } of this.deadMen.values()) { if (armed === null) store.deadMen.removeSync(key); else store.deadMen.putSync(key, armed); }
  }
}

export interface CheckpointHooks {
  /** Runs after a checkpoint's writes are queued, before they commit (fault injection). */
  readonly afterQueued?: (n: number) => void;
}

export class CheckpointWriter {
  private noted = new Changes();
  private flying: Changes | null = null;
  private lsn: number;
  private streamSeq: number;
  private readonly quotes = new Map<string, Quote>();
  private count = 0;

  constructor(private readonly store: ShardStore, from: ShardMeta, private readonly hooks: CheckpointHooks = {}) {
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
   * when one is already being written (the next begins after it) or nothing changed.
   */
  begin(idCounter: number): Promise<number> | null {
    if (this.flying !== null) return null;
    const changes = this.noted;
    this.noted = new Changes();
    this.flying = changes;
    const meta = this.meta(idCounter);
    changes.put(this.store);
    const written = this.store.checkpoint.put('shard', meta);
    this.hooks.afterQueued?.(++this.count);
    return written.then(
      () => { this.flying = null; return meta.lsn; },
      (err: unknown) => { this.flying = null; throw err; },
    );
  }

  /** Writes everything noted as one checkpoint, synchronously (start-up after a replay, shutdown). */
  writeSync(idCounter: number): number {
    const changes = this.noted;
    this.noted = new Changes();
    const meta = this.meta(idCounter);
    this.store.root.transactionSync(() => {
      changes.putSync(this.store);
      this.store.checkpoint.putSync('shard', meta);
    });
    return meta.lsn;
  }

  /** An order as last noted (committed or not), else undefined: the caller reads LMDB next. */
  order(id: string): OrderRecord | undefined {
    return this.noted.orders.get(id) ?? this.flying?.orders.get(id);
  }

  clientId(login: string, clientId: string): ClientIdEntry | undefined {
    return this.noted.clientIds.get(login)?.get(clientId) ?? this.flying?.clientIds.get(login)?.get(clientId);
  }

  private meta(idCounter: number): ShardMeta {
    return { lsn: this.lsn, idCounter, quotes: [...this.quotes.values()], stream: this.streamSeq };
  }
}
