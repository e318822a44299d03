// How a shard's batch frame travels a ring. Two things differ from the ShardOutbound the shard and
// its peers handle, and the reading thread undoes both before anyone sees the frame:
//
// - The events of every item go as one block of the hand-written event codec (event-codec.ts),
//   in item order, with the batch's changed accounts after them; each item says how many of the
//   events are its own.
// - A reply whose result its events restate sends it once. A place result's order and position
//   are the very objects of its events, and a kill switch's closes and cancellations are its
//   events restated; encoding both cost the shard twice the fields (a market order's reply: ~35 of
//   ~80 fields; a kill switch of 10,000 closes: 110,000) and the reading thread twice the objects.
//   The shard compacts a reply only when its events reproduce the result exactly: the same order
//   and position objects, and for every close each field equal to what its event gives. Anything
//   else travels whole.
import { closeResult } from '../engine/positions.js';
import type { CloseResult, EngineEvent, KillSwitchResult, OrderRecord, PlaceResult, PositionEvent } from '../engine/types.js';
import { decodeBlock, EventEncoder } from './event-codec.js';
import type { OutItem, ShardOutbound } from './protocol.js';

/** An item as it travels: `n` is how many of the block's events, in order, are its own. */
type Carried<T> = T extends { readonly events: readonly EngineEvent[] } ? Omit<T, 'events'> & { readonly n: number } : never;

/** `order` and `position` index the item's own events (position -1: the order opened none). */
interface PlacedItem { readonly k: 'placed'; readonly corr: number; readonly order: number; readonly position: number; readonly n: number }

/** Each close and cancellation indexes the item's own events. */
interface KilledItem {
  readonly k: 'killed';
  readonly corr: number;
  readonly login: string;
  readonly closed: readonly number[];
  readonly cancelled: readonly number[];
  readonly failed: KillSwitchResult['failed'];
  readonly n: number;
}

type WireItem = Carried<OutItem> | PlacedItem | KilledItem;
type Batch = Extract<ShardOutbound, { t: 'batch' }>;

export type WireOutbound =
  | Exclude<ShardOutbound, { t: 'batch' }>
  | (Omit<Batch, 'items' | 'accounts'> & { readonly block: Uint8Array; readonly items: readonly WireItem[] });

// One per thread: a frame is encoded in one synchronous run.
const encoder = new EventEncoder();

/** The close result a close's event states. */
function closeOf(e: PositionEvent): CloseResult | null {
  if (e.status === 'open' || e.closePrice === null || e.profit === null || e.closedVolume === null) return null;
  return closeResult(e.position, e.status, e.closePrice, e.profit, e.closedVolume, e.status === 'closed' ? 0 : e.position.volume);
}

/** Whether closeOf(e) would equal `r`, field by field (without building it). */
function statesClose(e: PositionEvent, r: CloseResult): boolean {
  const p = e.position;
  return e.status === r.status && p.ticket === r.ticket && p.symbol === r.symbol && p.side === r.side && p.source === r.source
    && e.closePrice === r.closePrice && e.profit === r.profit && e.closedVolume === r.closedVolume
    && (e.status === 'closed' ? 0 : p.volume) === r.volume;
}

function placed(corr: number, r: PlaceResult, events: readonly EngineEvent[]): PlacedItem | null {
  const order = events.findIndex((e) => e.type === 'order' && e.order === r.order);
  const position = r.position === null ? -1 : events.findIndex((e) => e.type === 'position' && e.position === r.position);
  if (order < 0 || (r.position !== null && position < 0)) return null;
  return { k: 'placed', corr, order, position, n: events.length };
}

/** Closes match position events in order, cancellations order events in order. */
function killed(corr: number, r: KillSwitchResult, events: readonly EngineEvent[]): KilledItem | null {
  const closed: number[] = [];
  const cancelled: number[] = [];
  events.forEach((e, i) => {
    if (e.type === 'position') {
      const want = r.closed[closed.length];
      if (want !== undefined && statesClose(e, want)) closed.push(i);
    } else if (e.order === r.cancelled[cancelled.length]) {
      cancelled.push(i);
    }
  });
  if (closed.length !== r.closed.length || cancelled.length !== r.cancelled.length) return null;
  return { k: 'killed', corr, login: r.login, closed, cancelled, failed: r.failed, n: events.length };
}

function carried(item: OutItem): WireItem {
  const n = item.events.length;
  switch (item.k) {
    case 'reply': {
      if (item.answer.t === 'done') {
        const { result } = item.answer;
        const compact = result.kind === 'place' ? placed(item.corr, result, item.events)
          : result.kind === 'killSwitch' ? killed(item.corr, result, item.events) : null;
        if (compact !== null) return compact;
      }
      return { k: 'reply', corr: item.corr, answer: item.answer, n };
    }
    case 'events': return { k: 'events', n };
    case 'fired': return { k: 'fired', result: item.result, n };
  }
}

function eventAt<T extends EngineEvent['type']>(events: readonly EngineEvent[], i: number, type: T): Extract<EngineEvent, { type: T }> {
  const e = events[i];
  if (e?.type !== type) throw new Error(`wire reply: event ${i} is not a ${type} event`);
  return e as Extract<EngineEvent, { type: T }>;
}

function expanded(item: WireItem, events: readonly EngineEvent[]): OutItem {
  switch (item.k) {
    case 'placed': {
      const order: OrderRecord = eventAt(events, item.order, 'order').order;
      const position = item.position < 0 ? null : eventAt(events, item.position, 'position').position;
      return { k: 'reply', corr: item.corr, answer: { t: 'done', result: { ok: true, kind: 'place', order, position } }, events };
    }
    case 'killed': {
      const closed = item.closed.map((i) => {
        const close = closeOf(eventAt(events, i, 'position'));
        if (close === null) throw new Error(`wire reply: event ${i} is not a close`);
        return close;
      });
      const cancelled = item.cancelled.map((i) => eventAt(events, i, 'order').order);
      const result: KillSwitchResult = { ok: true, kind: 'killSwitch', login: item.login, closed, cancelled, failed: item.failed };
      return { k: 'reply', corr: item.corr, answer: { t: 'done', result }, events };
    }
    case 'reply': return { k: 'reply', corr: item.corr, answer: item.answer, events };
    case 'events': return { k: 'events', events };
    case 'fired': return { k: 'fired', result: item.result, events };
  }
}

/** The frame as the shard writes it to a ring. */
export function toWire(frame: ShardOutbound): WireOutbound {
  if (frame.t !== 'batch') return frame;
  let all = frame.items.length === 1 ? frame.items[0]!.events : null;
  if (all === null) {
    const joined: EngineEvent[] = [];
    for (const item of frame.items) for (const e of item.events) joined.push(e);
    all = joined;
  }
  return { t: 'batch', shard: frame.shard, lsn: frame.lsn, block: encoder.encode(all, frame.accounts), items: frame.items.map(carried) };
}

/** The frame as the reading thread hands it on. */
export function fromWire(frame: WireOutbound): ShardOutbound {
  if (frame.t !== 'batch') return frame;
  const { events: all, accounts } = decodeBlock(frame.block);
  let at = 0;
  const items = frame.items.map((item) => {
    const own = item.n === all.length && at === 0 ? all : all.slice(at, at + item.n);
    at += item.n;
    return expanded(item, own);
  });
  return { t: 'batch', shard: frame.shard, lsn: frame.lsn, accounts, items };
}
