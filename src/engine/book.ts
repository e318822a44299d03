// Per-symbol index of what a tick can trigger: pending limit/stop orders and positions with SL or
// TP. Bounds make the common tick O(1): nothing triggers while the quote stays inside them. Adding
// an entry widens them; removing one leaves them loose, and the next scan (which finds nothing
// more than the truth) tightens them again, so they are never too narrow.
import type { CloseReason, OrderRecord, PositionRecord, Quote } from './types.js';

class Bounds {
  askAtMost = -Infinity;
  askAtLeast = Infinity;
  bidAtMost = -Infinity;
  bidAtLeast = Infinity;

  hit(q: Quote): boolean {
    return q.ask <= this.askAtMost || q.ask >= this.askAtLeast || q.bid <= this.bidAtMost || q.bid >= this.bidAtLeast;
  }

  reset(): void {
    this.askAtMost = -Infinity;
    this.askAtLeast = Infinity;
    this.bidAtMost = -Infinity;
    this.bidAtLeast = Infinity;
  }
}

/** Buy limit when ask <= price, buy stop when ask >= price, sell limit when bid >= price, sell stop when bid <= price. */
function orderTriggers(o: OrderRecord, q: Quote): boolean {
  if (o.side === 'buy') return o.type === 'limit' ? q.ask <= o.price : q.ask >= o.price;
  return o.type === 'limit' ? q.bid >= o.price : q.bid <= o.price;
}

/** Buys close on bid <= sl or bid >= tp; sells on ask >= sl or ask <= tp. */
function protectionHit(p: PositionRecord, q: Quote): CloseReason | null {
  const price = p.side === 'buy' ? q.bid : q.ask;
  const sign = p.side === 'buy' ? 1 : -1;
  if (p.sl !== null && sign * (price - p.sl) <= 0) return 'sl';
  if (p.tp !== null && sign * (price - p.tp) >= 0) return 'tp';
  return null;
}

export class TriggerBook {
  /** Pending orders by id, in placement order (the order triggers fill in). */
  readonly orders = new Map<string, OrderRecord>();
  /** Positions having an SL or a TP, by ticket. */
  readonly positions = new Map<number, PositionRecord>();
  private readonly orderBounds = new Bounds();
  private readonly positionBounds = new Bounds();

  putOrder(o: OrderRecord): void {
    this.orders.set(o.id, o);
    const b = this.orderBounds;
    if (o.side === 'buy' && o.type === 'limit') b.askAtMost = Math.max(b.askAtMost, o.price);
    else if (o.side === 'buy') b.askAtLeast = Math.min(b.askAtLeast, o.price);
    else if (o.type === 'limit') b.bidAtLeast = Math.min(b.bidAtLeast, o.price);
    else b.bidAtMost = Math.max(b.bidAtMost, o.price);
  }

  /** Indexes a position (or its new state) when it has an SL or a TP. */
  putPosition(p: PositionRecord): void {
    if (p.sl === null && p.tp === null) return;
    this.positions.set(p.ticket, p);
    const b = this.positionBounds;
    if (p.side === 'buy') {
      if (p.sl !== null) b.bidAtMost = Math.max(b.bidAtMost, p.sl);
      if (p.tp !== null) b.bidAtLeast = Math.min(b.bidAtLeast, p.tp);
    } else {
      if (p.sl !== null) b.askAtLeast = Math.min(b.askAtLeast, p.sl);
      if (p.tp !== null) b.askAtMost = Math.max(b.askAtMost, p.tp);
    }
  }

  /** Orders `q` triggers, in placement order; the bounds are rebuilt over the others. */
  triggeredOrders(q: Quote): OrderRecord[] {
    if (!this.orderBounds.hit(q)) return [];
    this.orderBounds.reset();
    const hits: OrderRecord[] = [];
    for (const o of this.orders.values()) {
      if (orderTriggers(o, q)) hits.push(o);
      else this.putOrder(o);
    }
    return hits;
  }

  /** Positions whose SL or TP `q` reaches, in ticket order; the bounds are rebuilt over the others. */
  triggeredPositions(q: Quote): { readonly position: PositionRecord; readonly reason: CloseReason }[] {
    if (!this.positionBounds.hit(q)) return [];
    this.positionBounds.reset();
    const hits: { position: PositionRecord; reason: CloseReason }[] = [];
    for (const p of this.positions.values()) {
      const reason = protectionHit(p, q);
      if (reason !== null) hits.push({ position: p, reason });
      else this.putPosition(p);
    }
    return hits;
  }
}
