// Frames carried (msgpackr-encoded) by the SPSC rings between a shard and its peers (the main thread
// and the FIX thread). Each peer owns one ring into the shard and reads one ring out of it.
import type { AccountRecord, AccountSnapshot, Command, EngineEvent, Quote, Reject, Result } from '../engine/types.js';

export type { AccountSnapshot };

/** Read-only questions a peer may ask a shard; answered from memory, never journaled. */
export type Query =
  | { readonly kind: 'account'; readonly login: string };

export type ShardInbound =
  /** A command whose result the peer awaits under `corr` (unique per peer). */
  | { readonly t: 'cmd'; readonly corr: number; readonly cmd: Command }
  /** A tick: no reply; its events (triggers, SL/TP) reach the peers like any other. */
  | { readonly t: 'tick'; readonly quote: Quote }
  | { readonly t: 'query'; readonly corr: number; readonly query: Query }
  /** The peer wants (or no longer wants) this account's events (the FIX thread, per live session). */
  | { readonly t: 'watch'; readonly login: string; readonly on: boolean }
  /** Drain, commit and stop (SIGTERM). */
  | { readonly t: 'stop' };

export type ReplyBody =
  | { readonly ok: true; readonly result: Result }
  | { readonly ok: false; readonly reject: Reject }
  | { readonly ok: true; readonly snapshot: AccountSnapshot | null };

/**
 * One frame per drained batch and peer, written after the batch's LMDB commit: the replies of
 * this peer's commands and the events the peer wants. Events come first so a peer's read model
 * already holds a change when the reply that caused it resolves.
 */
export interface ShardOutbound {
  readonly t: 'batch';
  readonly shard: number;
  readonly events: readonly EngineEvent[];
  readonly accounts: readonly AccountRecord[];
  readonly replies: readonly { readonly corr: number; readonly body: ReplyBody }[];
}

export type ShardSignal =
  /** The shard has loaded its state and drains its rings. */
  | { readonly t: 'ready'; readonly shard: number; readonly accounts: number }
  /** Rings drained, LMDB closed. */
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
