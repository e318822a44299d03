// What a shard does with one drained batch, independent of how frames arrive: apply every frame in
// order to the engine, journal what changed (quotes ticked since the last journaled command go
// just before the next one, so a replay fills at the same prices), commit once, synchronously, and
// only then hand out replies and events, one frame per peer.
import type { Engine } from '../engine/engine.js';
import type { Command, EngineEvent, Outcome, Quote, UnixMs } from '../engine/types.js';
import { changesState, writeBatch, type Applied } from '../store/account-writer.js';
import type { ShardStore } from '../store/store.js';
import type { ReplyBody, ShardInbound, ShardOutbound } from './protocol.js';

/** Peers of a shard: the main thread and the FIX thread, each with its own ring pair. */
export const PEERS = ['main', 'fix'] as const;
export type Peer = 0 | 1;
export const MAIN: Peer = 0;
export const FIX: Peer = 1;

export interface Inbound { readonly peer: Peer; readonly frame: ShardInbound }


export class ShardCore {
  private journalSeq: number;
  /** Latest quote per symbol ticked since the last journal entry, with the time it was applied. */
  private readonly dirtyQuotes = new Map<string, { readonly quote: Quote; readonly nowMs: UnixMs }>();
  /** Logins whose events the FIX thread wants (live sessions); main wants all. */
  private readonly fixWatch = new Set<string>();
  stopping = false;

  constructor(
    readonly shard: number,
    private readonly engine: Engine,
    private readonly store: ShardStore,
    journalSeq: number,
    private readonly clock: () => UnixMs,
  ) {
    this.journalSeq = journalSeq;
  }

  /** Applies and commits the batch; the frames (indexed like PEERS) may leave once this returns. */
  process(batch: readonly Inbound[]): ShardOutbound[] {
    const applied: Applied[] = [];
    const replies: { corr: number; body: ReplyBody }[][] = PEERS.map(() => []);
    const events: EngineEvent[] = [];
    const accounts = new Map<string, Outcome['accounts'][number]>();
    const collect = (outcome: Outcome): void => {
      for (const e of outcome.events) events.push(e);
      for (const a of outcome.accounts) accounts.set(a.login, a);
    };

    for (const { peer, frame } of batch) {
      const nowMs = this.clock();
      switch (frame.t) {
        case 'tick': {
          const cmd: Command = { kind: 'tick', quote: frame.quote };
          const outcome = this.engine.apply(cmd, nowMs);
          if (changesState(outcome)) {
            this.dirtyQuotes.delete(frame.quote.symbol);
            this.journal(applied, nowMs, cmd, outcome);
            collect(outcome);
          } else {
            this.dirtyQuotes.set(frame.quote.symbol, { quote: frame.quote, nowMs });
          }
          break;
        }
        case 'cmd': {
          const outcome = this.engine.apply(frame.cmd, nowMs);
          if (changesState(outcome)) {
            this.journal(applied, nowMs, frame.cmd, outcome);
            collect(outcome);
          }
          const r = outcome.result;
          replies[peer]!.push({ corr: frame.corr, body: r.ok ? { ok: true, result: r } : { ok: false, reject: r } });
          break;
        }
        case 'query':
          replies[peer]!.push({ corr: frame.corr, body: { ok: true, snapshot: this.engine.account(frame.query.login) } });
          break;
        case 'watch':
          if (frame.on) this.fixWatch.add(frame.login);
          else this.fixWatch.delete(frame.login);
          break;
        case 'stop':
          this.stopping = true;
          break;
      }
    }

    if (applied.length > 0) this.journalSeq = writeBatch(this.store, this.journalSeq, this.engine.idCounter, applied);
    const changed = [...accounts.values()];
    return PEERS.map((_, peer): ShardOutbound => ({
      t: 'batch',
      shard: this.shard,
      events: peer === MAIN ? events : events.filter((e) => this.fixWatch.has(e.type === 'order' ? e.order.login : e.position.login)),
      accounts: peer === MAIN ? changed : changed.filter((a) => this.fixWatch.has(a.login)),
      replies: replies[peer]!,
    }));
  }

  private journal(applied: Applied[], nowMs: UnixMs, cmd: Command, outcome: Outcome): void {
    for (const q of this.dirtyQuotes.values()) applied.push({ entry: { nowMs: q.nowMs, cmd: { kind: 'tick', quote: q.quote } }, outcome: null });
    this.dirtyQuotes.clear();
    applied.push({ entry: { nowMs, cmd }, outcome });
  }
}
