// The console's account pages through the JSON API of a real server: one account with its
// positions (profit at the latest quote, source, key) and pending orders; closing and cancelling
// only what the platform's manual channel owns; 404 for anyone but the owner (and the operator),
// for reads and changes alike; stale or forged CSRF tokens refused with nothing changed; the
// equity history's window clamped however absurd the range; quotes with their session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, RestClient, type Answer } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { ALICE_KEY, as, CONSOLE_CONFIG, consoleSeed, expectError, login, ok, SECRETS, user, type Session } from './support/console.js';
import { pushQuote, traderDay, type Scene } from './support/scene.js';

let server: RunningServer;
let alice: Session;
let bob: Session;
let scene: Scene;
const aliceUser = user('alice', SECRETS.alice);

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, aliceUser);
  bob = await login(server.consolePort, user('bob', SECRETS.bob));
  scene = await traderDay(server, 2);
});
afterAll(async () => { await server.stop(); });

const op = (method: string, path: string, body?: unknown): Promise<Answer> => operator(server.consolePort, server.adminToken, method, path, body);
const openTickets = async (): Promise<number[]> =>
  (await new RestClient(server.httpPort, ALICE_KEY).get('/v1/positions?login=700001')).body.data.map((p: { ticket: number }) => p.ticket).sort();

describe('console accounts', () => {
  it('shows an account with money, positions (live profit, source, key) and pending orders', async () => {
    const a = ok(await as(alice, 'GET', '/console/api/accounts/700001')).body;
    expect(a).toMatchObject({ login: '700001', user: 'alice', type: 'demo', currency: 'USD', balance: 10000, kill_switch: { active: false } });
    expect(a.margin_level).toBeCloseTo((a.equity / a.margin) * 100, 1);
    const bot = a.positions.find((p: { ticket: number }) => p.ticket === scene.botTicket);
    expect(bot).toMatchObject({ symbol: 'EURUSD', side: 'buy', volume: 0.05, source: 'api', key_id: ALICE_KEY.id, key_name: 'alice bot', current_price: 1.1004, closable: false });
    const manual = a.positions.find((p: { ticket: number }) => p.ticket === scene.manualTicket);
    expect(manual).toMatchObject({ side: 'sell', source: 'manual', key_id: null, key_name: null, current_price: 1.1006, closable: true });
    expect(a.orders.map((o: { id: string; source: string; cancellable: boolean }) => [o.id, o.source, o.cancellable]))
      .toEqual([[scene.botOrderId, 'api', false], [scene.manualOrderId, 'manual', true]].sort((x, y) => Number(x[0]) - Number(y[0])));
    // The profit is the REST API's, at the same quote; a pushed quote moves both.
    const rest = async () => (await new RestClient(server.httpPort, ALICE_KEY).get('/v1/positions?login=700001')).body.data.find((p: { ticket: number }) => p.ticket === scene.botTicket).profit;
    expect(bot.profit).toBe(await rest());
    ok(await pushQuote(server, 1.1031, 1.1033));
    const moved = ok(await as(alice, 'GET', '/console/api/accounts/700001')).body.positions.find((p: { ticket: number }) => p.ticket === scene.botTicket);
    expect(moved.profit).toBe(await rest());
    expect(moved.profit).toBeGreaterThan(bot.profit);
    // The list carries the margin level too.
    const listed = ok(await as(alice, 'GET', '/console/api/accounts')).body.data.find((x: { login: string }) => x.login === '700001');
    expect(listed.margin_level).toBeGreaterThan(0);
  });

  it('is not found for anyone but the owner and the operator, for every account route', async () => {
    const paths: [string, string][] = [
      ['GET', '/console/api/accounts/700001'],
      ['GET', '/console/api/accounts/700001/equity'],
      ['DELETE', `/console/api/accounts/700001/positions/${scene.manualTicket}`],
      ['DELETE', `/console/api/accounts/700001/orders/${scene.manualOrderId}`],
      ['GET', `/console/api/keys/${ALICE_KEY.id}/series`],
    ];
    for (const [method, path] of paths) {
      const answer = expectError(await as(bob, method, path), 404, 'not_found');
      expect(answer.body.error.message).toMatch(/^(account|key) "[^"]+" not found$/);
    }
    // Unknown accounts read the same.
    expectError(await as(bob, 'GET', '/console/api/accounts/799999'), 404, 'not_found');
    expect(ok(await as(bob, 'GET', '/console/api/accounts')).body.data.map((a: { login: string }) => a.login)).toEqual(['700101']);
    ok(await op('GET', '/console/api/accounts/700001'));
    expect(await openTickets()).toContain(scene.manualTicket);
  });

  it('refuses stale or forged CSRF tokens on closes and cancels, and changes nothing', async () => {
    const close = `/console/api/accounts/700001/positions/${scene.manualTicket}`;
    const stale = await login(server.consolePort, aliceUser);
    ok(await as(stale, 'POST', '/console/api/logout'));
    const forged: Record<string, string>[] = [{ 'x-csrf-token': '' }, { 'x-csrf-token': 'A'.repeat(43) }, { 'x-csrf-token': stale.csrf }, { origin: 'https://evil.example' }];
    for (const headers of forged) {
      expectError(await as(alice, 'DELETE', close, undefined, headers), 403, 'forbidden');
      expectError(await as(alice, 'DELETE', `/console/api/accounts/700001/orders/${scene.manualOrderId}`, undefined, headers), 403, 'forbidden');
    }
    // The ended session's cookie with its own token: not a session any more.
    expectError(await as(stale, 'DELETE', close), 401, 'unauthorized');
    expect(await openTickets()).toContain(scene.manualTicket);
    expect(ok(await as(alice, 'GET', '/console/api/accounts/700001')).body.orders.map((o: { id: string }) => o.id)).toContain(scene.manualOrderId);
  });

  it('closes and cancels manual ones only: bots own theirs (403), gone ones are 404', async () => {
    const botClose = expectError(await as(alice, 'DELETE', `/console/api/accounts/700001/positions/${scene.botTicket}`), 403, 'forbidden');
    expect(botClose.body.error.message).toMatch(/source api: the console closes manual positions only/);
    expectError(await op('DELETE', `/console/api/accounts/700001/orders/${scene.botOrderId}`), 403, 'forbidden');
    const closed = ok(await as(alice, 'DELETE', `/console/api/accounts/700001/positions/${scene.manualTicket}`)).body;
    expect(closed).toMatchObject({ ticket: scene.manualTicket, status: 'closed', close_price: 1.1033 });
    expect(await openTickets()).toEqual([scene.botTicket]);
    expectError(await as(alice, 'DELETE', `/console/api/accounts/700001/positions/${scene.manualTicket}`), 404, 'not_found');
    const cancelled = ok(await as(alice, 'DELETE', `/console/api/accounts/700001/orders/${scene.manualOrderId}`)).body;
    expect(cancelled).toMatchObject({ id: scene.manualOrderId, status: 'cancelled', source: 'manual' });
    expectError(await as(alice, 'DELETE', `/console/api/accounts/700001/orders/${scene.manualOrderId}`), 404, 'not_found');
    // Another account's ticket through this account's path is not found; so is nonsense.
    for (const bad of ['0', '-1', 'abc', '1e3', '9'.repeat(30)]) expectError(await as(alice, 'DELETE', `/console/api/accounts/700001/positions/${bad}`), 404, 'not_found');
    const audit = ok(await op('GET', '/console/api/audit?user=alice&limit=50')).body.data;
    expect(audit.find((e: { action: string; outcome: string }) => e.action === 'position.close' && e.outcome === 'ok')).toMatchObject({
      actor: 'user:alice', target: String(scene.manualTicket), detail: { closed: { ticket: scene.manualTicket, symbol: 'EURUSD', volume: 0.1 } },
    });
  });

  it('answers the equity history over a clamped window, whatever the range asked', async () => {
    // The shard samples a new account at once; the sample reaches the history a moment later.
    let day = ok(await as(alice, 'GET', '/console/api/accounts/700001/equity')).body;
    for (let tries = 0; day.balance.at(-1) === null && tries < 200; tries++) {
      await new Promise((r) => setImmediate(r));
      day = ok(await as(alice, 'GET', '/console/api/accounts/700001/equity')).body;
    }
    expect(day).toMatchObject({ login: '700001', currency: 'USD', step_s: 60 });
    expect(day.ts).toHaveLength(1441);
    expect(day.balance.at(-1)).toBe(10000);
    expect(typeof day.equity.at(-1)).toBe('number');
    const month = ok(await as(alice, 'GET', '/console/api/accounts/700001/equity?range=30d')).body;
    expect(month.step_s).toBe(3600);
    expect(month.ts.length).toBeLessThanOrEqual(721);
    const absurd = ok(await as(alice, 'GET', `/console/api/accounts/700001/equity?from=-99999999999999999999&to=99999999999999999999`)).body;
    expect(absurd.ts.length).toBeLessThanOrEqual(1501);
    expect(Date.parse(absurd.from)).toBeGreaterThanOrEqual(Date.now() - 30 * 86400_000 - 3600_000);
    expect(Date.parse(absurd.to)).toBeLessThanOrEqual(Date.now());
    const backwards = ok(await as(alice, 'GET', `/console/api/accounts/700001/equity?from=${Date.now()}&to=${Date.now() - 86400_000}`)).body;
    expect(backwards.ts).toHaveLength(1);
    ok(await as(alice, 'GET', '/console/api/accounts/700001/equity?from=2026-01-01&to=2026-01-02T00:00:00Z'));
    expectError(await as(alice, 'GET', '/console/api/accounts/700001/equity?range=1y'), 400, 'bad_request', 'range');
    expectError(await as(alice, 'GET', '/console/api/accounts/700001/equity?range=1d&from=1'), 400, 'bad_request', 'range');
    expectError(await as(alice, 'GET', '/console/api/accounts/700001/equity?from=yesterday'), 400, 'bad_request', 'from');
    expectError(await as(alice, 'GET', '/console/api/accounts/700001/equity?to=1.5'), 400, 'bad_request', 'to');
    expectError(await as(alice, 'GET', '/console/api/accounts/700001/equity?limit=5'), 400, 'bad_request', 'limit');
  });

  it('lists every symbol with its latest quote, its session and the caller\'s positions in it', async () => {
    const q = ok(await as(alice, 'GET', '/console/api/quotes')).body.data;
    expect(q).toEqual([{
      symbol: 'EURUSD', digits: 5, bid: 1.1031, ask: 1.1033, spread_points: 20, ts: expect.any(Number),
      session: { open: true, hours: '24x7', next_change: null }, open_positions: 1,
    }]);
    expect(ok(await as(bob, 'GET', '/console/api/quotes')).body.data[0].open_positions).toBe(0);
  });
});
