// What a multi-position command (webhook close, kill switch) actually closed and cancelled, taken
// from the shards' event batches: a reply names only tickets and order ids, the events carry the
// symbol, side, source, closed volume and price. A shard delivers a batch's events before its
// replies, and batch listeners run before any reply resolves, so by the time a caller awaits its
// reply the events are here. Only logins being watched are kept, and only while watched.
import type { CloseResult, OrderRecord, PositionEvent, SymbolSpec } from '../../engine/types.js';
import { centilotsToLots, fromTicks } from '../../market/ticks.js';
import type { ShardPool } from '../../shard/pool.js';
import type { ShardOutbound } from '../../shard/protocol.js';
import { money } from '../wire.js';

export interface ClosedJson {
  readonly login: string;
  readonly ticket: number;
  readonly status: string;
  readonly profit: number;
  readonly symbol?: string;
  readonly side?: string;
  readonly source?: string;
  /** Volume closed by this close (lots). */
  readonly volume?: number;
  readonly close_price?: number;
}

/**
 * A close as reports show it; the event adds what the bare result lacks (it is always there, see
 * above). One object literal per shape: reports hold ten thousands of these.
 */
export function closedJson(login: string, result: CloseResult, event: PositionEvent | undefined, symbols: ReadonlyMap<string, SymbolSpec>): ClosedJson {
  const spec = event === undefined ? undefined : symbols.get(event.position.symbol);
  if (event === undefined || spec === undefined) return { login, ticket: result.ticket, status: result.status, profit: money(result.profit) };
  const p = event.position;
  return {
    login, ticket: result.ticket, status: result.status, profit: money(result.profit), symbol: p.symbol, side: p.side, source: p.source,
    volume: centilotsToLots(event.closedVolume ?? 0), close_price: fromTicks(result.closePrice, spec.digits),
  };
}

interface Watched {
  watchers: number;
  /** Close events by ticket, in the order they happened (two partial closes may share a ticket). */
  readonly closes: Map<number, PositionEvent[]>;
  readonly cancels: Map<string, OrderRecord>;
}

export class CloseTap {
  private readonly watched = new Map<string, Watched>();

  constructor(pool: ShardPool) {
    pool.onBatch((batch) => this.onBatch(batch));
  }

  /** Runs `work` with `logins` watched. */
  async watching<T>(logins: readonly string[], work: () => Promise<T>): Promise<T> {
    for (const login of logins) {
      const w = this.watched.get(login);
      if (w) w.watchers += 1;
      else this.watched.set(login, { watchers: 1, closes: new Map(), cancels: new Map() });
    }
    try {
      return await work();
    } finally {
      for (const login of logins) {
        const w = this.watched.get(login)!;
        if (--w.watchers === 0) this.watched.delete(login);
      }
    }
  }

  /** The earliest close event of `ticket` on a watched login not yet taken. */
  takeClose(login: string, ticket: number): PositionEvent | undefined {
    const list = this.watched.get(login)?.closes.get(ticket);
    return list?.shift();
  }

  takeCancel(login: string, orderId: string): OrderRecord | undefined {
    const cancels = this.watched.get(login)?.cancels;
    const order = cancels?.get(orderId);
    cancels?.delete(orderId);
    return order;
  }

  private onBatch(batch: ShardOutbound): void {
    if (this.watched.size === 0) return;
    for (const e of batch.events) {
      if (e.type === 'position') {
        if (e.closedVolume === null) continue;
        const w = this.watched.get(e.position.login);
        if (w === undefined) continue;
        const list = w.closes.get(e.position.ticket);
        if (list) list.push(e);
        else w.closes.set(e.position.ticket, [e]);
      } else if (e.order.status === 'cancelled') {
        this.watched.get(e.order.login)?.cancels.set(e.order.id, e.order);
      }
    }
  }
}
