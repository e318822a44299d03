// The dead-man's switch through the real process: armed over REST or the stream, it cancels the
// key's pending orders (reason dead_man) once its deadline passes, and not while it is re-armed in
// time; a stream connection with cancel_on_disconnect fires it when it drops; a deadline crossing
// a restart fires at start; every firing is in the console's audit log.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server.js';
import { operator, RestClient } from '../rest/support/client.js';
import { expectError, expectOk as ok } from '../rest/support/expect.js';
import { KEYS, OTHER_LOGIN, REST_CONFIG, restSeed, TRADER_LOGINS, traderKey } from '../rest/support/seed.js';
import { TestStream } from '../stream/support/stream-client.js';

const MIN_TIMEOUT_MS = 200;
const CONFIG = { ...REST_CONFIG, dead_man: { min_timeout_ms: MIN_TIMEOUT_MS, max_timeout_ms: 600_000 } };
const secondKey = (login: string) => ({ id: `k-second-${login}`, secret: `second-secret-of-${login}-0123456789` });

/** Each trader account has a second trading key: its orders are not the first key's to cancel. */
function seed(): Record<string, unknown> {
  const s = restSeed(Date.now());
  const extra = TRADER_LOGINS.map((login) => ({ ...secondKey(login), name: 'second', login, scopes: ['read', 'trade'], rate_limit: 100 }));
  return { ...s, keys: [...(s['keys'] as unknown[]), ...extra] };
}

let server: RunningServer;
let traders = 0;

function trader(): { api: RestClient; other: RestClient; login: string } {
  const login = TRADER_LOGINS[traders++]!;
  return { login, api: new RestClient(server.httpPort, traderKey(login)), other: new RestClient(server.httpPort, secondKey(login)) };
}

const limitBuy = (login: string, price = 1.09) => ({ login, symbol: 'EURUSD', side: 'buy', type: 'limit', volume: 0.01, price });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function auditEntries(): Promise<{ action: string; actor: string; target: string; detail: Record<string, unknown> }[]> {
  const res = await operator(server.consolePort, server.adminToken, 'GET', '/console/api/audit?limit=1000');
  expect(res.status).toBe(200);
  return res.body.data;
}

async function subscribed(login: string): Promise<TestStream> {
  const s = await TestStream.connect(server.httpPort, traderKey(login));
  await s.request({ op: 'subscribe', id: 1, channels: ['orders', 'positions'] });
  return s;
}

beforeAll(async () => {
  server = await startServer({ seed: seed(), config: CONFIG });
  expect((await operator(server.consolePort, server.adminToken, 'POST', '/console/api/quotes', { symbol: 'EURUSD', bid: 1.1, ask: 1.1002 })).status).toBe(200);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

describe('POST /v1/cancel-all-after', () => {
  it('fires once the deadline passes: the key\'s orders and API positions go, the other key\'s order stays', async () => {
    const t = trader();
    const s = await subscribed(t.login);
    const mine = ok(await t.api.post('/v1/orders', limitBuy(t.login))).body;
    const position = ok(await t.api.post('/v1/orders', { login: t.login, symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01 })).body;
    const theirs = ok(await t.other.post('/v1/orders', limitBuy(t.login))).body;
    const armed = ok(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 300, close_positions: true })).body;
    expect(armed).toMatchObject({ login: t.login, key_id: traderKey(t.login).id, armed: true, close_positions: true });
    expect(armed.deadline_ms - armed.now_ms).toBeGreaterThan(200);
    expect(armed.deadline_ms - armed.now_ms).toBeLessThanOrEqual(300);
    expect(await s.take((m) => m.channel === 'order' && m.id === mine.id && m.status === 'cancelled')).toMatchObject({ reason: 'dead_man' });
    expect(await s.take((m) => m.channel === 'position' && m.live !== true && m.ticket === position.ticket && m.status === 'closed')).toMatchObject({ reason: 'dead_man' });
    expect(ok(await t.api.get(`/v1/orders/${theirs.id}`)).body.status).toBe('pending');
    const entry = (await auditEntries()).find((e) => e.action === 'dead_man.fire' && e.detail['login'] === t.login);
    expect(entry).toMatchObject({ actor: 'system', target: traderKey(t.login).id, detail: { cause: 'deadline', cancelled: [mine.id], closed: [position.ticket] } });
    await s.close();
  });

  it('does not fire while re-armed in time, nor once disarmed', async () => {
    const t = trader();
    const order = ok(await t.api.post('/v1/orders', limitBuy(t.login))).body;
    for (let i = 0; i < 8; i++) {
      ok(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 400 }));
      await sleep(150);
    }
    expect(ok(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 0 })).body).toMatchObject({ armed: false, deadline_ms: null, deadline: null });
    await sleep(600);
    expect(ok(await t.api.get(`/v1/orders/${order.id}`)).body.status).toBe('pending');
  });

  it('refuses a timeout outside the range, another account, a read-only key, with nothing armed', async () => {
    const t = trader();
    const order = ok(await t.api.post('/v1/orders', limitBuy(t.login))).body;
    expectError(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: MIN_TIMEOUT_MS - 1 }), 'bad_request', 'timeout_ms');
    expectError(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 600_001 }), 'bad_request', 'timeout_ms');
    expectError(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 1.5 }), 'bad_request', 'timeout_ms');
    expectError(await t.api.post('/v1/cancel-all-after', { login: t.login }), 'bad_request', 'timeout_ms');
    expectError(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 300, close_positions: 'yes' }), 'bad_request', 'close_positions');
    expectError(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 300, after: 1 }), 'bad_request', 'after');
    expectError(await t.api.post('/v1/cancel-all-after', { login: OTHER_LOGIN, timeout_ms: 300 }), 'not_found');
    expectError(await new RestClient(server.httpPort, KEYS.readOnly).post('/v1/cancel-all-after', { login: '100001', timeout_ms: 300 }), 'forbidden');
    await sleep(500);
    expect(ok(await t.api.get(`/v1/orders/${order.id}`)).body.status).toBe('pending');
  });
});

describe('stream: cancel_all_after and cancel_on_disconnect', () => {
  it('cancel_all_after arms the same switch over the stream', async () => {
    const t = trader();
    const s = await subscribed(t.login);
    const order = ok(await t.api.post('/v1/orders', limitBuy(t.login))).body;
    expect(await s.request({ op: 'cancel_all_after', id: 7, timeout_ms: 250 })).toMatchObject({ channel: 'cancel_all_after', id: 7, armed: true, login: t.login });
    expect(await s.take((m) => m.channel === 'order' && m.id === order.id && m.status === 'cancelled')).toMatchObject({ reason: 'dead_man' });
    expect(await s.request({ op: 'cancel_all_after', id: 8, timeout_ms: 5 })).toMatchObject({ channel: 'error', id: 8, name: 'bad_request', field: 'timeout_ms' });
    await s.close();
  });

  it('a connection with cancel_on_disconnect cancels the key\'s orders when it drops; one that turned it off does not', async () => {
    const t = trader();
    const watcher = await subscribed(t.login);
    const order = ok(await t.api.post('/v1/orders', limitBuy(t.login))).body;
    const off = await TestStream.connect(server.httpPort, traderKey(t.login));
    expect(await off.request({ op: 'cancel_on_disconnect', id: 1, enabled: true })).toMatchObject({ channel: 'cancel_on_disconnect', enabled: true, close_positions: false });
    expect(await off.request({ op: 'cancel_on_disconnect', id: 2, enabled: false })).toMatchObject({ enabled: false });
    off.ws.terminate();
    await off.closed;
    await sleep(300);
    expect(ok(await t.api.get(`/v1/orders/${order.id}`)).body.status).toBe('pending');

    const on = await TestStream.connect(server.httpPort, traderKey(t.login));
    expect(await on.request({ op: 'cancel_on_disconnect', id: 1, enabled: true })).toMatchObject({ enabled: true });
    on.ws.terminate();
    expect(await watcher.take((m) => m.channel === 'order' && m.id === order.id && m.status === 'cancelled')).toMatchObject({ reason: 'dead_man' });
    const entry = (await auditEntries()).find((e) => e.action === 'dead_man.fire' && e.detail['login'] === t.login);
    expect(entry?.detail).toMatchObject({ cause: 'disconnect', cancelled: [order.id] });
    await watcher.close();
  });

  it('needs the trade scope', async () => {
    const s = await TestStream.connect(server.httpPort, KEYS.readOnly);
    expect(await s.request({ op: 'cancel_on_disconnect', id: 1, enabled: true })).toMatchObject({ channel: 'error', name: 'forbidden' });
    expect(await s.request({ op: 'cancel_all_after', id: 2, timeout_ms: 300 })).toMatchObject({ channel: 'error', name: 'forbidden' });
    expect(await s.request({ op: 'cancel_on_disconnect', id: 3 })).toMatchObject({ channel: 'error', name: 'bad_request', field: 'enabled' });
    await s.close();
  });
});

describe('a deadline crossing a restart', () => {
  it('fires at start when it passed while the service was down, and later when it had not', async () => {
    const t = trader();
    const passed = ok(await t.api.post('/v1/orders', limitBuy(t.login, 1.09))).body;
    const u = trader();
    const pending = ok(await u.api.post('/v1/orders', limitBuy(u.login, 1.08))).body;
    ok(await t.api.post('/v1/cancel-all-after', { login: t.login, timeout_ms: 400 }));
    ok(await u.api.post('/v1/cancel-all-after', { login: u.login, timeout_ms: 4000 }));
    await server.kill();
    await sleep(600);
    server = await startServer({ dataDir: server.dataDir, seed: seed(), config: CONFIG });
    const api = new RestClient(server.httpPort, traderKey(t.login));
    // Fired by the first batch after recovery, before anything else was asked.
    const order = ok(await api.get(`/v1/orders/${passed.id}`)).body;
    expect(order).toMatchObject({ status: 'cancelled', reason: 'dead_man' });
    expect((await auditEntries()).some((e) => e.action === 'dead_man.fire' && e.detail['login'] === t.login && e.detail['cause'] === 'deadline')).toBe(true);
    const other = new RestClient(server.httpPort, traderKey(u.login));
    expect(ok(await other.get(`/v1/orders/${pending.id}`)).body.status).toBe('pending');
    const s = await subscribed(u.login);
    expect(await s.take((m) => m.channel === 'order' && m.id === pending.id && m.status === 'cancelled', 10_000)).toMatchObject({ reason: 'dead_man' });
    await s.close();
  });
});
