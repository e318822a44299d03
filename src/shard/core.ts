// What a shard does with one drained batch, independent of how frames arrive: apply every frame in
// order to the engine, append a journal record for each command that changed state (quotes ticked
// since the last record go just before the next one, so a replay fills at the same prices), make
// them durable with one commit, and only then hand out answers and events, one frame per peer.
// The state tables are a checkpoint behind the journal: the batch's outcomes are noted for it once
// the journal holds them, and nobody waits for it.
//
// Dead-man's switches: their deadlines are engine state, but the engine reads no clock, so the
// shard watches them here with its own clock: each batch first fires every switch whose deadline
// passed (a journaled fireDeadMan command, so a replay fires it at the same time), and the worker
// runs a batch, empty if need be, once `nextDeadlineMs` has come. Kept in the shard rather than
// on the main thread so a firing needs no peer: it happens while no client is connected, and at
// start for a deadline that passed while the service was down (the first batch after recovery).
//
// The journal decides what may happen: when it cannot take records (disk full) a batch's commands
// are answered `unavailable` without being applied, and ticks are held back (their latest per
// symbol applies once it can); when a commit fails, the batch's effects are in the engine but not
// on disk, so the shard refuses everything from then on and a restart recovers what is durable.
import type { Engine } from '../engine/engine.js';
import { tooLate } from '../engine/orders.js';
import type { AccountRecord, Command, DeadManFiredResult, EngineEvent, Outcome, Quote, Reject, Result, UnixMs } from '../engine/types.js';
import type { CheckpointWriter } from '../store/checkpoint.js';
import { JournalError, type JournalWriter } from '../store/journal/writer.js';
import { LivePnl } from './live-pnl.js';
import type { OrderArchive } from './order-archive.js';
import type { ShardStatsBoard } from './stats.js';
import type { Answer, JournalHealth, OutItem, Query, ShardInbound, ShardOutbound } from './protocol.js';

/** Peers of a shard: the main thread and the FIX thread, each with its own ring pair. */
export const PEERS = ['main', 'fix'] as const;
export type Peer = 0 | 1;
export const MAIN: Peer = 0;
export const FIX: Peer = 1;

export interface Inbound { readonly peer: Peer; readonly frame: ShardInbound }

/**
 * True when the outcome changed the engine's state, so its command must be journaled (a rejected
 * command changes nothing). Key halts are persisted by the console in the key record, but later
 * commands depend on them, so a replay needs them in the journal.
 */
export function changesState(o: Outcome): boolean {
  return o.events.length > 0 || o.accounts.length > 0 || o.orders.length > 0 || o.positions.length > 0
    || o.closedTickets.length > 0 || o.clientIds.length > 0 || o.keyHalts.length > 0 || o.deadMen.length > 0;
}

/** What one peer receives from one batch. */
class PeerFrame {
  private readonly items: OutItem[] = [];
  readonly accounts = new Map<string, AccountRecord>();
  /** Events since the last reply: they go out as one `events` item. */
  private loose: EngineEvent[] = [];

  constructor(private readonly wants: (login: string) => boolean) {}

  reply(corr: number, answer: Answer, events: readonly EngineEvent[]): void {
    this.closeLoose();
    this.items.push({ k: 'reply', corr, answer, events });
  }

  events(events: readonly EngineEvent[]): void {
    for (const e of events) if (this.wants(e.type === 'order' ? e.order.login : e.position.login)) this.loose.push(e);
  }

  /** After the firing's own events. */
  fired(result: DeadManFiredResult): void {
    this.closeLoose();
    this.items.push({ k: 'fired', result, events: [] });
  }

  changed(accounts: readonly AccountRecord[]): void {
    for (const a of accounts) if (this.wants(a.login)) this.accounts.set(a.login, a);
  }

  /** After a failed commit: the answers say so, and nothing of the batch is reported as done. */
  unavailable(message: string): void {
    this.accounts.clear();
    this.loose = [];
    const replies = this.items.filter((i) => i.k === 'reply');
    this.items.length = 0;
    for (const r of replies) {
      const kept = r.answer.t === 'account' || r.answer.t === 'order';
      this.items.push(kept ? r : { k: 'reply', corr: r.corr, answer: { t: 'unavailable', message }, events: [] });
    }
  }

  frame(shard: number, lsn: number): ShardOutbound | null {
    this.closeLoose();
    if (this.items.length === 0 && this.accounts.size === 0) return null;
    return { t: 'batch', shard, lsn, accounts: [...this.accounts.values()], items: this.items };
  }

  private closeLoose(): void {
    if (this.loose.length === 0) return;
    this.items.push({ k: 'events', events: this.loose });
    this.loose = [];
  }
}

/** A record appended in this batch, noted for the checkpoint once the batch is durable. */
interface Journaled { readonly lsn: number; readonly outcome: Outcome | null; readonly quote: Quote | null }

const HEALTHY: JournalHealth = { state: 'ok' };
const FAILED_MESSAGE = 'the shard can no longer make orders durable (its journal failed); nothing is accepted until the service restarts';

export class ShardCore {
  /** Latest quote per symbol ticked since the last journal record, with the time it was applied. */
  private readonly dirtyQuotes = new Map<string, { readonly quote: Quote; readonly nowMs: UnixMs }>();
  /** Ticks that arrived while the journal could take nothing: applied once it can. */
  private readonly heldQuotes = new Map<string, Quote>();
  /** Logins whose events the FIX thread wants (live sessions); main wants all. */
  private readonly fixWatch = new Set<string>();
  private healthValue: JournalHealth = HEALTHY;
  stopping = false;
  /** Live P&L of the accounts the main thread's stream watches (swept by the worker, behind the order path). */
  readonly live: LivePnl;

  constructor(
    readonly shard: number,
    private readonly engine: Engine,
    private readonly journal: JournalWriter,
    private readonly checkpoint: CheckpointWriter,
    private readonly archive: OrderArchive,
    private readonly clock: () => UnixMs,
    private readonly stats: ShardStatsBoard,
  ) {
    this.live = new LivePnl(shard, engine, engine.symbols.map((s) => s.name));
  }

  /** The earliest armed dead-man's deadline: the worker runs a batch once it has come. */
  nextDeadlineMs(): UnixMs | null {
    return this.healthValue.state === 'failed' ? null : this.engine.nextDeadlineMs();
  }

  get health(): JournalHealth { return this.healthValue; }

  /** Applies the batch and makes it durable; the frames (indexed like PEERS, null: nothing) may leave once this returns. */
  process(batch: readonly Inbound[]): (ShardOutbound | null)[] {
    const out = [new PeerFrame(() => true), new PeerFrame((login) => this.fixWatch.has(login))];
    const journaled: Journaled[] = [];
    const writable = this.writable();
    let commands = 0;
    if (writable && this.heldQuotes.size > 0) {
      for (const quote of this.heldQuotes.values()) this.tick(quote, out, journaled);
      this.heldQuotes.clear();
    }
    if (writable) this.fireDue(out, journaled);

    for (const { peer, frame } of batch) {
      switch (frame.t) {
        case 'tick':
          if (writable) this.tick(frame.quote, out, journaled);
          else this.heldQuotes.set(frame.quote.symbol, frame.quote);
          break;
        case 'cmds':
          commands += frame.items.length;
          for (const { corr, cmd } of frame.items) {
            if (!writable) {
              out[peer]!.reply(corr, { t: 'unavailable', message: this.unavailableMessage() }, []);
              continue;
            }
            const nowMs = this.clock();
            const outcome = this.engine.apply(cmd, nowMs);
            if (changesState(outcome)) journaled.push({ lsn: this.append(nowMs, cmd, journaled), outcome, quote: null });
            out[peer]!.reply(corr, this.answer(cmd, outcome.result), outcome.events);
            out[1 - peer]!.events(outcome.events);
            for (const o of out) o.changed(outcome.accounts);
            if (outcome.result.ok && outcome.result.kind === 'deadManFired') out[MAIN]!.fired(outcome.result);
          }
          break;
        case 'query':
          out[peer]!.reply(frame.corr, this.query(frame.query), []);
          break;
        case 'watch':
          if (frame.on) this.fixWatch.add(frame.login);
          else this.fixWatch.delete(frame.login);
          break;
        case 'live':
          this.live.want(frame.login, frame.on);
          break;
        case 'stop':
          this.stopping = true;
          break;
      }
    }

    if (commands > 0) this.stats.batch(commands);
    if (journaled.length > 0 && !this.commit(out)) return out.map((o) => o.frame(this.shard, this.journal.durableLsn));
    for (const j of journaled) {
      if (j.quote !== null) this.checkpoint.noteQuote(j.lsn, j.quote);
      this.checkpoint.note(j.lsn, j.outcome);
    }
    return out.map((o) => o.frame(this.shard, this.journal.durableLsn));
  }

  private tick(quote: Quote, out: readonly PeerFrame[], journaled: Journaled[]): void {
    const nowMs = this.clock();
    const cmd: Command = { kind: 'tick', quote };
    const outcome = this.engine.apply(cmd, nowMs);
    if (!changesState(outcome)) {
      this.dirtyQuotes.set(quote.symbol, { quote, nowMs });
      return;
    }
    this.dirtyQuotes.delete(quote.symbol);
    journaled.push({ lsn: this.append(nowMs, cmd, journaled), outcome, quote });
    for (const o of out) {
      o.events(outcome.events);
      o.changed(outcome.accounts);
    }
  }

  /** Fires every dead-man's switch whose deadline has passed by the shard's clock (see the head of this file). */
  private fireDue(out: readonly PeerFrame[], journaled: Journaled[]): void {
    const nowMs = this.clock();
    const next = this.engine.nextDeadlineMs();
    if (next === null || next > nowMs) return;
    for (const due of this.engine.dueDeadMen(nowMs)) {
      const cmd: Command = { kind: 'fireDeadMan', login: due.login, keyId: due.keyId, cause: 'deadline', closePositions: due.closePositions };
      const outcome = this.engine.apply(cmd, nowMs);
      if (!changesState(outcome)) continue;
      journaled.push({ lsn: this.append(nowMs, cmd, journaled), outcome, quote: null });
      for (const o of out) {
        o.events(outcome.events);
        o.changed(outcome.accounts);
      }
      if (outcome.result.ok && outcome.result.kind === 'deadManFired') out[MAIN]!.fired(outcome.result);
    }
  }

  /** Appends the command's record after the quotes ticked since the last one (which have no outcome); its LSN. */
  private append(nowMs: UnixMs, cmd: Command, journaled: Journaled[]): number {
    for (const { quote, nowMs: at } of this.dirtyQuotes.values()) {
      journaled.push({ lsn: this.journal.append({ nowMs: at, cmd: { kind: 'tick', quote } }), outcome: null, quote });
    }
    this.dirtyQuotes.clear();
    return this.journal.append({ nowMs, cmd });
  }

  /** One write, one sync for the whole batch; false (and the answers say so) when it failed. */
  private commit(out: readonly PeerFrame[]): boolean {
    try {
      this.stats.sync(this.journal.commit());
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      this.healthValue = { state: 'failed', message: `${FAILED_MESSAGE}: ${err.message}` };
      for (const o of out) o.unavailable(this.unavailableMessage());
      return false;
    }
    return true;
  }

  /** Whether this batch may apply anything, and the health it reports. */
  private writable(): boolean {
    if (this.healthValue.state === 'failed') return false;
    if (this.journal.ready()) {
      this.healthValue = HEALTHY;
      return true;
    }
    if (this.journal.state === 'full' && this.healthValue.state !== 'full') {
      this.healthValue = { state: 'full', message: 'the disk of the journal is full: orders are refused until a new journal segment can be created' };
    }
    return false;
  }

  private unavailableMessage(): string {
    return this.healthValue.state === 'ok' ? 'the journal is unavailable' : this.healthValue.message;
  }

  private answer(cmd: Command, r: Result | Reject): Answer {
    if (r.ok) return { t: 'done', result: r };
    return { t: 'rejected', reject: this.enrich(cmd, r) };
  }

  /** Adds from the history what the engine no longer holds (see Reject.order). */
  private enrich(cmd: Command, r: Reject): Reject {
    if (r.name === 'duplicate_client_id' && r.order === undefined && r.orderId !== undefined && cmd.kind === 'place') {
      const order = this.archive.order(cmd.login, r.orderId);
      return order === null ? r : { ...r, order };
    }
    if (r.name === 'not_found' && (cmd.kind === 'cancel' || cmd.kind === 'replace')) {
      const order = this.archive.order(cmd.login, cmd.orderId);
      if (order !== null && order.status !== 'pending') return tooLate(order, cmd.kind === 'cancel' ? 'cancelled' : 'replaced');
    }
    return r;
  }

  private query(q: Query): Answer {
    switch (q.kind) {
      case 'account': return { t: 'account', snapshot: this.engine.account(q.login) };
      case 'order': return { t: 'order', order: this.archive.find(q.login, q.ref) };
    }
  }
}
