// How a shard's batch frames travel a ring: replies whose result repeats what their events already
// carry send it once. A place result's order and position are the very objects of its events, and
// a kill switch's closes and cancellations are its events restated; encoding both cost the shard
// twice the fields (a market order's reply: ~80 fields, ~35 of them repeated; a kill switch's
// 10,000 closes: 110,000 repeated fields) and the reading thread twice the objects.
//
// The shard thread compacts a reply only when its events reproduce the result exactly: the same
// order and position objects, and for every close each field equal to what the close's event
// gives. Anything else travels whole. The reading thread expands before anyone sees the frame, so
// the rest of the service only ever handles ShardOutbound.
import { closeResult } from '../engine/positions.js';
import type { CloseResult, EngineEvent, KillSwitchResult, OrderRecord, PlaceResult, PositionEvent } from '../engine/types.js';
import type { OutItem, ShardOutbound } from './protocol.js';

/** `order` and `position` index the reply's events (position -1: the order opened none). */
interface PlacedItem {
  readonly k: 'placed';
  readonly corr: number;
  readonly order: number;
  readonly position: number;
  readonly events: readonly EngineEvent[];
}

/** Each close and cancellation indexes the reply's events. */
interface KilledItem {
  readonly k: 'killed';
  readonly corr: number;
  readonly login: string;
  readonly closed: readonly number[];
  readonly cancelled: readonly number[];
  readonly failed: KillSwitchResult['failed'];
  readonly events: readonly EngineEvent[];
}

type WireItem = OutItem | PlacedItem | KilledItem;
type Batch = Extract<ShardOutbound, { t: 'batch' }>;

export type WireOutbound = Exclude<ShardOutbound, { t: 'batch' }> | (Omit<Batch, 'items'> & { readonly items: readonly WireItem[] });

/** The close result a close's event states. */
function closeOf(e: PositionEvent): CloseResult | null {
  if (e.status === 'open' || e.closePrice === null || e.profit === null || e.closedVolume === null) return null;
  return closeResult(e.position, e.status, e.closePrice, e.profit, e.closedVolume, e.status === 'closed' ? 0 : e.position.volume);
}

function sameClose(a: CloseResult, b: CloseResult): boolean {
  return a.ticket === b.ticket && a.status === b.status && a.symbol === b.symbol && a.side === b.side && a.source === b.source
    && a.closePrice === b.closePrice && a.profit === b.profit && a.closedVolume === b.closedVolume && a.volume === b.volume;
}

function placed(corr: number, r: PlaceResult, events: readonly EngineEvent[]): PlacedItem | null {
  const order = events.findIndex((e) => e.type === 'order' && e.order === r.order);
  const position = r.position === null ? -1 : events.findIndex((e) => e.type === 'position' && e.position === r.position);
  if (order < 0 || (r.position !== null && position < 0)) return null;
  return { k: 'placed', corr, order, position, events };
}

/** Closes match position events in order, cancellations order events in order. */
function killed(corr: number, r: KillSwitchResult, events: readonly EngineEvent[]): KilledItem | null {
  const closed: number[] = [];
  const cancelled: number[] = [];
  events.forEach((e, i) => {
    if (e.type === 'position') {
      const want = r.closed[closed.length];
      const stated = closeOf(e);
      if (want !== undefined && stated !== null && sameClose(want, stated)) closed.push(i);
    } else if (e.order === r.cancelled[cancelled.length]) {
      cancelled.push(i);
    }
  });
  if (closed.length !== r.closed.length || cancelled.length !== r.cancelled.length) return null;
  return { k: 'killed', corr, login: r.login, closed, cancelled, failed: r.failed, events };
}

function compact(item: OutItem): WireItem {
  if (item.k !== 'reply' || item.answer.t !== 'done') return item;
  const { result } = item.answer;
  if (result.kind === 'place') return placed(item.corr, result, item.events) ?? item;
  if (result.kind === 'killSwitch') return killed(item.corr, result, item.events) ?? item;
  return item;
}

function eventAt<T extends EngineEvent['type']>(events: readonly EngineEvent[], i: number, type: T): Extract<EngineEvent, { type: T }> {
  const e = events[i];
  if (e?.type !== type) throw new Error(`wire reply: event ${i} is not a ${type} event`);
  return e as Extract<EngineEvent, { type: T }>;
}

function expand(item: WireItem): OutItem {
  switch (item.k) {
    case 'placed': {
      const { events } = item;
      const order: OrderRecord = eventAt(events, item.order, 'order').order;
      const position = item.position < 0 ? null : eventAt(events, item.position, 'position').position;
      return { k: 'reply', corr: item.corr, answer: { t: 'done', result: { ok: true, kind: 'place', order, position } }, events };
    }
    case 'killed': {
      const { events } = item;
      const closed = item.closed.map((i) => {
        const close = closeOf(eventAt(events, i, 'position'));
        if (close === null) throw new Error(`wire reply: event ${i} is not a close`);
        return close;
      });
      const cancelled = item.cancelled.map((i) => eventAt(events, i, 'order').order);
      const result: KillSwitchResult = { ok: true, kind: 'killSwitch', login: item.login, closed, cancelled, failed: item.failed };
      return { k: 'reply', corr: item.corr, answer: { t: 'done', result }, events };
    }
    default:
      return item;
  }
}

/** The frame as the shard writes it to a ring. */
export function toWire(frame: ShardOutbound): WireOutbound {
  if (frame.t !== 'batch') return frame;
  return { ...frame, items: frame.items.map(compact) };
}

/** The frame as the reading thread hands it on. */
export function fromWire(frame: WireOutbound): ShardOutbound {
  if (frame.t !== 'batch') return frame;
  return { ...frame, items: frame.items.map(expand) };
}
