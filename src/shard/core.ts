// What a shard does with one drained batch, independent of how frames arrive: apply every frame in
// order to the engine, append a journal record for each command that changed state (quotes ticked
// since the last record go just before the next one, so a replay fills at the same prices), make
// them durable with one commit, and only then hand out answers and events, one frame per peer.
// The state tables are a checkpoint behind the journal: the batch's outcomes are noted for it once
// the journal holds them, and nobody waits for it. The noting itself waits until the batch's frames
// are out (noteDurable()): for a kill switch of 10,000 closes it is milliseconds the peers would
// otherwise wait for, and nothing can read the noted state in between, since a shard answers
// queries only inside stage(), which notes first, as does follow().
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
//
// process() is the single-process path: the local journal commits synchronously. A cluster shard
// (src/cluster) journals to a replicated stream whose acknowledgement is asynchronous: it calls
// stage(), awaits its commit, then settle(); as a replica of another node's shard it applies what
// that shard made durable through follow().
import type { Engine } from '../engine/engine.js';
import { tooLate } from '../engine/orders.js';
import type { AccountRecord, Command, DeadManFiredResult, EngineEvent, Outcome, Quote, Reject, Result, UnixMs } from '../engine/types.js';
import type { CheckpointWriter } from '../store/checkpoint.js';
import type { JournalEntry } from '../store/journal/entry.js';
import { JournalError, type JournalState } from '../store/journal/writer.js';
import { LivePnl } from './live-pnl.js';
import type { OrderArchive } from './order-archive.js';
import type { ShardStatsBoard } from './stats.js';
import type { Answer, JournalHealth, OutItem, Query, ShardInbound, ShardOutbound } from './protocol.js';

/**
 * Peers of a shard: the main thread and the FIX thread, each with its own ring pair, and in a
 * cluster the other nodes, whose commands arrive over NATS and get replies only (their events
 * reach them through the replicated journal).
 */
export const PEERS = ['main', 'fix', 'remote'] as const;
export type Peer = 0 | 1 | 2;
export const MAIN: Peer = 0;
export const FIX: Peer = 1;
export const REMOTE: Peer = 2;

/** What a shard needs of its journal while it applies a batch. */
export interface BatchJournal {
  /** Encodes the record; returns its LSN (durable once committed). */
  append(entry: JournalEntry): number;
  /** Whether a batch may journal now (see JournalWriter.ready). */
  ready(): boolean;
  readonly state: JournalState;
  readonly durableLsn: number;
}

/** The local journal: commit() writes and syncs the batch, returning the sync's microseconds. */
export interface SyncJournal extends BatchJournal { commit(): number }

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
export class PeerFrame {
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

/** Who sent a command: the peer and its correlation id. */
export interface Origin { readonly peer: Peer; readonly corr: number }

/** A record appended in this batch, noted for the checkpoint once the batch is durable. */
export interface Journaled { readonly lsn: number; readonly outcome: Outcome | null; readonly quote: Quote | null; readonly origin: Origin | null }

/** A batch applied and journaled, waiting for its commit. */
export interface Staged { readonly out: readonly PeerFrame[]; readonly journaled: readonly Journaled[] }

/** A record another node's shard made durable, applied here as its replica; `origin` when one of this node's peers sent it. */
export interface Replicated { readonly lsn: number; readonly entry: JournalEntry; readonly origin: Origin | null }

const HEALTHY: JournalHealth = { state: 'ok' };
const FAILED_MESSAGE = 'the shard can no longer make orders durable (its journal failed); nothing is accepted until the service restarts';

export class ShardCore<J extends BatchJournal = SyncJournal> {
  /** Latest quote per symbol ticked since the last journal record, with the time it was applied. */
  private readonly dirtyQuotes = new Map<string, { readonly quote: Quote; readonly nowMs: UnixMs }>();
  /** Ticks that arrived while the journal could take nothing: applied once it can. */
  private readonly heldQuotes = new Map<string, Quote>();
  /** Logins whose events the FIX thread wants (live sessions); main wants all. */
  private readonly fixWatch = new Set<string>();
  private healthValue: JournalHealth = HEALTHY;
  /** Records of the last settled batch, durable and not yet noted for the checkpoint. */
  private unnoted: readonly Journaled[] = [];
  stopping = false;
  /** Live P&L of the accounts the main thread's stream watches (swept by the worker, behind the order path). */
  readonly live: LivePnl;

  constructor(
    readonly shard: number,
    private readonly engine: Engine,
    private readonly journal: J,
    private readonly checkpoint: CheckpointWriter,
    private readonly archive: OrderArchive,
    private readonly clock: () => UnixMs,
    private readonly stats: ShardStatsBoard,
  ) {
    this.live = new LivePnl(shard, engine, engine.symbols.map((s) => s.name));
  }

  get health(): JournalHealth { return this.healthValue; }

  /** The earliest armed dead-man's deadline: the worker runs a batch once it has come. */
  nextDeadlineMs(): UnixMs | null {
    return this.healthValue.state === 'failed' ? null : this.engine.nextDeadlineMs();
  }

  /**
   * Applies the batch and makes it durable; the frames (indexed like PEERS, null: nothing) may
   * leave once this returns, and noteDurable() follows them.
   */
  process(this: ShardCore<SyncJournal>, batch: readonly Inbound[]): (ShardOutbound | null)[] {
    const staged = this.stage(batch, 'fire');
    return this.settle(staged, staged.journaled.length === 0 ? null : this.commitSync());
  }

  /**
   * Applies the batch and appends its records; nothing may leave before settle(). Only the
   * shard's writer fires due dead-man's switches (`fire`); a cluster replica stages its peers'
   * local frames with `hold` and follows the writer's firings.
   */
  stage(batch: readonly Inbound[], deadlines: 'fire' | 'hold'): Staged {
    this.noteDurable();
    const out = this.peerFrames();
    const journaled: Journaled[] = [];
    const writable = this.writable();
    let commands = 0;
    if (writable && this.heldQuotes.size > 0) {
      for (const quote of this.heldQuotes.values()) this.tick(quote, out, journaled);
      this.heldQuotes.clear();
    }
    if (writable && deadlines === 'fire') this.fireDue(out, journaled);

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
            if (changesState(outcome)) journaled.push({ lsn: this.append(nowMs, cmd, journaled), outcome, quote: null, origin: { peer, corr } });
            this.deliver(out, { peer, corr }, this.answer(cmd, outcome.result), outcome);
            if (outcome.result.ok && outcome.result.kind === 'deadManFired') out[MAIN]!.fired(outcome.result);
          }
          break;
        case 'query':
          out[peer]!.reply(frame.corr, this.query(frame.query), []);
          break;
        case 'watch':
          this.watch(frame);
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
    return { out, journaled };
  }

  /**
   * Ends a staged batch: with `failure` null its records are durable and its outcomes are noted
   * for the checkpoint by noteDurable(); otherwise the shard stops accepting (health failed) and
   * the answers say so.
   */
  settle(staged: Staged, failure: string | null): (ShardOutbound | null)[] {
    if (this.unnoted.length > 0) throw new Error('a batch settled before the one before it was noted for the checkpoint');
    if (failure !== null) {
      this.healthValue = { state: 'failed', message: `${FAILED_MESSAGE}: ${failure}` };
      for (const o of staged.out) o.unavailable(this.unavailableMessage());
    } else {
      this.unnoted = staged.journaled;
    }
    return staged.out.map((o) => o.frame(this.shard, this.journal.durableLsn));
  }

  /**
   * Notes the last settled batch's outcomes for the checkpoint: call once its frames are written,
   * before the checkpoint is begun or its stream position moved (stage() and follow() call it too).
   */
  noteDurable(): void {
    const journaled = this.unnoted;
    if (journaled.length === 0) return;
    this.unnoted = [];
    for (const j of journaled) {
      if (j.quote !== null) this.checkpoint.noteQuote(j.lsn, j.quote);
      this.checkpoint.note(j.lsn, j.outcome);
    }
  }

  /**
   * Applies records another node's shard made durable (this shard is its replica): the same
   * engine steps, the outcomes noted for the checkpoint, events to the peers, and a reply to the
   * peer that sent the command when it was one of this node's.
   */
  follow(records: readonly Replicated[]): (ShardOutbound | null)[] {
    this.noteDurable();
    const out = this.peerFrames();
    let lsn = this.journal.durableLsn;
    for (const { lsn: at, entry, origin } of records) {
      const outcome = this.engine.apply(entry.cmd, entry.nowMs);
      if (entry.cmd.kind === 'tick') this.checkpoint.noteQuote(at, entry.cmd.quote);
      this.checkpoint.note(at, outcome);
      this.deliver(out, origin, this.answer(entry.cmd, outcome.result), outcome);
      lsn = at;
    }
    return out.map((o) => o.frame(this.shard, lsn));
  }

  /** A peer's watch (the FIX thread's live sessions). */
  watch(frame: Extract<ShardInbound, { t: 'watch' }>): void {
    if (frame.on) this.fixWatch.add(frame.login);
    else this.fixWatch.delete(frame.login);
  }

  private peerFrames(): PeerFrame[] {
    return [new PeerFrame(() => true), new PeerFrame((login) => this.fixWatch.has(login)), new PeerFrame(() => false)];
  }

  /** The command's answer with its events to its sender, its events to the other peers. */
  private deliver(out: readonly PeerFrame[], origin: Origin | null, answer: Answer, outcome: Outcome): void {
    out.forEach((o, peer) => {
      if (peer === origin?.peer) o.reply(origin.corr, answer, outcome.events);
      else o.events(outcome.events);
      o.changed(outcome.accounts);
    });
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
    journaled.push({ lsn: this.append(nowMs, cmd, journaled), outcome, quote, origin: null });
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
      journaled.push({ lsn: this.append(nowMs, cmd, journaled), outcome, quote: null, origin: null });
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
      journaled.push({ lsn: this.journal.append({ nowMs: at, cmd: { kind: 'tick', quote } }), outcome: null, quote, origin: null });
    }
    this.dirtyQuotes.clear();
    return this.journal.append({ nowMs, cmd });
  }

  /** One write, one sync for the whole batch; the failure's message, or null once durable. */
  private commitSync(this: ShardCore<SyncJournal>): string | null {
    try {
      this.stats.sync(this.journal.commit());
    } catch (err) {
      if (!(err instanceof JournalError)) throw err;
      return err.message;
    }
    return null;
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
