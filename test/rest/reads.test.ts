// The read API a REST-only bot needs, through the real server process: GET /v1/orders (filters,
// paging, client_id), GET /v1/orders/{id}, GET /v1/symbols and the unauthenticated GET /v1/time,
// with the same signing, scopes, limits and error shape as the rest, and orders found again after
// a restart.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { RestClient, send, type Answer } from './support/client.js';
import { expectError, expectRateLimitHeaders } from './support/expect.js';
import { KEYS, REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from './support/seed.js';

const TRADE_ONLY = { id: 'k-trade-only', secret: 'secret-of-k-trade-only-0123456789' };

let server: RunningServer;
const seed = restSeed(Date.now());
(seed['keys'] as unknown[]).push({ ...TRADE_ONLY, name: 'trade only', login: TRADER_LOGINS[0], scopes: ['trade'], rate_limit: 100 });

const BOT = TRADER_LOGINS[0]!;
const OTHER = TRADER_LOGINS[1]!;
let bot: RestClient;
let other: RestClient;

function ok(res: Answer): Answer {
  expect(res.status, res.text).toBe(200);
  expectRateLimitHeaders(res);
  return res;
}

const place = async (api: RestClient, body: Record<string, unknown>) => ok(await api.post('/v1/orders', body)).body;

// The bot's history: a fill, a pending limit, a cancelled limit and a BTCUSD fill with a client id.
let filled: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- order JSON under test
let pending: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let cancelled: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let btc: any; // eslint-disable-line @typescript-eslint/no-explicit-any
let otherOrder: any; // eslint-disable-line @typescript-eslint/no-explicit-any

beforeAll(async () => {
  server = await startServer({ seed, config: REST_CONFIG });
  bot = new RestClient(server.httpPort, traderKey(BOT));
  other = new RestClient(server.httpPort, traderKey(OTHER));
  filled = await place(bot, { login: BOT, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.1 });
  pending = await place(bot, { login: BOT, symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 0.2, price: 1.05, client_id: 'bot-limit-1' });
  const toCancel = await place(bot, { login: BOT, symbol: 'EURUSD', side: 'sell', type: 'limit', volume: 0.3, price: 1.2 });
  cancelled = ok(await bot.del(`/v1/orders/${toCancel.id}`)).body;
  btc = await place(bot, { login: BOT, symbol: 'BTCUSD', side: 'sell', type: 'market', volume: 0.01, client_id: 'bot-btc-1' });
  otherOrder = await place(other, { login: OTHER, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01, client_id: 'bot-btc-1' });
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const ids = (res: Answer): string[] => res.body.data.map((o: { id: string }) => o.id);

describe('GET /v1/orders', () => {
  it('lists the account\'s orders, pending and settled, by id ascending, each as its latest state', async () => {
    const res = ok(await bot.get('/v1/orders'));
    expect(res.body).toEqual({ data: [filled, pending, cancelled, btc], next_cursor: null });
    expect(cancelled.status).toBe('cancelled');
    expect(pending).toMatchObject({ status: 'pending', ticket: null, client_id: 'bot-limit-1', source: 'api', key_id: traderKey(BOT).id });
    expect(Number(filled.id)).toBeLessThan(Number(btc.id));
  });

  it('filters by status, symbol and since, combined', async () => {
    expect(ids(ok(await bot.get('/v1/orders?status=pending')))).toEqual([pending.id]);
    expect(ids(ok(await bot.get('/v1/orders?status=filled')))).toEqual([filled.id, btc.id]);
    expect(ids(ok(await bot.get('/v1/orders?status=cancelled')))).toEqual([cancelled.id]);
    expect(ids(ok(await bot.get('/v1/orders?status=rejected')))).toEqual([]);
    expect(ids(ok(await bot.get('/v1/orders?symbol=BTCUSD')))).toEqual([btc.id]);
    expect(ids(ok(await bot.get('/v1/orders?status=filled&symbol=EURUSD')))).toEqual([filled.id]);
    const sinceMs = Date.parse(cancelled.created_at);
    expect(ids(ok(await bot.get(`/v1/orders?since=${sinceMs}`)))).toEqual(
      [filled, pending, cancelled, btc].filter((o) => Date.parse(o.created_at) >= sinceMs).map((o) => o.id),
    );
    expect(ids(ok(await bot.get(`/v1/orders?since=${encodeURIComponent(btc.created_at)}`)))).toContain(btc.id);
    expect(ids(ok(await bot.get(`/v1/orders?since=${Date.parse(btc.created_at) + 60_000}`)))).toEqual([]);
  });

  it('pages with limit and cursor, next_cursor null on the last page', async () => {
    const first = ok(await bot.get('/v1/orders?limit=3'));
    expect(ids(first)).toEqual([filled.id, pending.id, cancelled.id]);
    expect(first.body.next_cursor).toBe(cancelled.id);
    const second = ok(await bot.get(`/v1/orders?limit=3&cursor=${first.body.next_cursor}`));
    expect(second.body).toEqual({ data: [btc], next_cursor: null });
    const exact = ok(await bot.get('/v1/orders?limit=4'));
    expect(exact.body.next_cursor).toBeNull();
    expect(ids(ok(await bot.get(`/v1/orders?status=filled&limit=1&cursor=${filled.id}`)))).toEqual([btc.id]);
  });

  it('client_id answers the order it created, of the key\'s account only', async () => {
    expect(ok(await bot.get('/v1/orders?client_id=bot-limit-1')).body).toEqual(pending);
    expect(ok(await bot.get('/v1/orders?client_id=bot-btc-1')).body).toEqual(btc);
    expect(ok(await other.get('/v1/orders?client_id=bot-btc-1')).body).toEqual(otherOrder);
    expectError(await bot.get('/v1/orders?client_id=never-used'), 'not_found', null);
    expectError(await bot.get('/v1/orders?client_id=bot-btc-1&status=filled'), 'bad_request', 'status');
    expectError(await bot.get(`/v1/orders?client_id=${'x'.repeat(65)}`), 'bad_request', 'client_id');
    expectError(await bot.get('/v1/orders?client_id='), 'bad_request', 'client_id');
  });

  it('refuses unknown filters and bad values with 400 naming the field, and changes nothing', async () => {
    const cases: [string, string][] = [
      ['status=foo', 'status'], ['since=abc', 'since'], ['since=2026-01-01', 'since'], ['limit=0', 'limit'], ['limit=1001', 'limit'],
      ['cursor=abc', 'cursor'], ['symbol=NOPE', 'symbol'], ['side=buy', 'side'], ['status=filled&status=pending', 'status'],
    ];
    for (const [q, field] of cases) expectError(await bot.get(`/v1/orders?${q}`), 'bad_request', field);
    expect(ids(ok(await bot.get('/v1/orders')))).toEqual([filled.id, pending.id, cancelled.id, btc.id]);
  });
});

describe('GET /v1/orders/{id}', () => {
  it('answers each order of the account as listed', async () => {
    for (const o of [filled, pending, cancelled, btc]) expect(ok(await bot.get(`/v1/orders/${o.id}`)).body).toEqual(o);
    // Another account's key (read scope) never sees the bot's orders.
    const reader = new RestClient(server.httpPort, KEYS.readOnly);
    expect(ok(await reader.get('/v1/orders')).body.data.every((o: { login: string }) => o.login !== BOT)).toBe(true);
  });

  it('is not_found for another account\'s order, an unknown id and a malformed one', async () => {
    expectError(await bot.get(`/v1/orders/${otherOrder.id}`), 'not_found', null);
    expectError(await other.get(`/v1/orders/${filled.id}`), 'not_found', null);
    expectError(await bot.get('/v1/orders/999999999'), 'not_found', null);
    expectError(await bot.get('/v1/orders/abc'), 'not_found', null);
    expectError(await bot.get(`/v1/orders/${filled.id}?x=1`), 'bad_request', 'x');
  });
});

describe('signing, scope and limits of the read routes', () => {
  it('401 without a valid signature, 403 for a key without the read scope', async () => {
    for (const path of ['/v1/orders', `/v1/orders/${filled.id}`, '/v1/symbols']) {
      expectError(await bot.get(path, { omit: ['sig'] }), 'unauthorized', null);
      expectError(await bot.get(path, { signature: '0'.repeat(64) }), 'unauthorized', null);
      expectError(await new RestClient(server.httpPort, TRADE_ONLY).get(path), 'forbidden', null);
    }
  });

  it('count against the key\'s read limit (rate 1/s, burst 2): the third call is 429 with Retry-After', async () => {
    const slow = new RestClient(server.httpPort, KEYS.slow);
    const answers = [await slow.get('/v1/orders'), await slow.get('/v1/symbols'), await slow.get('/v1/orders/1')];
    expect(answers.slice(0, 2).map((a) => a.status)).toEqual([200, 200]);
    expectError(answers[2]!, 'rate_limited');
    expect(answers[2]!.headers['x-ratelimit-limit']).toBe('1');
  });
});

describe('GET /v1/symbols', () => {
  it('lists every symbol by name with its trading terms and whether its session is open now', async () => {
    const res = ok(await bot.get('/v1/symbols'));
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data.map((s: { name: string }) => s.name)).toEqual(['BTCUSD', 'EURUSD', 'XAGUSD']);
    const [btcSymbol, eurusd, xag] = res.body.data;
    expect(eurusd).toEqual({
      name: 'EURUSD', digits: 5, contract_size: 100000, base_currency: 'EUR', quote_currency: 'USD',
      min_volume: 0.01, max_volume: 50, volume_step: 0.01, session: '24x7', open: true,
    });
    expect(btcSymbol).toMatchObject({ digits: 2, contract_size: 1, max_volume: 10, open: true });
    // XAGUSD trades one minute a day from now: closed whatever the day (test/rest/support/seed.ts).
    expect(xag).toMatchObject({ session: { tz: '+00:00' }, open: false });
  });

  it('pages by name', async () => {
    const first = ok(await bot.get('/v1/symbols?limit=2'));
    expect(first.body.next_cursor).toBe('EURUSD');
    const rest = ok(await bot.get('/v1/symbols?limit=2&cursor=EURUSD'));
    expect(rest.body.data.map((s: { name: string }) => s.name)).toEqual(['XAGUSD']);
    expect(rest.body.next_cursor).toBeNull();
    expectError(await bot.get('/v1/symbols?limit=0'), 'bad_request', 'limit');
    expectError(await bot.get('/v1/symbols?open=true'), 'bad_request', 'open');
  });
});

describe('GET /v1/time', () => {
  it('answers the server clock without credentials, with the address\'s rate-limit headers', async () => {
    const before = Date.now();
    const res = ok(await send(server.httpPort, 'GET', '/v1/time'));
    const after = Date.now();
    expect(res.body.time_ms).toBeGreaterThanOrEqual(before);
    expect(res.body.time_ms).toBeLessThanOrEqual(after);
    expect(res.body.time).toBe(new Date(res.body.time_ms).toISOString());
    expectError(await send(server.httpPort, 'GET', '/v1/time?x=1'), 'bad_request', 'x');
  });

  it('shares the per-address anonymous bucket (burst 40) with unknown routes and unknown webhooks', async () => {
    const localAddress = '127.0.0.3';
    // Sent at once, so the 20/s refill cannot keep up whatever the machine's load.
    const burst = await Promise.all(Array.from({ length: 70 }, () => send(server.httpPort, 'GET', '/v1/time', { localAddress })));
    const statuses = burst.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(40);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
    expectError(burst.find((r) => r.status === 429)!, 'rate_limited');
    // The same bucket: what is left of it after the burst (a token or two may have come back since).
    for (const [method, path, body] of [['POST', '/v1/signal/no-such-hook', '{"action":"buy","symbol":"EURUSD"}'], ['GET', '/v1/nothing-here', '']] as const) {
      const res = await send(server.httpPort, method, path, { localAddress, body });
      expect(res.status === 429 || Number(res.headers['x-ratelimit-remaining']) < 5, `${path}: ${res.status} remaining ${res.headers['x-ratelimit-remaining']}`).toBe(true);
    }
    // Another address has its own bucket: the unknown webhook is a plain 404, with the headers.
    const unknown = await send(server.httpPort, 'POST', '/v1/signal/no-such-hook', { localAddress: '127.0.0.4', body: '{"action":"buy","symbol":"EURUSD"}' });
    expectError(unknown, 'not_found', null);
    expect(unknown.headers['x-ratelimit-remaining']).toBe('39');
  });
});

describe('after a restart', () => {
  it('a bot finds its pending order and its client ids through REST alone', async () => {
    expect(await server.stop()).toBe(0);
    server = await startServer({ seed, config: REST_CONFIG, dataDir: server.dataDir });
    bot = new RestClient(server.httpPort, traderKey(BOT));
    expect(ok(await bot.get('/v1/orders?status=pending')).body.data).toEqual([pending]);
    expect(ok(await bot.get('/v1/orders?client_id=bot-btc-1')).body).toEqual(btc);
    expect(ok(await bot.get(`/v1/orders/${cancelled.id}`)).body).toEqual(cancelled);
  });
});
