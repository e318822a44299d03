// What a kill switch did, account by account: the positions it closed (symbol, side, source,
// volume and price, from each close's result), the pending orders it cancelled, and what it could
// not do: a position that failed to close (market closed, no quote) or an account whose shard could
// not be reached.
import type { KillSwitchResult, OrderRecord, SymbolSpec } from '../../engine/types.js';
import { centilotsToLots } from '../../market/ticks.js';
import { closedJson, type ClosedJson } from '../close-json.js';
import type { ErrorJson } from '../webhooks/signal-log.js';

export interface CancelledEntry {
  readonly login: string;
  readonly id: string;
  readonly symbol: string;
  readonly side: string;
  readonly type: string;
  readonly source: string;
  readonly volume: number;
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
  | { readonly t: 'done'; readonly login: string; readonly result: KillSwitchResult }
  | { readonly t: 'failed'; readonly login: string; readonly error: ErrorJson };

function cancelledEntry(login: string, order: OrderRecord): CancelledEntry {
  return { login, id: order.id, symbol: order.symbol, side: order.side, type: order.type, source: order.source, volume: centilotsToLots(order.volume) };
}

export function buildReport(outcomes: readonly AccountOutcome[], symbols: ReadonlyMap<string, SymbolSpec>): KillReport {
  const closed: ClosedJson[] = [];
  const cancelled: CancelledEntry[] = [];
  const failed: FailedEntry[] = [];
  for (const outcome of outcomes) {
    const { login } = outcome;
    if (outcome.t === 'failed') {
      failed.push({ login, ticket: null, error: outcome.error });
      continue;
    }
    for (const r of outcome.result.closed) closed.push(closedJson(login, r, symbols));
    for (const order of outcome.result.cancelled) cancelled.push(cancelledEntry(login, order));
    for (const f of outcome.result.failed) {
      const error = f.reject.field === undefined ? { name: f.reject.name, message: f.reject.message } : { name: f.reject.name, message: f.reject.message, field: f.reject.field };
      failed.push({ login, ticket: f.ticket, error });
    }
  }
  return { accounts: outcomes.map((o) => o.login), closed, cancelled, failed };
}
