// The six endpoints through the real server process: fields, values and paging as the spec and
// DECISIONS promise them, with prices pushed so every number is exact.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { operator, RestClient, type Answer } from './support/client.js';
import { KEYS, MAIN_LOGIN, OTHER_LOGIN, REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let server: RunningServer;
let api: RestClient;

async function quote(symbol: string, bid: number, ask: number): Promise<void> {
  const res = await operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol, bid, ask });
  expect(res.status).toBe(200);
}

let traders = 0;
/** A fresh account and key: each trading test has its own trade limit. */
function trader(): { api: RestClient; login: string } {
  const login = TRADER_LOGINS[traders++]!;
  return { login, api: new RestClient(server.httpPort, traderKey(login)) };
}

function ok(res: Answer): Answer {
  expect(res.status, res.text).toBe(200);
  return res;
}

beforeAll(async () => {
  server = await startServer({ seed: restSeed(Date.now()), config: REST_CONFIG });
  api = new RestClient(server.httpPort, KEYS.main);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe('GET /v1/accounts', () => {
  it('lists the key\'s account with live figures, and filters by type', async () => {
    const res = ok(await api.get('/v1/accounts'));
    expect(res.body).toEqual({
      data: [{
        login: MAIN_LOGIN, type: 'demo', group: 'demo\\ECN', currency: 'USD',
        balance: 10000, equity: 10000, margin: 0, free_margin: 10000, margin_level: 0, leverage: 100,
      }],
      next_cursor: null,
    });
    expect(ok(await api.get('/v1/accounts?type=demo')).body.data).toHaveLength(1);
    expect(ok(await api.get('/v1/accounts?type=live')).body).toEqual({ data: [], next_cursor: null });
    expect(ok(await api.get('/v1/accounts?limit=1')).body.data).toHaveLength(1);
    expect(ok(await api.get(`/v1/accounts?cursor=${MAIN_LOGIN}`)).body.data).toEqual([]);
  });

  it('shows another key only its own account', async () => {
    const other = new RestClient(server.httpPort, KEYS.other);
    const res = ok(await other.get('/v1/accounts'));
    expect(res.body.data.map((a: { login: string }) => a.login)).toEqual([OTHER_LOGIN]);
    expect(res.body.data[0]).toMatchObject({ type: 'live', group: 'real\\ECN', balance: 50000 });
  });
});

describe('GET /v1/accounts/{login}', () => {
  it('answers the detail of the key\'s account', async () => {
    const res = ok(await api.get(`/v1/accounts/${MAIN_LOGIN}`));
    expect(res.body).toEqual({
      login: MAIN_LOGIN, server: 'Demo-1', equity: 10000, free_margin: 10000, margin_level: 0,
      balance: 10000, margin: 0, currency: 'USD', leverage: 100, type: 'demo', group: 'demo\\ECN',
    });
  });
});

describe('orders and positions', () => {
  it('fills a market order at the ask, tagged api with the key id, and lists the position with exact profit', async () => {
    const t = trader();
    await quote('EURUSD', 1.1, 1.1002);
    const placed = ok(await t.api.post('/v1/orders', { login: t.login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.1, client_id: 'ep-1' }));
    expect(placed.body).toMatchObject({
      login: t.login, symbol: 'EURUSD', side: 'buy', type: 'market', status: 'filled', price: 1.1002, volume: 0.1,
      source: 'api', key_id: t.api.cred.id, client_id: 'ep-1', sl: null, tp: null,
    });
    expect(typeof placed.body.id).toBe('string');
    expect(Number.isInteger(placed.body.ticket)).toBe(true);
    expect(placed.body.filled_at).toMatch(ISO_MS);

    await quote('EURUSD', 1.1012, 1.1014);
    const listed = ok(await t.api.get('/v1/positions'));
    const position = listed.body.data.find((p: { ticket: number }) => p.ticket === placed.body.ticket);
    expect(position).toEqual({
      ticket: placed.body.ticket, login: t.login, symbol: 'EURUSD', side: 'buy', volume: 0.1, open_price: 1.1002,
      sl: null, tp: null, profit: 10, source: 'api', key_id: t.api.cred.id, opened_at: placed.body.filled_at,
    });
    // Margin is held in EUR (0.1 lot × 100000 / leverage 100 = 100 EUR), booked at 1.1 as 110 USD.
    const account = ok(await t.api.get(`/v1/accounts/${t.login}`)).body;
    expect(account).toMatchObject({ balance: 10000, equity: 10010, margin: 110, free_margin: 9900, margin_level: 9100 });

    const partial = ok(await t.api.del(`/v1/positions/${placed.body.ticket}?volume=0.04`));
    expect(partial.body).toEqual({ ticket: placed.body.ticket, status: 'partially_closed', close_price: 1.1012, profit: 4, volume: 0.06 });
    const full = ok(await t.api.del(`/v1/positions/${placed.body.ticket}`));
    expect(full.body).toEqual({ ticket: placed.body.ticket, status: 'closed', close_price: 1.1012, profit: 6, volume: 0 });
    const after = ok(await t.api.get(`/v1/accounts/${t.login}`)).body;
    expect(after.balance).toBe(10010);
    expect(ok(await t.api.get('/v1/positions')).body.data.some((p: { ticket: number }) => p.ticket === placed.body.ticket)).toBe(false);
  });

  it('places pending limit and stop orders with sl/tp, and cancels them', async () => {
    const t = trader();
    await quote('EURUSD', 1.1, 1.1002);
    const limit = ok(await t.api.post('/v1/orders', {
      login: t.login, symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 0.2, price: 1.09, sl: 1.08, tp: 1.12,
    }));
    expect(limit.body).toMatchObject({ status: 'pending', ticket: null, price: 1.09, sl: 1.08, tp: 1.12, volume: 0.2, source: 'api', filled_at: null });
    const stop = ok(await t.api.post('/v1/orders', { login: t.login, symbol: 'EURUSD', side: 'sell', type: 'stop', volume: 0.01, price: 1.095 }));
    expect(stop.body).toMatchObject({ status: 'pending', ticket: null, type: 'stop', side: 'sell' });

    const cancelled = ok(await t.api.del(`/v1/orders/${limit.body.id}`));
    expect(cancelled.body).toMatchObject({ id: limit.body.id, status: 'cancelled', source: 'api', key_id: t.api.cred.id });
    ok(await t.api.del(`/v1/orders/${stop.body.id}`));
  });

  it('fills a pending order when a pushed tick reaches it', async () => {
    const t = trader();
    await quote('EURUSD', 1.1, 1.1002);
    const limit = ok(await t.api.post('/v1/orders', { login: t.login, symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 0.01, price: 1.0995 }));
    await quote('EURUSD', 1.099, 1.0992);
    // The tick travels the shard's ring ahead of this cancel, so the answer comes after the fill
    // (and the read model has the fill's events before any answer that follows them).
    const cancel = await t.api.del(`/v1/orders/${limit.body.id}`);
    expect(cancel.status).toBe(422);
    expect(cancel.body.error).toMatchObject({ name: 'invalid_order', field: 'id' });
    const positions = ok(await t.api.get('/v1/positions?symbol=EURUSD')).body.data;
    expect(positions).toEqual([expect.objectContaining({ volume: 0.01, open_price: 1.0992, side: 'buy', source: 'api' })]);
    ok(await t.api.del(`/v1/positions/${positions[0].ticket}`));
  });

  it('pages positions by ticket ascending with next_cursor, and filters by symbol and login', async () => {
    const t = trader();
    await quote('EURUSD', 1.1, 1.1002);
    await quote('BTCUSD', 65000, 65010);
    const opened: number[] = [];
    for (let i = 0; i < 5; i++) {
      const symbol = i % 2 === 0 ? 'EURUSD' : 'BTCUSD';
      opened.push(ok(await t.api.post('/v1/orders', { login: t.login, symbol, side: 'sell', type: 'market', volume: 0.01 })).body.ticket);
    }
    const seen: number[] = [];
    let path = '/v1/positions?limit=2';
    for (let pages = 0; pages < 10; pages++) {
      const res = ok(await t.api.get(path)).body;
      expect(res.data.length).toBeLessThanOrEqual(2);
      seen.push(...res.data.map((p: { ticket: number }) => p.ticket));
      if (res.next_cursor === null) break;
      expect(typeof res.next_cursor).toBe('string');
      path = `/v1/positions?limit=2&cursor=${encodeURIComponent(res.next_cursor)}`;
    }
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen).toEqual(expect.arrayContaining(opened));
    const btc = ok(await t.api.get(`/v1/positions?symbol=BTCUSD&login=${t.login}`)).body.data;
    expect(btc.map((p: { ticket: number }) => p.ticket)).toEqual([opened[1], opened[3]]);
    expect(btc[0]).toMatchObject({ side: 'sell', open_price: 65000, profit: -0.1 });
    for (const ticket of opened) ok(await t.api.del(`/v1/positions/${ticket}`));
  });

  it('answers a repeated client_id with 409 and the original order', async () => {
    const t = trader();
    await quote('BTCUSD', 65000, 65010);
    const body = { login: t.login, symbol: 'BTCUSD', side: 'buy', type: 'market', volume: 0.01, client_id: 'dup-1' };
    const first = ok(await t.api.post('/v1/orders', body));
    const again = await t.api.post('/v1/orders', body);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 409, name: 'duplicate_client_id' });
    expect(again.body.order).toEqual(first.body);
    ok(await t.api.del(`/v1/positions/${first.body.ticket}`));
  });
});
