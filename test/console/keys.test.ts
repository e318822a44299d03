// API keys through the console: a user creates one with a fresh TOTP code, gets its secret once
// (stored sealed: no file of the data directory holds it), signs REST calls with it at once, sees
// it listed with every field of the spec's key table, advisories and statistics, pauses (401),
// resumes and revokes it (fresh TOTP). Bad requests change nothing; users see only their own keys.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, RestClient, send } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { codeAt, stepNow } from './support/totp.js';
import { ALICE_KEY, as, CONSOLE_CONFIG, consoleSeed, expectError, login, ok, SECRETS, user, type Session } from './support/console.js';

let server: RunningServer;
let alice: Session;
let bob: Session;
let dave: Session;
const aliceUser = user('alice', SECRETS.alice);
const bobUser = user('bob', SECRETS.bob);
const daveUser = user('dave', SECRETS.dave);
const created: { id: string; secret: string }[] = [];

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, aliceUser);
  bob = await login(server.consolePort, bobUser);
  dave = await login(server.consolePort, daveUser);
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(server.dataDir, { recursive: true, force: true });
});

const op = (method: string, p: string, body?: unknown) => operator(server.consolePort, server.adminToken, method, p, body);
const listIds = async (s: Session): Promise<string[]> => ok(await as(s, 'GET', '/console/api/keys')).body.data.map((k: { id: string }) => k.id);
const newKey = (extra: Record<string, unknown> = {}) => ({ name: 'grid bot', login: '700001', scopes: ['read', 'trade'], rate_limit: 20, expires_at: null, ip_whitelist: [], ...extra });

function filesHolding(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesHolding(file, needle));
    else if (fs.readFileSync(file).includes(needle)) found.push(file);
  }
  return found;
}

// A user has three codes at a time (steps now-1, now, now+1); a fourth waits for the next step.
describe('console keys', { timeout: 70_000 }, () => {
  it('creates a key with a fresh TOTP code, shows the secret once, and the key signs REST calls at once', async () => {
    const res = ok(await as(dave, 'POST', '/console/api/keys', { ...newKey({ login: '700301', expires_at: '2099-01-01T00:00:00Z', ip_whitelist: ['127.0.0.1', '10.0.0.0/8'] }), totp: await daveUser.device.fresh() }), 201);
    const key = res.body;
    expect(key.id).toMatch(/^key_[0-9a-f]{20}$/);
    expect(key.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(key).toMatchObject({
      name: 'grid bot', login: '700301',
      account: { login: '700301', type: 'demo', group: 'demo\\standard', user: 'dave' },
      scopes: ['read', 'trade'], rate_limit: 20, ip_whitelist: ['127.0.0.1', '10.0.0.0/8'],
      expires_at: '2099-01-01T00:00:00.000Z', status: 'Active', kill_switch: { active: false },
      last_used: null, advisories: [], stats: { requests: 0, errors: 0 },
    });
    created.push({ id: key.id, secret: key.secret });

    const api = new RestClient(server.httpPort, { id: key.id, secret: key.secret });
    ok(await api.get('/v1/accounts'));
    const order = ok(await api.post('/v1/orders', { login: '700301', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01 })).body;
    expect(order).toMatchObject({ status: 'filled', source: 'api', key_id: key.id });

    // The listing and the key's page never show the secret again.
    const shown = ok(await as(dave, 'GET', `/console/api/keys/${key.id}`)).body;
    expect(JSON.stringify(shown)).not.toContain(key.secret);
    expect(shown.last_used).toEqual({ at: expect.any(String), ip: '127.0.0.1' });
    expect(shown.stats).toMatchObject({ requests: 2, errors: 0, error_rate: 0 });
    expect(shown.stats.top_endpoints.map((e: { endpoint: string }) => e.endpoint).sort()).toEqual(['GET /v1/accounts', 'POST /v1/orders']);
    expect(shown.stats.latency_ms.p50).toBeGreaterThan(0);
    expect(shown.stats.latency_ms.p99).toBeGreaterThanOrEqual(shown.stats.latency_ms.p50);
    const listed = ok(await as(dave, 'GET', '/console/api/keys')).body.data;
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    expect(listed.find((k: { id: string }) => k.id === key.id)).toEqual(shown);
  });

  it('lists every field of the key table with advisories, Expired keys included, only the caller\'s own', async () => {
    const keys = ok(await as(alice, 'GET', '/console/api/keys')).body.data;
    for (const k of keys) {
      expect(Object.keys(k).sort()).toEqual(['account', 'advisories', 'created_at', 'expires_at', 'id', 'ip_whitelist', 'kill_switch', 'last_used', 'login', 'name', 'rate_limit', 'scopes', 'stats', 'status']);
      expect(k.account.user).toBe('alice');
    }
    const seeded = keys.find((k: { id: string }) => k.id === ALICE_KEY.id);
    expect(seeded.advisories.map((a: { code: string }) => a.code)).toEqual(['no_expiry', 'no_ip_whitelist']);
    expect(seeded.advisories[0].message).toMatch(/never expires/);
    expect(keys.find((k: { id: string }) => k.id === 'k-old')).toMatchObject({ status: 'Expired', expires_at: '2021-01-01T00:00:00.000Z' });
    expect(ok(await as(alice, 'GET', '/console/api/keys?login=700001')).body.data).toHaveLength(keys.length);
    expect(ok(await as(alice, 'GET', '/console/api/keys?login=700002')).body.data).toHaveLength(0);

    const bobs = ok(await as(bob, 'GET', '/console/api/keys')).body.data;
    expect(bobs.map((k: { id: string }) => k.id)).toEqual(['k-bob']);
    expect(bobs[0]).toMatchObject({ status: 'Active', advisories: [], scopes: ['read'], rate_limit: 10, ip_whitelist: ['10.0.0.0/8'] });
    // The operator sees every user's keys.
    const all = ok(await op('GET', '/console/api/keys')).body.data.map((k: { id: string }) => k.id);
    expect(all).toEqual(expect.arrayContaining([...keys.map((k: { id: string }) => k.id), 'k-bob']));
  });

  it("answers 404 for another user's keys and accounts, and changes nothing", async () => {
    const before = ok(await op('GET', '/console/api/keys')).body.data;
    expectError(await as(bob, 'GET', `/console/api/keys/${ALICE_KEY.id}`), 404, 'not_found');
    expectError(await as(bob, 'POST', `/console/api/keys/${ALICE_KEY.id}/pause`), 404, 'not_found');
    expectError(await as(bob, 'PUT', `/console/api/keys/${ALICE_KEY.id}/kill-switch`, { active: true }), 404, 'not_found');
    expectError(await as(bob, 'DELETE', `/console/api/keys/${ALICE_KEY.id}`, { totp: await bobUser.device.fresh() }), 404, 'not_found');
    expectError(await as(bob, 'GET', `/console/api/keys/${ALICE_KEY.id}/stats`), 404, 'not_found');
    expectError(await as(bob, 'GET', '/console/api/keys?login=700001'), 404, 'not_found', 'login');
    expectError(await as(bob, 'POST', '/console/api/keys', { ...newKey(), totp: '123456' }), 404, 'not_found', 'login');
    expect(ok(await op('GET', '/console/api/keys')).body.data).toEqual(before);
  });

  it('refuses bad requests with a clear message, creates nothing and does not spend the code', async () => {
    const before = await listIds(alice);
    const code = await aliceUser.device.fresh();
    const refuse = async (body: Record<string, unknown>, status: number, name: string, field?: string) =>
      expectError(await as(alice, 'POST', '/console/api/keys', { ...body, totp: code }), status, name, field);
    const withdraw = await refuse(newKey({ scopes: ['read', 'withdraw'] }), 400, 'bad_request', 'scopes[1]');
    expect(withdraw.body.error.message).toMatch(/"read" and "trade" only \(there is no withdraw scope\)/);
    await refuse(newKey({ scopes: [] }), 400, 'bad_request', 'scopes');
    await refuse(newKey({ scopes: ['read', 'read'] }), 400, 'bad_request', 'scopes[1]');
    await refuse(newKey({ scopes: 'trade' }), 400, 'bad_request', 'scopes');
    await refuse(newKey({ name: 'n'.repeat(129) }), 400, 'bad_request', 'name');
    await refuse(newKey({ name: '' }), 400, 'bad_request', 'name');
    await refuse(newKey({ rate_limit: 30 }), 400, 'bad_request', 'rate_limit');
    await refuse(newKey({ expires_at: '2020-01-01T00:00:00Z' }), 400, 'bad_request', 'expires_at');
    await refuse(newKey({ expires_at: 'tomorrow' }), 400, 'bad_request', 'expires_at');
    await refuse(newKey({ ip_whitelist: ['300.1.2.3'] }), 400, 'bad_request', 'ip_whitelist[0]');
    await refuse(newKey({ ip_whitelist: Array.from({ length: 33 }, (_, i) => `10.0.0.${i}`) }), 400, 'bad_request', 'ip_whitelist');
    await refuse(newKey({ withdraw: true }), 400, 'bad_request', 'withdraw');
    await refuse(newKey({ login: '999999' }), 404, 'not_found', 'login');
    // 100 req/s only for Pro/ECN accounts with equity of 50,000 or more.
    const standard = await refuse(newKey({ rate_limit: 100 }), 403, 'forbidden', 'rate_limit');
    expect(standard.body.error.message).toMatch(/Pro and ECN accounts with equity of 50,000 or more/);
    await refuse(newKey({ login: '700003', rate_limit: 100 }), 403, 'forbidden', 'rate_limit');
    const huge = await send(server.consolePort, 'POST', '/console/api/keys', {
      headers: { cookie: alice.cookie, 'x-csrf-token': alice.csrf }, body: JSON.stringify(newKey({ name: 'x'.repeat(70_000) })),
    });
    expectError(huge, 400, 'bad_request');
    // Without a code, or with a malformed one, a user gets 400 naming totp.
    expectError(await as(alice, 'POST', '/console/api/keys', newKey()), 400, 'bad_request', 'totp');
    expectError(await as(alice, 'POST', '/console/api/keys', { ...newKey(), totp: 123456 }), 400, 'bad_request', 'totp');
    expect(await listIds(alice)).toEqual(before);

    // The code was never spent by those refusals: it still creates the 100 req/s key on the ECN account.
    const premium = ok(await as(alice, 'POST', '/console/api/keys', { ...newKey({ login: '700002', rate_limit: 100, scopes: ['read'] }), totp: code }), 201).body;
    expect(premium).toMatchObject({ rate_limit: 100, account: { type: 'live', group: 'real\\ECN' } });
    created.push({ id: premium.id, secret: premium.secret });
    // Now it is spent.
    const reused = expectError(await as(alice, 'POST', '/console/api/keys', { ...newKey(), totp: code }), 401, 'unauthorized', 'totp');
    // It says so, and how long until the app shows the next code (at most two steps away).
    const wait = /^TOTP code already used \(each code works once\): wait for the next code of your authenticator app, in (\d+) s$/.exec(reused.body.error.message);
    expect(wait, reused.body.error.message).not.toBeNull();
    expect(Number(wait![1])).toBeGreaterThanOrEqual(1);
    expect(Number(wait![1])).toBeLessThanOrEqual(60);
    expect(await listIds(alice)).toEqual([...before, premium.id]);
  });

  it('pauses (401 "paused"), resumes and halts a key; revoking needs a fresh code and the key disappears', async () => {
    const key = created[0]!;
    const api = new RestClient(server.httpPort, key);
    expect(ok(await as(dave, 'POST', `/console/api/keys/${key.id}/pause`)).body).toMatchObject({ id: key.id, status: 'Paused' });
    const paused = expectError(await api.get('/v1/accounts'), 401, 'unauthorized');
    expect(paused.body.error.message).toMatch(/paused/);
    expect(ok(await as(dave, 'GET', `/console/api/keys/${key.id}`)).body.status).toBe('Paused');
    expect(ok(await as(dave, 'POST', `/console/api/keys/${key.id}/resume`)).body.status).toBe('Active');
    ok(await api.get('/v1/accounts'));

    expect(ok(await as(dave, 'PUT', `/console/api/keys/${key.id}/kill-switch`, { active: true })).body.kill_switch).toEqual({ active: true });
    expectError(await api.post('/v1/orders', { login: '700301', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01 }), 423, 'kill_switch_active');
    ok(await as(dave, 'PUT', `/console/api/keys/${key.id}/kill-switch`, { active: false }));

    expectError(await as(dave, 'DELETE', `/console/api/keys/${key.id}`), 400, 'bad_request', 'totp');
    expectError(await as(dave, 'DELETE', `/console/api/keys/${key.id}`, { totp: codeAt(SECRETS.dave, stepNow() + 5) }), 401, 'unauthorized', 'totp');
    ok(await api.get('/v1/accounts'));
    const revoked = ok(await as(dave, 'DELETE', `/console/api/keys/${key.id}`, { totp: await daveUser.device.fresh() })).body;
    expect(revoked).toMatchObject({ id: key.id, status: 'Revoked', revoked_at: expect.any(String) });
    expectError(await api.get('/v1/accounts'), 401, 'unauthorized');
    expect(await listIds(dave)).not.toContain(key.id);
    expectError(await as(dave, 'GET', `/console/api/keys/${key.id}`), 404, 'not_found');
    expectError(await as(dave, 'POST', `/console/api/keys/${key.id}/resume`), 404, 'not_found');
  });

  it('lets the operator create and revoke without a code', async () => {
    const key = ok(await op('POST', '/console/api/keys', newKey({ name: 'ops key', login: '700101' })), 201).body;
    expect(key.account.user).toBe('bob');
    expect(await listIds(bob)).toContain(key.id);
    ok(await op('DELETE', `/console/api/keys/${key.id}`));
    expect(await listIds(bob)).not.toContain(key.id);
    created.push({ id: key.id, secret: key.secret });
  });

  it('keeps every secret sealed at rest and out of the logs', async () => {
    expect(await server.stop()).toBe(0);
    for (const key of created) {
      expect(filesHolding(server.dataDir, key.secret)).toEqual([]);
      expect(JSON.stringify(server.logs)).not.toContain(key.secret);
    }
    server = await startServer({ dataDir: server.dataDir, seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
    // After a restart the premium key still signs; sessions are in memory, so users log in again.
    ok(await new RestClient(server.httpPort, created[1]!).get('/v1/accounts'));
    expectError(await as({ ...alice, port: server.consolePort }, 'GET', '/console/api/keys'), 401, 'unauthorized');
    expect(ok(await op('GET', '/console/api/keys')).body.data.map((k: { id: string }) => k.id)).toContain(created[1]!.id);
  });
});
