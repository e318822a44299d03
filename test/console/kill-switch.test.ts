// The kill switch as a logged-in user works it: the state, a trigger without a code that closes
// the bot positions and reports them, the reset that needs a fresh TOTP code, the history, the
// account flag, and another user's switch out of reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, RestClient, send } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { codeAt, stepNow } from './support/totp.js';
import { ALICE_KEY, as, CONSOLE_CONFIG, consoleSeed, expectError, login, ok, SECRETS, user, type Session } from './support/console.js';

let server: RunningServer;
let alice: Session;
let bob: Session;
const aliceUser = user('alice', SECRETS.alice);

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, aliceUser);
  bob = await login(server.consolePort, user('bob', SECRETS.bob));
});
afterAll(async () => { await server.stop(); });

const op = (method: string, p: string, body?: unknown) => operator(server.consolePort, server.adminToken, method, p, body);
const market = { symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01 };

describe('kill switch through a user session', () => {
  it("keeps another user's switch, accounts and history out of reach", async () => {
    for (const [method, path, body] of [
      ['GET', '/console/api/users/alice/kill-switch', undefined],
      ['POST', '/console/api/users/alice/kill-switch/trigger', undefined],
      ['POST', '/console/api/users/alice/kill-switch/reset', { totp: '123456' }],
      ['GET', '/console/api/users/alice/kill-switch/history', undefined],
      ['PUT', '/console/api/accounts/700001/kill-switch', { active: true }],
    ] as const) {
      expectError(await as(bob, method, path, body), 404, 'not_found');
    }
    expect(ok(await as(alice, 'GET', '/console/api/users/alice/kill-switch')).body.state).toBe('Armed');
    const accounts = ok(await as(bob, 'GET', '/console/api/accounts')).body.data;
    expect(accounts.map((a: { login: string }) => a.login)).toEqual(['700101']);
  });

  it('triggers without a code, closes the bot positions, keeps manual ones, and reports them', async () => {
    const api = new RestClient(server.httpPort, ALICE_KEY);
    const botTicket = ok(await api.post('/v1/orders', { login: '700001', ...market })).body.ticket;
    const manualTicket = ok(await op('POST', '/console/api/orders', { login: '700001', ...market, source: 'manual' })).body.ticket;
    const strategyTicket = ok(await op('POST', '/console/api/orders', { login: '700002', ...market, source: 'strategy' })).body.ticket;
    const bobTicket = ok(await op('POST', '/console/api/orders', { login: '700101', ...market, source: 'strategy' })).body.ticket;

    const report = ok(await as(alice, 'POST', '/console/api/users/alice/kill-switch/trigger')).body;
    expect(report).toMatchObject({ user: 'alice', state: 'Triggered', accounts: ['700001', '700002', '700003'], failed: [], paused_webhooks: ['wh-alice'] });
    expect(report.closed.map((c: { ticket: number }) => c.ticket).sort()).toEqual([botTicket, strategyTicket].sort());
    for (const c of report.closed) expect(c).toMatchObject({ status: 'closed', symbol: 'EURUSD', volume: 0.01, close_price: 1.1 });
    const open = ok(await api.get('/v1/positions?login=700001')).body.data.map((p: { ticket: number }) => p.ticket);
    expect(open).toEqual([manualTicket]);
    expectError(await api.post('/v1/orders', { login: '700001', ...market }), 423, 'kill_switch_active');
    const signal = await send(server.httpPort, 'POST', '/v1/signal/wh-alice', { body: JSON.stringify({ secret: 'wh-alice-secret-0123456789', action: 'buy', symbol: 'EURUSD' }) });
    expect(signal.status).toBe(423);
    // Bob's account is untouched.
    expect(ok(await op('GET', '/console/api/accounts')).body.data.find((a: { login: string }) => a.login === '700101').user_kill_switch).toBe('Armed');
    expect(bobTicket).toBeGreaterThan(0);
    const mine = ok(await as(alice, 'GET', '/console/api/accounts')).body.data;
    expect(mine.map((a: { user_kill_switch: string }) => a.user_kill_switch)).toEqual(['Triggered', 'Triggered', 'Triggered']);
  });

  it('resets only with a fresh code, once', async () => {
    expectError(await as(alice, 'POST', '/console/api/users/alice/kill-switch/reset'), 400, 'bad_request', 'totp');
    expectError(await as(alice, 'POST', '/console/api/users/alice/kill-switch/reset', { totp: codeAt(SECRETS.alice, stepNow() - 3) }), 401, 'unauthorized', 'totp');
    expectError(await as(alice, 'POST', '/console/api/users/alice/kill-switch/reset', { totp: '123456', force: true }), 400, 'bad_request', 'force');
    expect(ok(await as(alice, 'GET', '/console/api/users/alice/kill-switch')).body.state).toBe('Triggered');
    const code = await aliceUser.device.fresh();
    const reset = ok(await as(alice, 'POST', '/console/api/users/alice/kill-switch/reset', { totp: code })).body;
    expect(reset).toMatchObject({ user: 'alice', state: 'Armed', released: ['700001', '700002', '700003'], failed: [] });
    expectError(await as(alice, 'POST', '/console/api/users/alice/kill-switch/reset', { totp: code }), 401, 'unauthorized', 'totp');
    ok(await new RestClient(server.httpPort, ALICE_KEY).post('/v1/orders', { login: '700001', ...market }));

    const history = ok(await as(alice, 'GET', '/console/api/users/alice/kill-switch/history')).body.data;
    expect(history.map((e: { action: string; actor: string; state: string }) => [e.action, e.actor, e.state])).toEqual([['reset', 'user', 'Armed'], ['trigger', 'user', 'Triggered']]);
    expect(history[1].report.closed).toHaveLength(2);
  });

  it('sets and lifts an account flag of the user\'s own', async () => {
    const halted = ok(await as(alice, 'PUT', '/console/api/accounts/700003/kill-switch', { active: true })).body;
    expect(halted).toMatchObject({ login: '700003', active: true, failed: [] });
    expectError(await op('POST', '/console/api/orders', { login: '700003', ...market, source: 'strategy' }), 423, 'kill_switch_active');
    expect(ok(await as(alice, 'GET', '/console/api/accounts')).body.data.find((a: { login: string }) => a.login === '700003').kill_switch).toEqual({ active: true });
    expectError(await as(alice, 'PUT', '/console/api/accounts/700003/kill-switch', { active: 'no' }), 400, 'bad_request', 'active');
    ok(await as(alice, 'PUT', '/console/api/accounts/700003/kill-switch', { active: false }));
    ok(await op('POST', '/console/api/orders', { login: '700003', ...market, source: 'strategy' }));
  });
});
