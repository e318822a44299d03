// Frames carried (msgpackr-encoded) by the SPSC rings between a shard and its peers (the main thread
// and the FIX thread). Each peer owns one ring into the shard and reads one ring out of it. A
// batch travels in a wire form (batch-wire.ts: its events as one block of event-codec.ts, results
// its events restate sent once) that the reading thread turns back into a ShardOutbound.
import type { AccountRecord, AccountSnapshot, Cents, Command, DeadManFiredResult, EngineEvent, OrderRecord, Quote, Reject, Result, UnixMs } from '../engine/types.js';

export type { AccountSnapshot };

/** Read-only questions a peer may ask a shard; answered from memory or its history, never journaled. */
export type Query =
  | { readonly kind: 'account'; readonly login: string }
  /** An order by id, or by the client id it was placed with, from any time the shard remembers. */
  | { readonly kind: 'order'; readonly login: string; readonly ref: OrderRef };

export type OrderRef = { readonly by: 'id'; readonly orderId: string } | { readonly by: 'clientId'; readonly clientId: string };

/** A command whose answer the peer awaits under `corr` (unique per peer). */
export interface CommandItem { readonly corr: number; readonly cmd: Command }

export type ShardInbound =
  /**
   * Commands, applied in order and journaled in the batch they arrive in: a fan-out (webhook
   * signal, kill switch) sends a shard all of its share in one frame.
   */
  | { readonly t: 'cmds'; readonly items: readonly CommandItem[] }
  /** A tick: no answer; its events (triggers, SL/TP) reach the peers like any other. */
  | { readonly t: 'tick'; readonly quote: Quote }
  | { readonly t: 'query'; readonly corr: number; readonly query: Query }
  /** The peer wants (or no longer wants) this account's events (the FIX thread, per live session). */
  | { readonly t: 'watch'; readonly login: string; readonly on: boolean }
  /** The main thread wants (or no longer wants) this account's live P&L (its stream has subscribers). */
  | { readonly t: 'live'; readonly login: string; readonly on: boolean }
  /** Drain, checkpoint and stop (SIGTERM). */
  | { readonly t: 'stop' };

export type Answer =
  | { readonly t: 'done'; readonly result: Result }
  /**
   * The engine's refusal. duplicate_client_id always carries the original order, and refusing a
   * cancel or replace of an order that is no longer pending carries that order.
   */
  | { readonly t: 'rejected'; readonly reject: Reject }
  /** The journal cannot make anything durable now (disk full, failed sync): nothing was applied. */
  | { readonly t: 'unavailable'; readonly message: string }
  | { readonly t: 'account'; readonly snapshot: AccountSnapshot | null }
  | { readonly t: 'order'; readonly order: OrderRecord | null };

export type OutItem =
  /** The answer to one of this peer's commands or queries, with the events the command caused. */
  | { readonly k: 'reply'; readonly corr: number; readonly answer: Answer; readonly events: readonly EngineEvent[] }
  /** Events nobody of this peer asked for: ticks, and commands of the other peer. */
  | { readonly k: 'events'; readonly events: readonly EngineEvent[] }
  /**
   * To the main thread: a dead-man's switch fired (its deadline passed, or a connection asked for
   * it dropped), whichever peer caused it; its events travel as usual, this is the notice (audit).
   */
  | { readonly k: 'fired'; readonly result: DeadManFiredResult; readonly events: readonly EngineEvent[] };

export type JournalHealth =
  | { readonly state: 'ok' }
  | { readonly state: 'full' | 'failed'; readonly message: string };

/**
 * Whether the shard's checkpoints become durable. Failing ones refuse nothing (orders are durable
 * in the journal), but the journal then keeps everything since the last durable one, and a start
 * replays all of it.
 */
export type CheckpointHealth =
  | { readonly state: 'ok' }
  | { readonly state: 'failing'; readonly failedInARow: number; readonly sinceMs: UnixMs };

export type ShardOutbound =
  /**
   * One frame per processed batch and peer, written once the batch's journal records are durable.
   * `accounts` holds the changed accounts' final state; `items` come in the engine's order, so a
   * peer applying them in turn sees every account's events in seq order, and a reply's events
   * before the reply resolves.
   */
  | {
    readonly t: 'batch';
    readonly shard: number;
    /** The shard's journal is durable up to here: the checkpoint that covers this LSN covers the batch. */
    readonly lsn: number;
    readonly accounts: readonly AccountRecord[];
    readonly items: readonly OutItem[];
  }
  /** To the main thread: the shard's tables now hold everything up to this journal LSN. */
  | { readonly t: 'checkpoint'; readonly shard: number; readonly lsn: number }
  /** To the main thread, when it changes: whether the shard can make orders durable. */
  | { readonly t: 'health'; readonly shard: number; readonly journal: JournalHealth }
  /** To the main thread, after each failed checkpoint and once one is durable again. */
  | { readonly t: 'checkpointHealth'; readonly shard: number; readonly checkpoint: CheckpointHealth }
  /** To the main thread, once a minute: every account's balance and equity, for the equity history. */
  | { readonly t: 'equity'; readonly shard: number; readonly atMs: UnixMs; readonly samples: readonly EquitySample[] }
  /** To the main thread: live P&L of the accounts it asked for, conflated (see live-pnl.ts). */
  | { readonly t: 'live'; readonly shard: number; readonly ts: UnixMs; readonly accounts: readonly LiveAccount[] };

/** An account's floating figures now: equity and each open position's profit that changed since the last report. */
export interface LiveAccount {
  readonly login: string;
  readonly equity: Cents;
  readonly positions: readonly LivePosition[];
}

export interface LivePosition {
  readonly ticket: number;
  readonly symbol: string;
  /** Account cents; null while a quote needed to price it is missing. */
  readonly profit: Cents | null;
}

export interface EquitySample { readonly login: string; readonly balance: Cents; readonly equity: Cents }

export type ShardSignal =
  /** The shard has recovered its state and drains its rings. */
  | { readonly t: 'ready'; readonly shard: number; readonly accounts: number }
  /** Rings drained, checkpoint written, LMDB closed. */
  | { readonly t: 'stopped'; readonly shard: number };

/** Which shard owns an account: FNV-1a of the login, modulo the shard count. Stable across restarts. */
export function shardOf(login: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < login.length; i++) {
    h ^= login.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}
