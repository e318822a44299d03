// Placing, cancelling and replacing orders; ids; client ids (DECISIONS "Orders and positions").
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.js';
import type { ClientIdArchive, ClientIdRecord, Command, OrderEvent } from '../../src/engine/types.js';
import { DAY_MS, engine, init, ok, pending, place, rejected, SAT_NOON, WED_NOON } from './fixtures.js';

function cancel(login: string, orderId: string): Command {
  return { kind: 'cancel', login, orderId, source: 'api', keyId: 'key1' };
}

function replace(login: string, orderId: string, price: number | null, volume: number | null): Command {
  return { kind: 'replace', login, orderId, price, volume, source: 'api', keyId: 'key1' };
}

describe('market orders', () => {
  it('fill at once with price, ticket and filledAt; events are numbered per account', () => {
    const e = engine({ idCounter: 5 });
    const o = e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON);
    const r = ok(o, 'place');
    // Ids and tickets: counter × 64 + shard 3, counter starting after the persisted 5.
    expect(r.order).toMatchObject({ id: String(6 * 64 + 3), status: 'filled', ticket: 7 * 64 + 3, price: 108_510, filledAt: WED_NOON, requestedPrice: null, source: 'api', keyId: 'key1' });
    expect(r.position).toMatchObject({ ticket: 7 * 64 + 3, orderId: r.order.id, volume: 10, openPrice: 108_510, source: 'api', keyId: 'key1' });
    expect(e.idCounter).toBe(7);
    expect(o.events.map((ev) => [ev.type, ev.seq])).toEqual([['order', 1], ['position', 2]]);
    expect(o.events[1]).toMatchObject({ status: 'open', reason: null, profit: null });
    expect(o.accounts).toEqual([expect.objectContaining({ login: 'usd1', seq: 2, margin: 10_850, balance: 1_000_000 })]);
    expect(o.orders).toEqual([r.order]);
    expect(o.positions).toEqual([r.position]);
    const second = ok(e.apply(place('usd1', 'EURUSD', 'sell', 10), WED_NOON), 'place');
    expect(second.order.id).toBe(String(8 * 64 + 3));
    expect(e.account('usd1')?.account.seq).toBe(4);
  });

  it('needs a quote and an open session', () => {
    const e = engine({ quotes: [] });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON))).toMatchObject({ name: 'market_closed', message: 'no quote for EURUSD yet' });
    const fx = engine();
    expect(rejected(fx.apply(place('usd1', 'GBPUSD', 'buy', 10), SAT_NOON))).toMatchObject({ name: 'market_closed' });
    ok(fx.apply(place('usd1', 'GBPUSD', 'buy', 10), WED_NOON), 'place');
  });

  it('validates volume: 0.01 lot up to the symbol maximum', () => {
    const e = engine();
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10_001), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'volume', message: 'volume 100.01 lots must be from 0.01 to 100.00 lots for EURUSD' });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 0), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'volume' });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 1.5), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'volume' });
  });

  it('refuses an order the free margin cannot hold', () => {
    const e = engine();
    // 10 lots need 10 850 USD of margin; the account has 10 000.
    const reject = rejected(e.apply(place('usd1', 'EURUSD', 'buy', 1_000), WED_NOON));
    expect(reject).toMatchObject({ name: 'invalid_order', field: 'volume' });
    expect(reject.message).toBe('insufficient free margin: 10.00 lots of EURUSD needs 10850.00 USD, free margin is 10000.00 USD');
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 900), WED_NOON), 'place');
  });

  it('checks SL below and TP above the entry of a buy, mirrored for a sell', () => {
    const e = engine();
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { sl: 108_510 }), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'sl', message: 'stop-loss 1.08510 of a buy must be below 1.08510' });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { tp: 108_400 }), WED_NOON))).toMatchObject({ field: 'tp' });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'sell', 10, { sl: 108_400 }), WED_NOON))).toMatchObject({ field: 'sl' });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'sell', 10, { tp: 108_500 }), WED_NOON))).toMatchObject({ field: 'tp' });
    const buy = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { sl: 108_000, tp: 109_000 }), WED_NOON), 'place');
    expect(buy.position).toMatchObject({ sl: 108_000, tp: 109_000 });
    ok(e.apply(place('usd1', 'EURUSD', 'sell', 10, { sl: 109_000, tp: 108_000 }), WED_NOON), 'place');
  });

  it('records source, key id and webhook id on order and position', () => {
    const e = engine();
    const r = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { source: 'webhook', keyId: null, webhookId: 'wh9' }), WED_NOON), 'place');
    expect(r.order).toMatchObject({ source: 'webhook', keyId: null, webhookId: 'wh9' });
    expect(r.position).toMatchObject({ source: 'webhook', keyId: null, webhookId: 'wh9' });
  });

  it('unknown account is not_found, unknown symbol a bad_request; nothing changes', () => {
    const e = engine();
    const before = e.snapshot();
    expect(rejected(e.apply(place('nobody', 'EURUSD', 'buy', 10), WED_NOON))).toMatchObject({ name: 'not_found' });
    expect(rejected(e.apply(place('usd1', 'XXXYYY', 'buy', 10), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'symbol' });
    expect(e.snapshot()).toEqual(before);
  });
});

describe('pending orders', () => {
  it('limit buy below ask, stop buy above ask, limit sell above bid, stop sell below bid', () => {
    const e = engine();
    const cases: [ 'buy' | 'sell', 'limit' | 'stop', number, number][] = [
      ['buy', 'limit', 108_510, 108_509], ['buy', 'stop', 108_510, 108_511],
      ['sell', 'limit', 108_500, 108_501], ['sell', 'stop', 108_500, 108_499],
    ];
    for (const [side, type, bad, good] of cases) {
      expect(rejected(e.apply(pending('usd1', 'EURUSD', side, type, bad, 10), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'price' });
      const r = ok(e.apply(pending('usd1', 'EURUSD', side, type, good, 10), WED_NOON), 'place');
      expect(r.order).toMatchObject({ status: 'pending', ticket: null, price: good, requestedPrice: good, filledAt: null });
      expect(r.position).toBeNull();
    }
    expect(rejected(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_600, 10), WED_NOON)).message).toBe('buy limit price 1.08600 must be below the ask 1.08510');
    expect(e.account('usd1')?.pendingOrders).toHaveLength(4);
    expect(e.account('usd1')?.account.margin).toBe(0);
  });

  it('SL/TP are measured from the order price', () => {
    const e = engine();
    expect(rejected(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { sl: 108_000 }), WED_NOON))).toMatchObject({ field: 'sl' });
    expect(rejected(e.apply(pending('usd1', 'EURUSD', 'sell', 'stop', 108_000, 10, { tp: 108_100 }), WED_NOON))).toMatchObject({ field: 'tp' });
    ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { sl: 107_900, tp: 108_300 }), WED_NOON), 'place');
  });

  it('may be placed and cancelled while the session is closed, but needs a quote', () => {
    const e = engine();
    const r = ok(e.apply(pending('usd1', 'GBPUSD', 'buy', 'limit', 126_000, 10), SAT_NOON), 'place');
    ok(e.apply(cancel('usd1', r.order.id), SAT_NOON), 'cancel');
    const noQuote = engine({ quotes: [] });
    expect(rejected(noQuote.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 100_000, 10), WED_NOON))).toMatchObject({ name: 'market_closed' });
  });

  it('price is required for limit/stop and refused for market', () => {
    const e = engine();
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { type: 'limit' }), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'price' });
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { price: 108_000 }), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'price' });
  });
});

describe('cancel', () => {
  it('cancels a pending order once; filled and cancelled orders are invalid_order on field id', () => {
    const e = engine();
    const p = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place');
    const o = e.apply(cancel('usd1', p.order.id), WED_NOON + 5);
    expect(ok(o, 'cancel').order).toMatchObject({ id: p.order.id, status: 'cancelled', closedAt: WED_NOON + 5, reason: null });
    expect((o.events[0] as OrderEvent).order.status).toBe('cancelled');
    expect(e.account('usd1')?.pendingOrders).toEqual([]);
    expect(rejected(e.apply(cancel('usd1', p.order.id), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'id', message: `order ${p.order.id} is cancelled: only pending orders can be cancelled` });
    const m = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    expect(rejected(e.apply(cancel('usd1', m.order.id), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'id', message: `order ${m.order.id} is filled: only pending orders can be cancelled; close its position instead` });
  });

  it('unknown ids and other accounts\' orders are not_found', () => {
    const e = engine();
    const p = ok(e.apply(pending('usd2', 'EURUSD', 'buy', 'limit', 108_000, 10), WED_NOON), 'place');
    expect(rejected(e.apply(cancel('usd1', p.order.id), WED_NOON))).toMatchObject({ name: 'not_found' });
    expect(rejected(e.apply(cancel('usd1', '999999'), WED_NOON))).toMatchObject({ name: 'not_found' });
    expect(e.account('usd2')?.pendingOrders).toHaveLength(1);
  });

  it('remembers settled orders across a restart', () => {
    const e = engine();
    const m = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    const restarted = new Engine(e.snapshot());
    expect(rejected(restarted.apply(cancel('usd1', m.order.id), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'id' });
  });
});

describe('replace (FIX G)', () => {
  it('changes price and volume of a pending order, validated like a placement', () => {
    const e = engine();
    const p = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { sl: 107_000 }), WED_NOON), 'place');
    const r = ok(e.apply(replace('usd1', p.order.id, 108_100, 20), WED_NOON), 'replace');
    expect(r.order).toMatchObject({ id: p.order.id, status: 'pending', price: 108_100, requestedPrice: 108_100, volume: 20 });
    expect(ok(e.apply(replace('usd1', p.order.id, null, 30), WED_NOON), 'replace').order).toMatchObject({ price: 108_100, volume: 30 });
    expect(rejected(e.apply(replace('usd1', p.order.id, 108_600, null), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'price' });
    expect(rejected(e.apply(replace('usd1', p.order.id, 106_900, null), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'sl' });
    expect(rejected(e.apply(replace('usd1', p.order.id, null, 10_001), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'volume' });
    expect(rejected(e.apply(replace('usd1', p.order.id, null, null), WED_NOON))).toMatchObject({ name: 'bad_request' });
    expect(e.account('usd1')?.pendingOrders).toEqual([expect.objectContaining({ price: 108_100, volume: 30 })]);
  });

  it('refuses settled and unknown orders', () => {
    const e = engine();
    const m = ok(e.apply(place('usd1', 'EURUSD', 'buy', 10), WED_NOON), 'place');
    // A market order has no price to amend; any other amend of it comes too late.
    expect(rejected(e.apply(replace('usd1', m.order.id, 108_000, null), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'price' });
    expect(rejected(e.apply(replace('usd1', m.order.id, null, 20), WED_NOON))).toMatchObject({ name: 'invalid_order', field: 'id' });
    expect(rejected(e.apply(replace('usd1', '12345', 108_000, null), WED_NOON))).toMatchObject({ name: 'not_found' });
  });
});

describe('client ids', () => {
  it('a repeat within the retention window returns the original order; it expires after it', () => {
    const e = engine();
    const first = e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON);
    const original = ok(first, 'place').order;
    expect(first.clientIds).toEqual([{ login: 'usd1', clientId: 'c-1', orderId: original.id, atMs: WED_NOON }]);
    const again = rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS - 1));
    expect(again).toMatchObject({ name: 'duplicate_client_id', field: 'client_id', orderId: original.id, order: original });
    // Per account: another account may use the same id.
    ok(e.apply(place('usd2', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS - 1), 'place');
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS), 'place');
  });

  it('returns the current state of a pending original, and survives a restart', () => {
    const e = engine();
    const p = ok(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { clientId: 'p-1' }), WED_NOON), 'place');
    expect(rejected(e.apply(pending('usd1', 'EURUSD', 'buy', 'limit', 108_000, 10, { clientId: 'p-1' }), WED_NOON)).order).toEqual(p.order);
    ok(e.apply(cancel('usd1', p.order.id), WED_NOON), 'cancel');
    const restarted = new Engine(e.snapshot());
    const dup = rejected(restarted.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'p-1' }), WED_NOON + 1));
    expect(dup.order).toMatchObject({ id: p.order.id, status: 'cancelled' });
  });

  it('a rejected order does not take the client id; more than 64 characters is a bad_request', () => {
    const e = engine();
    rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10_001, { clientId: 'c-2' }), WED_NOON));
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-2' }), WED_NOON), 'place');
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'x'.repeat(65) }), WED_NOON))).toMatchObject({ name: 'bad_request', field: 'client_id' });
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'x'.repeat(64) }), WED_NOON), 'place');
  });

  it('with an archive, memory keeps the last memoryMs of them and the archive answers for the rest of the retention', () => {
    const archived = new Map<string, ClientIdRecord>();
    const lookups: string[] = [];
    const archive: ClientIdArchive = {
      memoryMs: 60_000,
      find(login, clientId) { lookups.push(clientId); return archived.get(`${login}/${clientId}`); },
    };
    const e = new Engine(init(), archive);
    const first = e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON);
    for (const c of first.clientIds) archived.set(`${c.login}/${c.clientId}`, c);
    const original = ok(first, 'place').order;
    // In memory: no lookup; a new id is looked up (and missed).
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + 59_999))).toMatchObject({ name: 'duplicate_client_id', orderId: original.id });
    expect(lookups).toEqual(['c-1']);
    // Past memoryMs the engine forgets it (snapshot lists memory only) and the archive answers, for the whole retention.
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-2' }), WED_NOON + 60_000), 'place');
    expect(e.snapshot().clientIds.map((c) => c.clientId)).toEqual(['c-2']);
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS - 1))).toMatchObject({ name: 'duplicate_client_id', orderId: original.id, order: original });
    // Per account, and not past the retention even while the archive still has it.
    ok(e.apply(place('usd2', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS - 1), 'place');
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'c-1' }), WED_NOON + DAY_MS), 'place');
  });

  it('client ids loaded from the store expire by their own time', () => {
    const e = new Engine(init({ clientIds: [{ login: 'usd1', clientId: 'old', orderId: '3', atMs: WED_NOON - DAY_MS }, { login: 'usd1', clientId: 'new', orderId: '67', atMs: WED_NOON }] }));
    ok(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'old' }), WED_NOON), 'place');
    expect(rejected(e.apply(place('usd1', 'EURUSD', 'buy', 10, { clientId: 'new' }), WED_NOON))).toMatchObject({ name: 'duplicate_client_id', orderId: '67' });
  });
});
