// Console login through the real server: password + TOTP, the session cookie's attributes, the
// TOTP window (one step either way) and single use, lockout after repeated failures, per-address
// throttling, forged and ended sessions, and logout. Every attempt lands in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, send } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { as, CONSOLE_CONFIG, consoleSeed, expectError, login, loginAttempt, ok, SECRETS, user } from './support/console.js';
import { codeAt, msLeftInStep, stepNow } from './support/totp.js';

let server: RunningServer;
beforeAll(async () => { server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG }); });
afterAll(async () => { await server.stop(); });

const port = (): number => server.consolePort;
// One authenticator per user for the whole file: a code is good once.
const alice = user('alice', SECRETS.alice);
const bob = user('bob', SECRETS.bob);
const carol = user('carol', SECRETS.carol);
const erin = user('erin', SECRETS.erin);
const frank = user('frank', SECRETS.frank);
const grace = user('grace', SECRETS.grace);
const audit = async (query = '') => ok(await operator(port(), server.adminToken, 'GET', `/console/api/audit${query}`)).body.data;

/** Waits until the current step has at least `ms` left, so a test's codes stay in their steps. */
async function roomInStep(ms: number): Promise<void> {
  if (msLeftInStep() < ms) await new Promise((resolve) => setTimeout(resolve, msLeftInStep() + 50));
}

describe('console login', () => {
  it('starts a session with an HttpOnly, SameSite=Strict cookie scoped to /console and returns the CSRF token', async () => {
    const s = await login(port(), alice);
    expect(s.setCookie).toMatch(/^tas_session=[A-Za-z0-9_-]{43}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(s.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const session = ok(await send(port(), 'GET', '/console/api/session', { headers: { cookie: s.cookie } })).body;
    expect(session).toMatchObject({ actor: 'user', user: 'alice', csrf_token: s.csrf, idle_timeout_s: 1800 });
    const endsIn = Date.parse(session.expires_at) - Date.now();
    expect(endsIn).toBeGreaterThan(29 * 60_000);
    expect(endsIn).toBeLessThanOrEqual(30 * 60_000);
    // A second login is a second session with its own CSRF token.
    const again = await login(port(), alice);
    expect(again.cookie).not.toBe(s.cookie);
    expect(again.csrf).not.toBe(s.csrf);
  });

  it('marks the cookie Secure when the browser came over https through a trusted proxy', async () => {
    const s = await login(port(), alice, { localAddress: '127.0.0.2', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.7' } });
    expect(s.setCookie).toMatch(/; Secure$/);
    const entry = (await audit('?user=alice')).find((e: { action: string; outcome: string }) => e.action === 'session.login' && e.outcome === 'ok');
    expect(entry.ip).toBe('198.51.100.7');
    // The same header from an untrusted peer changes nothing.
    const plain = await login(port(), erin, { headers: { 'x-forwarded-proto': 'https' } });
    expect(plain.setCookie).not.toMatch(/Secure/);
  });

  it('takes a code of the previous, current or next step, each once, and refuses anything older or newer', async () => {
    await roomInStep(5000);
    const now = stepNow();
    const dave = { id: 'dave', password: 'password-of-dave' };
    const attempt = (step: number) => loginAttempt(port(), dave.id, dave.password, codeAt(SECRETS.dave, step), { localAddress: '127.0.0.3' });
    expectError(await attempt(now - 2), 401, 'unauthorized');
    expectError(await attempt(now + 2), 401, 'unauthorized');
    ok(await attempt(now - 1));
    // Used: refused, with the message saying a code works once.
    const reused = expectError(await attempt(now - 1), 401, 'unauthorized');
    expect(reused.body.error.message).toMatch(/each TOTP code works once/);
    ok(await attempt(now));
    ok(await attempt(now + 1));
    // Every step the server takes now is spent, and an older one never comes back.
    expectError(await attempt(now), 401, 'unauthorized');
    const reasons = (await audit('?user=dave')).filter((e: { action: string }) => e.action === 'session.login').map((e: { outcome: string; detail: { reason?: string } }) => e.detail?.reason ?? e.outcome);
    const [spent, wrong] = ['reused TOTP code', 'wrong or expired TOTP code'];
    // Newest first.
    expect(reasons).toEqual([spent, 'ok', 'ok', spent, 'ok', wrong, wrong]);
  });

  it('locks the user for 15 minutes after 5 failures, even for the right password and code, and audits every attempt', async () => {
    const from = { localAddress: '127.0.0.4' };
    for (let i = 0; i < 4; i++) expectError(await loginAttempt(port(), 'carol', 'wrong-password', '123456', from), 401, 'unauthorized');
    const fifth = expectError(await loginAttempt(port(), 'carol', 'password-of-carol', '000000', from), 401, 'unauthorized');
    expect(fifth.body.error.message).toMatch(/locked until/);
    const locked = expectError(await loginAttempt(port(), 'carol', carol.password, await carol.device.fresh(), from), 429, 'rate_limited');
    expect(locked.body.error.message).toMatch(/locked until/);
    const retryS = Number(locked.headers['retry-after']);
    expect(retryS).toBeGreaterThan(14 * 60);
    expect(retryS).toBeLessThanOrEqual(15 * 60);
    const entries = (await audit('?user=carol')).filter((e: { action: string }) => e.action === 'session.login');
    expect(entries).toHaveLength(6);
    expect(entries.map((e: { status: number }) => e.status)).toEqual([429, 401, 401, 401, 401, 401]);
    expect(entries.map((e: { detail: { reason: string } }) => e.detail.reason)).toEqual(['locked', 'wrong or expired TOTP code', 'wrong password', 'wrong password', 'wrong password', 'wrong password']);
    for (const e of entries) expect(e).toMatchObject({ actor: 'anonymous', ip: '127.0.0.4', target: 'carol', owner: 'carol', outcome: 'refused' });
    // Other users are not affected.
    await login(port(), grace, from);
  });

  it('refuses unknown users the same way, and throttles an address that keeps trying', async () => {
    const from = { localAddress: '127.0.0.5' };
    const unknown = expectError(await loginAttempt(port(), 'mallory', 'x', '123456', from), 401, 'unauthorized');
    const wrong = expectError(await loginAttempt(port(), 'alice', 'x', '123456', from), 401, 'unauthorized');
    expect(unknown.body.error.message).toBe(wrong.body.error.message);
    let throttled = null;
    for (let i = 0; i < 25 && throttled === null; i++) {
      const res = await loginAttempt(port(), `nobody${i}`, 'x', '123456', from);
      if (res.status === 429) throttled = res;
    }
    expect(throttled).not.toBeNull();
    expect(throttled!.body.error.message).toMatch(/too many login attempts from this address/);
    expect(Number(throttled!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('refuses bad bodies without echoing credentials', async () => {
    const long = 'p'.repeat(300);
    const res = expectError(await loginAttempt(port(), 'alice', long, '123456', { localAddress: '127.0.0.6' }), 400, 'bad_request', 'password');
    expect(res.text).not.toContain('ppp');
    expectError(await loginAttempt(port(), 'alice', 'x', '12345', { localAddress: '127.0.0.6' }), 400, 'bad_request', 'totp');
    expectError(await send(port(), 'POST', '/console/api/login', { body: JSON.stringify({ user: 'alice', password: 'x', totp: '123456', remember: true }) }), 400, 'bad_request', 'remember');
    expectError(await send(port(), 'POST', '/console/api/login', { body: '{"user":' }), 400, 'bad_request');
    const entries = await audit();
    expect(JSON.stringify(entries)).not.toContain('ppp');
  });

  it('answers 401 for forged, unknown and ended sessions', async () => {
    const s = await login(port(), bob, { localAddress: '127.0.0.7' });
    for (const cookie of ['tas_session=forged', `tas_session=${'A'.repeat(43)}`, 'tas_session=', 'other=1']) {
      expectError(await send(port(), 'GET', '/console/api/keys', { headers: { cookie } }), 401, 'unauthorized');
    }
    ok(await as(s, 'GET', '/console/api/keys'));
    ok(await as(s, 'POST', '/console/api/logout'));
    const after = expectError(await as(s, 'GET', '/console/api/keys'), 401, 'unauthorized');
    expect(after.body.error.message).toMatch(/session expired or unknown/);
    const refused = (await audit('?limit=5')).find((e: { action: string; status: number }) => e.action === 'key.list' && e.status === 401);
    expect(refused).toMatchObject({ actor: 'anonymous', outcome: 'refused', error: { name: 'unauthorized' } });
  });

  it('keeps operator routes for the operator', async () => {
    const s = await login(port(), frank, { localAddress: '127.0.0.7' });
    expectError(await as(s, 'POST', '/console/api/quotes', { symbol: 'EURUSD', bid: 1.2, ask: 1.2002 }), 403, 'forbidden');
    expectError(await as(s, 'POST', '/console/api/orders', { login: '700101', symbol: 'EURUSD', side: 'buy', type: 'market', volume: 0.01, source: 'manual' }), 403, 'forbidden');
    expectError(await operator(port(), 'wrong-token-0123456789', 'GET', '/console/api/keys'), 401, 'unauthorized');
    // A wrong bearer token is refused even with a valid session cookie beside it.
    expectError(await send(port(), 'GET', '/console/api/keys', { headers: { cookie: s.cookie, authorization: 'Bearer wrong-token-0123456789' } }), 401, 'unauthorized');
  });
});
