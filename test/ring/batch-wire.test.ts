// A shard's batch frames through a real ring and back: replies whose events restate the result
// travel compacted and arrive equal to what the shard produced; anything else travels whole.
import { describe, expect, it } from 'vitest';
import { FrameReader, FrameWriter } from '../../src/ring/frames.js';
import { createDoorbell, createRing } from '../../src/ring/layout.js';
import type { Answer, OutItem, ShardOutbound } from '../../src/shard/protocol.js';
import { fromWire, toWire, type WireOutbound } from '../../src/shard/batch-wire.js';
import type { Command, Outcome } from '../../src/engine/types.js';
import { close, engine, pending, place, WED_NOON } from '../engine/fixtures.js';

function reply(corr: number, o: Outcome): OutItem {
  const answer: Answer = o.result.ok ? { t: 'done', result: o.result } : { t: 'rejected', reject: o.result };
  return { k: 'reply', corr, answer, events: o.events };
}

function batch(items: OutItem[]): ShardOutbound {
  return { t: 'batch', shard: 0, lsn: 7, accounts: [], items };
}

/** Through a ring as the shard writes it and the main thread reads it. */
function carried(frame: ShardOutbound): { readonly wire: WireOutbound; readonly read: ShardOutbound } {
  const channel = createRing(1 << 20, createDoorbell());
  const writer = new FrameWriter<WireOutbound>(channel);
  const reader = new FrameReader<WireOutbound>(channel);
  const wire = toWire(frame);
  expect(writer.tryWrite(wire)).toBe(true);
  const read: ShardOutbound[] = [];
  reader.drain(1, (f) => read.push(fromWire(f)));
  return { wire, read: read[0]! };
}

function kinds(wire: WireOutbound): string[] {
  return wire.t === 'batch' ? wire.items.map((i) => i.k) : [];
}

const killSwitch = (login: string): Command => ({ kind: 'killSwitch', login, scope: 'user', active: true });

describe('shard replies on the wire', () => {
  it('sends a market order result once, inside its events, and reads it back equal', () => {
    const e = engine();
    const market = e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON);
    const limit = e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON);
    expect(limit.accounts).toHaveLength(1);
    const frame: ShardOutbound = { t: 'batch', shard: 0, lsn: 7, accounts: limit.accounts, items: [reply(1, market), reply(2, limit)] };
    const { wire, read } = carried(frame);
    expect(kinds(wire)).toEqual(['placed', 'placed']);
    expect(read).toEqual(frame);
    // One decoded object serves the result and its event.
    const item = read.t === 'batch' ? read.items[0] : undefined;
    if (item?.k !== 'reply' || item.answer.t !== 'done' || item.answer.result.kind !== 'place') throw new Error('not a place reply');
    expect(item.answer.result.order).toBe(item.events.find((ev) => ev.type === 'order')?.order);
  });

  it('sends a kill switch as indexes into its events: full and partial closes, cancellations', () => {
    const e = engine();
    for (let i = 0; i < 3; i++) e.apply(place('usd1', 'EURUSD', i === 1 ? 'sell' : 'buy', 10 + i), WED_NOON);
    const partial = e.apply(place('usd1', 'USDJPY', 'buy', 20), WED_NOON);
    const ticket = partial.result.ok && partial.result.kind === 'place' ? partial.result.position!.ticket : 0;
    e.apply(close('usd1', ticket, 5), WED_NOON + 1);
    e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON);
    const killed = e.apply(killSwitch('usd1'), WED_NOON + 2);
    if (!killed.result.ok || killed.result.kind !== 'killSwitch') throw new Error('kill switch refused');
    expect(killed.result.closed).toHaveLength(4);
    expect(killed.result.cancelled).toHaveLength(1);
    const frame = batch([reply(9, killed)]);
    const { wire, read } = carried(frame);
    expect(kinds(wire)).toEqual(['killed']);
    expect(read).toEqual(frame);
  });

  it('sends whole what its events do not restate, and what is not a reply', () => {
    const e = engine();
    const opened = e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON);
    const refused = e.apply(place('usd1', 'NOPE', 'buy', 10), WED_NOON);
    const ticket = opened.result.ok && opened.result.kind === 'place' ? opened.result.position!.ticket : 0;
    const closed = e.apply(close('usd1', ticket), WED_NOON + 1);
    // A result whose events were split off ahead of it (write-frame.ts) cannot be compacted.
    const withoutEvents: OutItem = { ...reply(3, opened), events: [] };
    const frame = batch([{ k: 'events', events: opened.events }, withoutEvents, reply(4, refused), reply(5, closed)]);
    const { wire, read } = carried(frame);
    expect(kinds(wire)).toEqual(['events', 'reply', 'reply', 'reply']);
    expect(read).toEqual(frame);
  });

  it('does not compact a kill switch whose close differs from its event', () => {
    const e = engine();
    e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON);
    const killed = e.apply(killSwitch('usd1'), WED_NOON + 2);
    if (!killed.result.ok || killed.result.kind !== 'killSwitch') throw new Error('kill switch refused');
    const altered = { ...killed, result: { ...killed.result, closed: killed.result.closed.map((c) => ({ ...c, profit: c.profit + 1 })) } };
    const frame = batch([reply(1, altered)]);
    const { wire, read } = carried(frame);
    expect(kinds(wire)).toEqual(['reply']);
    expect(read).toEqual(frame);
  });
});
