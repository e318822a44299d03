// The snapshot a plain subscribe to `positions` and/or `orders` starts with (DECISIONS "WebSocket
// messages"), in pages: an account may hold tens of thousands of positions, and one message of
// megabytes would be built in one turn (stalling every other client) and pass the connection's
// buffer limit however fast its reader. Pages are bounded in bytes; each is built when it is sent,
// one per turn, so other work runs between them; a `snapshot_end` follows the last one.
//
// What the pages hold is fixed when the snapshot is taken: the records (immutable: a change is a
// new record) as of the account's seq then. Floating profit is the profit when a page is built.
import type { OrderRecord, PositionRecord, UnixMs } from '../../engine/types.js';
import { snapshotEndText, snapshotOrderText, snapshotPageText, snapshotPositionText, type Pricing } from './messages.js';
import type { EventChannel } from './ops.js';

/** What the account held when the snapshot was taken. */
interface Taken {
  readonly seq: number;
  readonly positions: readonly PositionRecord[];
  readonly orders: readonly OrderRecord[];
}

export class Snapshot {
  private readonly channels: Set<EventChannel>;
  private taken: Taken | null = null;
  private positionsSent = 0;
  private ordersSent = 0;
  private pages = 0;

  constructor(readonly login: string, channels: readonly EventChannel[], private readonly pageBytes: number) {
    this.channels = new Set(channels);
  }

  get isTaken(): boolean { return this.taken !== null; }

  /** Pages sent so far. */
  get pageCount(): number { return this.pages; }

  /** Channels still wanted (an unsubscribe drops its channel's records). */
  get wanted(): ReadonlySet<EventChannel> { return this.channels; }

  take(seq: number, positions: readonly PositionRecord[], orders: readonly OrderRecord[]): void {
    this.taken = { seq, positions, orders };
  }

  drop(channel: EventChannel): void { this.channels.delete(channel); }

  /**
   * The next page, and with the last one its `snapshot_end` (one text, `\n`-separated); `done`
   * once the end is in it. Only after `take`.
   */
  next(pricing: Pricing, nowMs: UnixMs): { readonly text: string; readonly done: boolean } {
    const t = this.taken!;
    const withPositions = this.channels.has('positions');
    const withOrders = this.channels.has('orders');
    const positions: string[] = [];
    const orders: string[] = [];
    let bytes = 0;
    while (withPositions && this.positionsSent < t.positions.length && bytes < this.pageBytes) {
      const text = snapshotPositionText(t.positions[this.positionsSent++]!, pricing);
      positions.push(text);
      bytes += text.length + 1;
    }
    while (withOrders && this.ordersSent < t.orders.length && bytes < this.pageBytes) {
      const text = snapshotOrderText(t.orders[this.ordersSent++]!, pricing);
      orders.push(text);
      bytes += text.length + 1;
    }
    this.pages++;
    const head = { login: this.login, seq: t.seq, ts: nowMs };
    const page = snapshotPageText({ ...head, page: this.pages, positions: withPositions ? positions : null, orders: withOrders ? orders : null });
    const done = (!withPositions || this.positionsSent === t.positions.length) && (!withOrders || this.ordersSent === t.orders.length);
    if (!done) return { text: page, done };
    const end = snapshotEndText({
      ...head, pages: this.pages, positionCount: withPositions ? t.positions.length : null, orderCount: withOrders ? t.orders.length : null,
    });
    return { text: `${page}\n${end}`, done };
  }
}
