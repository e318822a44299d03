// Every row of the spec's error table through the real server, each in the documented body shape
// with request_id and the rate-limit headers, and nothing changed by a refused trading call.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { hmacHex, operator, RestClient, send, type Answer } from './support/client.js';
import { expectError } from './support/expect.js';
import { HALT_LOGIN, KEYS, MAIN_LOGIN, OTHER_LOGIN, REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

let server: RunningServer;
let main: RestClient;
let traders = 0;

function trader(): { api: RestClient; login: string } {
  const login = TRADER_LOGINS[traders++]!;
  return { login, api: new RestClient(server.httpPort, traderKey(login)) };
}

const market = (login: string, extra: Record<string, unknown> = {}) =>
  ({ login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01, ...extra });

async function quote(symbol: string, bid: number, ask: number): Promise<void> {
  expect((await operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol, bid, ask })).status).toBe(200);
}

/** What a refused call must leave untouched: the account's figures and its open positions. */
async function stateOf(api: RestClient, login: string): Promise<unknown> {
  const [account, positions] = await Promise.all([api.get(`/v1/accounts/${login}`), api.get('/v1/positions')]);
  expect(account.status).toBe(200);
  expect(positions.status).toBe(200);
  return { account: account.body, positions: positions.body };
}

async function refusedWithoutChange(api: RestClient, login: string, calls: (() => Promise<Answer>)[], check: (res: Answer, i: number) => void): Promise<void> {
  const before = await stateOf(api, login);
  for (const [i, call] of calls.entries()) check(await call(), i);
  expect(await stateOf(api, login)).toEqual(before);
}

beforeAll(async () => {
  server = await startServer({ seed: restSeed(Date.now()), config: REST_CONFIG });
  main = new RestClient(server.httpPort, KEYS.main);
  await quote('EURUSD', 1.1, 1.1002);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe('400 bad_request', () => {
  it('refuses malformed JSON, missing fields and wrong types, naming the field', async () => {
    const t = trader();
    const cases: [string, string | null][] = [
      ['{"login":', null],
      ['[1,2]', null],
      ['"text"', null],
      ['', null],
      [JSON.stringify({ login: t.login, side: 'buy', type: 'market', volume: 0.01 }), 'symbol'],
      [JSON.stringify({ login: t.login, symbol: 'EURUSD', type: 'market', volume: 0.01 }), 'side'],
      [JSON.stringify(market(t.login, { volume: '0.01' })), 'volume'],
      [JSON.stringify(market(t.login, { side: 'long' })), 'side'],
      [JSON.stringify(market(t.login, { client_id: 'x'.repeat(65) })), 'client_id'],
      [JSON.stringify(market(t.login, { comment: 'hi' })), 'comment'],
      [JSON.stringify(market(t.login, { price: 1.1 })), 'price'],
    ];
    await refusedWithoutChange(t.api, t.login, cases.map(([body]) => () => t.api.post('/v1/orders', body)),
      (res, i) => expectError(res, 'bad_request', cases[i]![1]));
  });

  it('refuses a body that is not declared application/json, and accepts a charset', async () => {
    const t = trader();
    // Distinct bodies: two calls in the same millisecond with one body would carry one signature,
    // and the second would rightly be refused as a replay.
    const body = (clientId: string): string => JSON.stringify(market(t.login, { client_id: clientId }));
    await refusedWithoutChange(t.api, t.login, [
      () => t.api.post('/v1/orders', body('ct-text'), { contentType: 'text/plain' }),
      () => t.api.post('/v1/orders', body('ct-none'), { contentType: null }),
      () => t.api.post('/v1/orders', body('ct-jsonx'), { contentType: 'application/jsonx' }),
    ], (res) => expectError(res, 'bad_request', null));
    const res = await t.api.post('/v1/orders', body('ct-charset'), { contentType: 'application/json; charset=utf-8' });
    expect(res.status, res.text).toBe(200);
  });

  it('refuses a body over http.max_body_bytes and keeps serving', async () => {
    const t = trader();
    const big = JSON.stringify(market(t.login, { client_id: 'a', pad: 'x'.repeat(3000) }));
    expectError(await t.api.post('/v1/orders', big), 'bad_request', null);
    expect((await main.get('/v1/accounts')).status).toBe(200);
  });

  it('refuses unknown or repeated query parameters and bad paging values', async () => {
    const cases: [string, string][] = [
      ['/v1/positions?foo=1', 'foo'],
      ['/v1/positions?limit=0', 'limit'],
      ['/v1/positions?limit=1001', 'limit'],
      ['/v1/positions?limit=ten', 'limit'],
      ['/v1/positions?limit=1&limit=2', 'limit'],
      ['/v1/positions?cursor=abc', 'cursor'],
      ['/v1/positions?symbol=NOPE', 'symbol'],
      ['/v1/accounts?type=paper', 'type'],
      [`/v1/accounts/${MAIN_LOGIN}?verbose=1`, 'verbose'],
    ];
    for (const [path, field] of cases) expectError(await main.get(path), 'bad_request', field);
    expect((await main.get('/v1/positions?limit=1000')).status).toBe(200);
  });
});

describe('401 unauthorized', () => {
  it('refuses missing credentials, unknown keys and bad signatures', async () => {
    const path = '/v1/accounts';
    for (const omit of [['key'], ['ts'], ['sig'], ['key', 'ts', 'sig']] as const) {
      expectError(await main.get(path, { omit }), 'unauthorized', null);
    }
    expectError(await new RestClient(server.httpPort, { id: 'no-such-key', secret: 'x'.repeat(20) }).get(path), 'unauthorized');
    expectError(await new RestClient(server.httpPort, { id: KEYS.main.id, secret: 'wrong-secret-0123456789' }).get(path), 'unauthorized');
    expectError(await main.get(path, { signature: 'zz'.repeat(32) }), 'unauthorized');
    expectError(await main.get(path, { signature: 'ab' }), 'unauthorized');
    // The query is part of the signed path: signing one query and sending another fails.
    const ts = String(Date.now());
    const sig = hmacHex(KEYS.main.secret, ts, 'GET', '/v1/accounts?type=demo', '');
    expectError(await main.get('/v1/accounts?type=live', { ts, signature: sig }), 'unauthorized');
    // The method is signed too.
    expectError(await main.get(path, { ts, signature: hmacHex(KEYS.main.secret, ts, 'POST', path, '') }), 'unauthorized');
  });

  it('accepts hex in either case and a timestamp within 5 s, and refuses one outside', async () => {
    expect((await main.get('/v1/accounts', { upperHex: true })).status).toBe(200);
    expect((await main.get('/v1/accounts', { ts: String(Date.now() - 4000) })).status).toBe(200);
    expectError(await main.get('/v1/accounts', { ts: String(Date.now() - 6000) }), 'unauthorized');
    expectError(await main.get('/v1/accounts', { ts: String(Date.now() + 6000) }), 'unauthorized');
    expectError(await main.get('/v1/accounts', { ts: '1.7e12' }), 'unauthorized');
  });

  it('refuses a replayed POST or DELETE but not a repeated GET', async () => {
    const t = trader();
    const ts = String(Date.now());
    const body = JSON.stringify(market(t.login, { client_id: 'replay-1' }));
    const first = await t.api.post('/v1/orders', body, { ts });
    expect(first.status, first.text).toBe(200);
    expectError(await t.api.post('/v1/orders', body, { ts }), 'unauthorized');
    const del = `/v1/positions/${first.body.ticket}?volume=0.01`;
    expect((await t.api.del(del, { ts })).status).toBe(200);
    expectError(await t.api.del(del, { ts }), 'unauthorized');
    const getTs = String(Date.now());
    expect((await t.api.get('/v1/accounts', { ts: getTs })).status).toBe(200);
    expect((await t.api.get('/v1/accounts', { ts: getTs })).status).toBe(200);
  });

  it('refuses an expired key', async () => {
    expectError(await new RestClient(server.httpPort, KEYS.expired).get('/v1/accounts'), 'unauthorized');
  });

  it('refuses a paused key until it is resumed, and a revoked key for good', async () => {
    const paused = new RestClient(server.httpPort, KEYS.paused);
    expect((await paused.get('/v1/accounts')).status).toBe(200);
    const pause = await operator(server.consolePort, server.adminToken, 'POST', `/console/api/keys/${KEYS.paused.id}/pause`);
    expect(pause.body).toMatchObject({ id: KEYS.paused.id, status: 'Paused' });
    const refused = await paused.get('/v1/accounts');
    expectError(refused, 'unauthorized');
    expect(refused.body.error.message).toMatch(/paused/);
    expect((await operator(server.consolePort, server.adminToken, 'POST', `/console/api/keys/${KEYS.paused.id}/resume`)).status).toBe(200);
    expect((await paused.get('/v1/accounts')).status).toBe(200);

    const revoked = new RestClient(server.httpPort, KEYS.revoked);
    expect((await revoked.get('/v1/accounts')).status).toBe(200);
    const revoke = await operator(server.consolePort, server.adminToken, 'DELETE', `/console/api/keys/${KEYS.revoked.id}`);
    expect(revoke.body).toMatchObject({ id: KEYS.revoked.id, status: 'Revoked' });
    expectError(await revoked.get('/v1/accounts'), 'unauthorized');
    const resume = await operator(server.consolePort, server.adminToken, 'POST', `/console/api/keys/${KEYS.revoked.id}/resume`);
    expect(resume.status).toBe(404);
    expect(resume.body.error.name).toBe('not_found');
  });
});

describe('403 forbidden', () => {
  it('refuses a trading call of a read-only key, which may still read', async () => {
    const reader = new RestClient(server.httpPort, KEYS.readOnly);
    await refusedWithoutChange(main, MAIN_LOGIN, [
      () => reader.post('/v1/orders', market(MAIN_LOGIN)),
      () => reader.del('/v1/orders/65'),
      () => reader.del('/v1/positions/65'),
    ], (res) => expectError(res, 'forbidden'));
    expect((await reader.get('/v1/positions')).status).toBe(200);
  });

  it('refuses addresses outside the whitelist; X-Forwarded-For counts only from a trusted proxy', async () => {
    const wl = new RestClient(server.httpPort, KEYS.whitelisted);
    expectError(await wl.get('/v1/accounts'), 'forbidden');
    expectError(await wl.get('/v1/accounts', { headers: { 'x-forwarded-for': '10.1.2.3' } }), 'forbidden');
    const viaProxy = (ip: string) => wl.get('/v1/accounts', { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': ip } });
    expect((await viaProxy('10.1.2.3')).status).toBe(200);
    expect((await viaProxy('192.0.2.1, 10.200.0.9')).status).toBe(200);
    expectError(await viaProxy('11.0.0.1'), 'forbidden');
    expectError(await wl.get('/v1/accounts', { localAddress: '127.0.0.2' }), 'forbidden');
  });

  it('matches IPv6 whitelist ranges', async () => {
    const wl6 = new RestClient(server.httpPort, KEYS.whitelisted6);
    const viaProxy = (ip: string) => wl6.get('/v1/accounts', { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': ip } });
    expect((await viaProxy('2001:db8::5')).status).toBe(200);
    expect((await viaProxy('2001:DB8:0:0:1::1')).status).toBe(200);
    expectError(await viaProxy('2001:db9::1'), 'forbidden');
    expectError(await viaProxy('10.1.2.3'), 'forbidden');
  });
});

describe('404 not_found', () => {
  it('hides accounts, orders and positions the key cannot see', async () => {
    const other = new RestClient(server.httpPort, KEYS.other);
    const theirs = await other.post('/v1/orders', market(OTHER_LOGIN));
    expect(theirs.status, theirs.text).toBe(200);
    const pending = await other.post('/v1/orders', { ...market(OTHER_LOGIN), type: 'limit', price: 1.05 });
    expect(pending.status, pending.text).toBe(200);
    const otherBefore = await stateOf(other, OTHER_LOGIN);

    const t = trader();
    await refusedWithoutChange(t.api, t.login, [
      () => t.api.get(`/v1/accounts/${OTHER_LOGIN}`),
      () => t.api.get('/v1/accounts/999999'),
      () => t.api.get(`/v1/positions?login=${OTHER_LOGIN}`),
      () => t.api.post('/v1/orders', market(OTHER_LOGIN)),
      () => t.api.del(`/v1/orders/${pending.body.id}`),
      () => t.api.del(`/v1/positions/${theirs.body.ticket}`),
      () => t.api.del('/v1/orders/999999999'),
      () => t.api.del('/v1/orders/abc'),
      () => t.api.del('/v1/positions/99999999'),
      () => t.api.del('/v1/positions/12x'),
      () => t.api.del('/v1/positions/-5'),
    ], (res) => expectError(res, 'not_found', null));
    expect(await stateOf(other, OTHER_LOGIN)).toEqual(otherBefore);
  });

  it('answers unknown routes and methods with 404 and the rate-limit headers', async () => {
    for (const [method, path] of [['GET', '/v1/nothing'], ['PUT', '/v1/orders'], ['GET', '/v2/accounts'], ['POST', '/v1/positions']] as const) {
      expectError(await send(server.httpPort, method, path), 'not_found', null);
    }
    expectError(await main.get('/v1/accounts/'), 'not_found');
  });
});

describe('409 duplicate_client_id', () => {
  it('returns the original order', async () => {
    const t = trader();
    const first = await t.api.post('/v1/orders', market(t.login, { client_id: 'same' }));
    expect(first.status).toBe(200);
    const again = await t.api.post('/v1/orders', market(t.login, { client_id: 'same', volume: 0.02 }));
    expectError(again, 'duplicate_client_id', 'client_id');
    expect(again.body.order).toEqual(first.body);
  });
});

describe('422 invalid_order', () => {
  it('refuses bad volumes, prices and SL/TP sides, naming the field', async () => {
    const t = trader();
    const cases: [Record<string, unknown>, string][] = [
      [market(t.login, { volume: 0.001 }), 'volume'],
      [market(t.login, { volume: 0 }), 'volume'],
      [market(t.login, { volume: -1 }), 'volume'],
      [market(t.login, { volume: 51 }), 'volume'],
      [market(t.login, { volume: 1e300 }), 'volume'],
      [market(t.login, { volume: 50 }), 'volume'], // 55,000 USD of margin on a 10,000 USD account
      [market(t.login, { symbol: 'NOPE' }), 'symbol'],
      [{ ...market(t.login), type: 'limit', price: 1.090001 }, 'price'],
      [{ ...market(t.login), type: 'limit', price: 1.2 }, 'price'], // a buy limit must be below the ask
      [{ ...market(t.login), type: 'stop', price: 1.05 }, 'price'], // a buy stop must be above the ask
      [{ ...market(t.login), type: 'limit', price: -1 }, 'price'],
      [market(t.login, { sl: 1.2 }), 'sl'],
      [market(t.login, { tp: 1.05 }), 'tp'],
      [market(t.login, { side: 'sell', sl: 1.05 }), 'sl'],
      [market(t.login, { side: 'sell', tp: 1.2 }), 'tp'],
    ];
    await refusedWithoutChange(t.api, t.login, cases.map(([body]) => () => t.api.post('/v1/orders', body)),
      (res, i) => expectError(res, 'invalid_order', cases[i]![1]));
  });

  it('refuses cancelling a filled order and closing more than a position holds', async () => {
    const t = trader();
    const filled = await t.api.post('/v1/orders', market(t.login, { volume: 0.05 }));
    expect(filled.status).toBe(200);
    await refusedWithoutChange(t.api, t.login, [
      () => t.api.del(`/v1/orders/${filled.body.id}`),
      () => t.api.del(`/v1/positions/${filled.body.ticket}?volume=0.06`),
      () => t.api.del(`/v1/positions/${filled.body.ticket}?volume=0.001`),
      () => t.api.del(`/v1/positions/${filled.body.ticket}?volume=0`),
      () => t.api.del(`/v1/positions/${filled.body.ticket}?volume=abc`),
      () => t.api.del(`/v1/positions/${filled.body.ticket}?volume=1e-2`),
    ], (res, i) => expectError(res, 'invalid_order', i === 0 ? 'id' : 'volume'));
  });
});

describe('423 kill_switch_active', () => {
  it('refuses trading calls of a key whose kill switch is on, until it is off', async () => {
    const halted = new RestClient(server.httpPort, KEYS.halted);
    const opened = await halted.post('/v1/orders', market(HALT_LOGIN));
    expect(opened.status).toBe(200);
    const on = await operator(server.consolePort, server.adminToken, 'PUT', `/console/api/keys/${KEYS.halted.id}/kill-switch`, { active: true });
    expect(on.body).toMatchObject({ id: KEYS.halted.id, kill_switch: { active: true } });
    await refusedWithoutChange(halted, HALT_LOGIN, [
      () => halted.post('/v1/orders', market(HALT_LOGIN)),
      () => halted.del(`/v1/positions/${opened.body.ticket}`),
    ], (res) => expectError(res, 'kill_switch_active'));
    expect((await halted.get('/v1/positions')).status).toBe(200);
    expect((await operator(server.consolePort, server.adminToken, 'PUT', `/console/api/keys/${KEYS.halted.id}/kill-switch`, { active: false })).status).toBe(200);
    expect((await halted.del(`/v1/positions/${opened.body.ticket}`)).status).toBe(200);
  });
});

describe('503 market_closed', () => {
  it('refuses a market order outside the symbol\'s session', async () => {
    const t = trader();
    await refusedWithoutChange(t.api, t.login, [() => t.api.post('/v1/orders', market(t.login, { symbol: 'XAGUSD' }))],
      (res) => expectError(res, 'market_closed'));
  });
});
