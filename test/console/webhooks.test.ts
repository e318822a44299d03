// Signal webhooks as a logged-in user manages them: create (own user only; the secret shown once),
// edit the allowed symbols and the targets with their sizing rules, rotate the secret, pause and
// resume, and read the signal log with each fan-out and rejection. Another user's webhooks are
// out of reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, type Answer } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { as, CONSOLE_CONFIG, consoleSeed, expectError, login, ok, SECRETS, user, type Session } from './support/console.js';

let server: RunningServer;
let alice: Session;
let bob: Session;

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, user('alice', SECRETS.alice));
  bob = await login(server.consolePort, user('bob', SECRETS.bob));
});
afterAll(async () => { await server.stop(); });

const signal = (id: string, secret: string, extra: Record<string, unknown> = {}): Promise<Answer> =>
  send(server.httpPort, 'POST', `/v1/signal/${id}`, { body: JSON.stringify({ secret, action: 'buy', symbol: 'EURUSD', ...extra }) });

describe('webhooks through a user session', () => {
  let secret = '';

  it('lists and creates the user\'s own webhooks only', async () => {
    expect(ok(await as(alice, 'GET', '/console/api/webhooks')).body.data.map((w: { id: string }) => w.id)).toEqual(['wh-alice']);
    expect(ok(await as(bob, 'GET', '/console/api/webhooks')).body.data.map((w: { id: string }) => w.id)).toEqual(['wh-bob']);
    const targets = [{ login: '700001', sizing: { type: 'fixed', lots: 0.02 } }, { login: '700002', sizing: { type: 'multiplier', factor: 2 } }];
    expectError(await as(alice, 'POST', '/console/api/webhooks', { user: 'bob', symbols: ['EURUSD'], targets }), 403, 'forbidden', 'user');
    expectError(await as(alice, 'POST', '/console/api/webhooks', { symbols: ['EURUSD'], targets: [{ login: '700101', sizing: { type: 'fixed', lots: 0.01 } }] }), 400, 'bad_request', 'targets[0].login');
    expectError(await as(alice, 'POST', '/console/api/webhooks', { symbols: ['EURUSD'], targets: [{ login: '700001', sizing: { type: 'martingale' } }] }), 400, 'bad_request', 'targets[0].sizing.type');
    const created = ok(await as(alice, 'POST', '/console/api/webhooks', { id: 'wh-new', symbols: ['EURUSD'], targets }), 201);
    expect(created.body).toMatchObject({ id: 'wh-new', user: 'alice', symbols: ['EURUSD'], targets, paused: false });
    expect(created.headers['cache-control']).toBe('no-store');
    secret = created.body.secret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const fanout = ok(await signal('wh-new', secret, { volume: 0.05 })).body.fanout;
    expect(fanout.map((f: { login: string; volume: number }) => [f.login, f.volume])).toEqual([['700001', 0.02], ['700002', 0.1]]);
    expect(JSON.stringify(ok(await as(alice, 'GET', '/console/api/webhooks')).body)).not.toContain(secret);
  });

  it('edits the symbols and targets, checked as at creation', async () => {
    expectError(await as(alice, 'PUT', '/console/api/webhooks/wh-new', { symbols: ['NOPE'] }), 400, 'bad_request', 'symbols[0]');
    expectError(await as(alice, 'PUT', '/console/api/webhooks/wh-new', { user: 'bob' }), 400, 'bad_request', 'user');
    expectError(await as(alice, 'PUT', '/console/api/webhooks/wh-new', {}), 400, 'bad_request');
    expectError(await as(alice, 'PUT', '/console/api/webhooks/wh-new', { targets: [{ login: '700001', sizing: { type: 'fixed', lots: 0.001 } }] }), 400, 'bad_request', 'targets[0].sizing.lots');
    const edited = ok(await as(alice, 'PUT', '/console/api/webhooks/wh-new', { targets: [{ login: '700003', sizing: { type: 'fixed', lots: 0.03 } }] })).body;
    expect(edited).toMatchObject({ id: 'wh-new', symbols: ['EURUSD'], targets: [{ login: '700003', sizing: { type: 'fixed', lots: 0.03 } }], paused: false });
    const fanout = ok(await signal('wh-new', secret)).body.fanout;
    expect(fanout.map((f: { login: string; volume: number }) => [f.login, f.volume])).toEqual([['700003', 0.03]]);
  });

  it('rotates the secret: the old one is refused from then on', async () => {
    const rotated = ok(await as(alice, 'POST', '/console/api/webhooks/wh-new/rotate-secret')).body;
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.targets).toEqual([{ login: '700003', sizing: { type: 'fixed', lots: 0.03 } }]);
    expect((await signal('wh-new', secret)).status).toBe(401);
    ok(await signal('wh-new', rotated.secret));
    secret = rotated.secret;
  });

  it('pauses and resumes; the signal log shows each signal, its fan-out and rejections', async () => {
    expect(ok(await as(alice, 'POST', '/console/api/webhooks/wh-new/pause')).body.paused).toBe(true);
    expect((await signal('wh-new', secret)).status).toBe(423);
    expect(ok(await as(alice, 'POST', '/console/api/webhooks/wh-new/resume')).body.paused).toBe(false);
    expectError(await as(alice, 'POST', '/console/api/webhooks/wh-new/pause', { now: true }), 400, 'bad_request');
    const log = ok(await as(alice, 'GET', '/console/api/webhooks/wh-new/signals?limit=3')).body;
    expect(log.data.map((e: { status: number }) => e.status)).toEqual([423, 200, 401]);
    expect(log.next_cursor).not.toBeNull();
    const older = ok(await as(alice, 'GET', `/console/api/webhooks/wh-new/signals?cursor=${log.next_cursor}`)).body.data;
    expect(older.map((e: { status: number; fanout?: unknown[] }) => [e.status, e.fanout?.length])).toEqual([[200, 1], [200, 2]]);
    expect(JSON.stringify([log, older])).not.toContain(secret);
  });

  it("answers 404 for another user's webhook", async () => {
    for (const [method, path, body] of [
      ['PUT', '/console/api/webhooks/wh-new', { symbols: ['EURUSD'] }],
      ['POST', '/console/api/webhooks/wh-new/pause', undefined],
      ['POST', '/console/api/webhooks/wh-new/resume', undefined],
      ['POST', '/console/api/webhooks/wh-new/rotate-secret', undefined],
      ['GET', '/console/api/webhooks/wh-new/signals', undefined],
    ] as const) {
      expectError(await as(bob, method, path, body), 404, 'not_found');
    }
    ok(await signal('wh-new', secret));
  });
});
