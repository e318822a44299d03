// Amend, cancel-all and close-all through the real process: PATCH /v1/orders/{id} and
// /v1/positions/{ticket} (events carry what changed), DELETE /v1/orders and /v1/positions (one
// answer listing each item, charged to the trade limit once), and their bad input: each a clear
// error in the documented shape that changes nothing.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { operator, RestClient } from '../rest/support/client.js';
import { expectError, expectOk as ok } from '../rest/support/expect.js';
import { OTHER_LOGIN, REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from '../rest/support/seed.js';
import { TestStream } from '../stream/support/stream-client.js';

let server: RunningServer;
let traders = 0;

/** XAGUSD trades 24x7 here until the close-all test restarts the service with its session closed. */
function seed(xagClosed: boolean): Record<string, unknown> {
  const s = restSeed(Date.now());
  const symbols = (s['symbols'] as Record<string, unknown>[]).map((sym) => (sym['name'] === 'XAGUSD' && !xagClosed ? { ...sym, session: '24x7' } : sym));
  return { ...s, symbols };
}

function trader(): { api: RestClient; login: string } {
  const login = TRADER_LOGINS[traders++]!;
  return { login, api: new RestClient(server.httpPort, traderKey(login)) };
}

async function quote(symbol: string, bid: number, ask: number): Promise<void> {
  expect((await operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol, bid, ask })).status).toBe(200);
}

const limitBuy = (login: string, price: number, extra: Record<string, unknown> = {}) =>
  ({ login, symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 0.1, price, ...extra });
const marketBuy = (login: string, symbol = 'EURUSD') => ({ login, symbol, side: 'buy', type: 'market', volume: 0.1 });

beforeAll(async () => {
  server = await startServer({ seed: seed(false), config: REST_CONFIG });
  await quote('EURUSD', 1.1, 1.1002);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe('PATCH /v1/orders/{id}', () => {
  it('amends price, sl and tp of a pending order; its stream event lists what changed', async () => {
    const t = trader();
    const s = await TestStream.connect(server.httpPort, traderKey(t.login));
    await s.request({ op: 'subscribe', id: 1, channels: ['orders'] });
    const placed = ok(await t.api.post('/v1/orders', limitBuy(t.login, 1.09, { sl: 1.08 }))).body;
    const amended = ok(await t.api.patch(`/v1/orders/${placed.id}`, { price: 1.095, sl: null, tp: 1.12 })).body;
    expect(amended).toMatchObject({ id: placed.id, status: 'pending', price: 1.095, sl: null, tp: 1.12, volume: 0.1 });
    expect(amended.amended).toEqual([{ field: 'price', from: 1.09, to: 1.095 }, { field: 'sl', from: 1.08, to: null }, { field: 'tp', from: null, to: 1.12 }]);
    const event = await s.take((m) => m.channel === 'order' && m.id === placed.id && m.amended !== undefined);
    expect(event).toMatchObject({ status: 'pending', price: 1.095, amended: amended.amended });
    expect(ok(await t.api.patch(`/v1/orders/${placed.id}`, { volume: 0.2 })).body.amended).toEqual([{ field: 'volume', from: 0.1, to: 0.2 }]);
    expect(ok(await t.api.get(`/v1/orders/${placed.id}`)).body).toMatchObject({ price: 1.095, volume: 0.2, sl: null, tp: 1.12 });
    await s.close();
  });

  it('refuses bad amends with the field named, and changes nothing', async () => {
    const t = trader();
    const placed = ok(await t.api.post('/v1/orders', limitBuy(t.login, 1.09))).body;
    const before = ok(await t.api.get(`/v1/orders/${placed.id}`)).body;
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, { symbol: 'BTCUSD' }), 'bad_request', 'symbol');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, {}), 'bad_request', 'price');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, { price: null }), 'bad_request', 'price');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, { price: 1.2 }), 'invalid_order', 'price');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, { tp: 1.05 }), 'invalid_order', 'tp');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, { price: 1.091234567 }), 'invalid_order', 'price');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, { volume: 0.015 }), 'invalid_order', 'volume');
    expectError(await t.api.patch(`/v1/orders/${placed.id}`, '{"price":', {}), 'bad_request');
    expect(ok(await t.api.get(`/v1/orders/${placed.id}`)).body).toEqual(before);
  });

  it('a filled or cancelled order is 422 naming id; a price on a market order names price; another account\'s is 404', async () => {
    const t = trader();
    const market = ok(await t.api.post('/v1/orders', marketBuy(t.login))).body;
    expectError(await t.api.patch(`/v1/orders/${market.id}`, { price: 1.09 }), 'invalid_order', 'price');
    expectError(await t.api.patch(`/v1/orders/${market.id}`, { sl: 1.05 }), 'invalid_order', 'id');
    const pending = ok(await t.api.post('/v1/orders', limitBuy(t.login, 1.09))).body;
    ok(await t.api.del(`/v1/orders/${pending.id}`));
    expectError(await t.api.patch(`/v1/orders/${pending.id}`, { price: 1.08 }), 'invalid_order', 'id');
    const other = trader();
    const theirs = ok(await other.api.post('/v1/orders', limitBuy(other.login, 1.09))).body;
    expectError(await t.api.patch(`/v1/orders/${theirs.id}`, { price: 1.08 }), 'not_found');
    expectError(await t.api.patch('/v1/orders/999999999', { price: 1.08 }), 'not_found');
    expect(ok(await other.api.get(`/v1/orders/${theirs.id}`)).body.price).toBe(1.09);
  });
});

describe('PATCH /v1/positions/{ticket}', () => {
  it('moves SL and TP; the position event carries the change, and the new TP closes it', async () => {
    const t = trader();
    const s = await TestStream.connect(server.httpPort, traderKey(t.login));
    await s.request({ op: 'subscribe', id: 1, channels: ['positions'] });
    const filled = ok(await t.api.post('/v1/orders', marketBuy(t.login))).body;
    const res = ok(await t.api.patch(`/v1/positions/${filled.ticket}`, { sl: 1.09, tp: 1.11 })).body;
    expect(res).toMatchObject({ ticket: filled.ticket, sl: 1.09, tp: 1.11, amended: [{ field: 'sl', from: null, to: 1.09 }, { field: 'tp', from: null, to: 1.11 }] });
    expect(await s.take((m) => m.channel === 'position' && m.ticket === filled.ticket && m.amended !== undefined)).toMatchObject({ status: 'open', sl: 1.09, tp: 1.11 });
    expectError(await t.api.patch(`/v1/positions/${filled.ticket}`, { volume: 0.05 }), 'bad_request', 'volume');
    expectError(await t.api.patch(`/v1/positions/${filled.ticket}`, { sl: 1.15 }), 'invalid_order', 'sl');
    expectError(await t.api.patch('/v1/positions/123456789', { sl: 1.05 }), 'not_found');
    expect(ok(await t.api.get('/v1/positions')).body.data).toMatchObject([{ ticket: filled.ticket, sl: 1.09, tp: 1.11 }]);
    await quote('EURUSD', 1.11, 1.1102);
    expect(await s.take((m) => m.channel === 'position' && m.ticket === filled.ticket && m.status === 'closed')).toMatchObject({ reason: 'tp' });
    await quote('EURUSD', 1.1, 1.1002);
    await s.close();
  });
});

describe('cancel-all and close-all', () => {
  it('DELETE /v1/orders cancels every pending order (or one symbol\'s) in one call charged once', async () => {
    const t = trader();
    for (const price of [1.09, 1.08]) ok(await t.api.post('/v1/orders', limitBuy(t.login, price)));
    ok(await t.api.post('/v1/orders', { login: t.login, symbol: 'BTCUSD', side: 'buy', type: 'limit', volume: 0.01, price: 60000 }));
    const first = ok(await t.api.del('/v1/orders?symbol=BTCUSD'));
    expect(first.body.data.map((o: { symbol: string; status: string }) => [o.symbol, o.status])).toEqual([['BTCUSD', 'cancelled']]);
    const second = ok(await t.api.del(`/v1/orders?login=${t.login}`));
    expect(second.body.data.map((o: { price: number }) => o.price)).toEqual([1.09, 1.08]);
    // One token per call, whatever it cancelled.
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    expect(ok(await t.api.get('/v1/orders?status=pending')).body.data).toEqual([]);
    expect(ok(await t.api.del('/v1/orders')).body.data).toEqual([]);
  });

  it('refuses another account (404), an unknown symbol or parameter (400)', async () => {
    const t = trader();
    const pending = ok(await t.api.post('/v1/orders', limitBuy(t.login, 1.09))).body;
    expectError(await t.api.del(`/v1/orders?login=${OTHER_LOGIN}`), 'not_found');
    expectError(await t.api.del(`/v1/positions?login=${OTHER_LOGIN}`), 'not_found');
    expectError(await t.api.del('/v1/orders?symbol=NOPE'), 'bad_request', 'symbol');
    expectError(await t.api.del('/v1/positions?side=buy'), 'bad_request', 'side');
    expect(ok(await t.api.get(`/v1/orders/${pending.id}`)).body.status).toBe('pending');
  });

  it('DELETE /v1/positions closes what it can and lists each position\'s result (a closed session\'s fails)', async () => {
    const t = trader();
    const eur = ok(await t.api.post('/v1/orders', marketBuy(t.login))).body;
    const xag = ok(await t.api.post('/v1/orders', { ...marketBuy(t.login, 'XAGUSD'), volume: 0.01 })).body;
    const btc = ok(await t.api.post('/v1/orders', { ...marketBuy(t.login, 'BTCUSD'), volume: 0.01 })).body;
    const only = ok(await t.api.del('/v1/positions?symbol=BTCUSD')).body.data;
    expect(only).toMatchObject([{ ticket: btc.ticket, symbol: 'BTCUSD', status: 'closed' }]);
    // The same data, restarted with XAGUSD outside its session.
    await server.stop();
    server = await startServer({ dataDir: server.dataDir, seed: seed(true), config: REST_CONFIG });
    const api = new RestClient(server.httpPort, traderKey(t.login));
    const results = ok(await api.del('/v1/positions')).body.data;
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({ ticket: eur.ticket, symbol: 'EURUSD', status: 'closed', close_price: 1.1, volume: 0.1 });
    expect(results[1]).toMatchObject({ ticket: xag.ticket, symbol: 'XAGUSD', status: 'failed', error: { code: 503, name: 'market_closed' } });
    expect(ok(await api.get('/v1/positions')).body.data.map((p: { ticket: number }) => p.ticket)).toEqual([xag.ticket]);
  });
});
