// What a kill switch did, account by account: the positions it closed (with the close events'
// symbol, side, source, volume and price), the pending orders it cancelled, and what it could not
// do: a position that failed to close (market closed, no quote) or an account whose shard could not
// be reached. Built from the shards' KillSwitchResults and the events the CloseTap caught.
import type { KillSwitchResult, OrderRecord, SymbolSpec } from '../engine/types.js';
import { centilotsToLots } from '../market/ticks.js';
import { closedJson, type CloseTap, type ClosedJson } from '../gateway/webhooks/close-tap.js';
import type { ErrorJson } from '../gateway/webhooks/signal-log.js';

export interface CancelledEntry {
  readonly login: string;
  readonly id: string;
  readonly symbol?: string;
  readonly side?: string;
  readonly type?: string;
  readonly source?: string;
  readonly volume?: number;
}

export interface FailedEntry { readonly login: string; readonly ticket: number | null; readonly error: ErrorJson }

export interface KillReport {
  /** Every account the switch was sent to. */
  readonly accounts: readonly string[];
  readonly closed: readonly ClosedJson[];
  readonly cancelled: readonly CancelledEntry[];
  readonly failed: readonly FailedEntry[];
}

export type AccountOutcome =
  | { readonly login: string; readonly result: KillSwitchResult }
  | { readonly login: string; readonly error: ErrorJson };

function cancelledEntry(login: string, id: string, order: OrderRecord | undefined): CancelledEntry {
  if (order === undefined) return { login, id };
  return { login, id, symbol: order.symbol, side: order.side, type: order.type, source: order.source, volume: centilotsToLots(order.volume) };
}

/** Takes each account's closes and cancels from the tap (call while the accounts are watched). */
export function buildReport(outcomes: readonly AccountOutcome[], tap: CloseTap, symbols: ReadonlyMap<string, SymbolSpec>): KillReport {
  const closed: ClosedJson[] = [];
  const cancelled: CancelledEntry[] = [];
  const failed: FailedEntry[] = [];
  for (const outcome of outcomes) {
    const { login } = outcome;
    if ('error' in outcome) {
      failed.push({ login, ticket: null, error: outcome.error });
      continue;
    }
    for (const r of outcome.result.closed) closed.push(closedJson(login, r, tap.takeClose(login, r.ticket), symbols));
    for (const id of outcome.result.cancelled) cancelled.push(cancelledEntry(login, id, tap.takeCancel(login, id)));
    for (const f of outcome.result.failed) {
      const error = f.reject.field === undefined ? { name: f.reject.name, message: f.reject.message } : { name: f.reject.name, message: f.reject.message, field: f.reject.field };
      failed.push({ login, ticket: f.ticket, error });
    }
  }
  return { accounts: outcomes.map((o) => o.login), closed, cancelled, failed };
}
