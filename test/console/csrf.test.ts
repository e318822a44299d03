// Cross-site request forgery: a state-changing call with the session cookie needs the session's
// X-CSRF-Token and must not come from another site (Origin, Sec-Fetch-Site). Every refusal leaves
// the key as it was and is audited; reads need no token; the operator's bearer calls are not
// cookie-borne, so the browser checks do not apply to them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, send } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { ALICE_KEY, as, CONSOLE_CONFIG, consoleSeed, expectError, login, loginAttempt, ok, SECRETS, user, type Session } from './support/console.js';

let server: RunningServer;
let alice: Session;
let other: Session;
const aliceUser = user('alice', SECRETS.alice);

beforeAll(async () => {
  server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG });
  alice = await login(server.consolePort, aliceUser);
  other = await login(server.consolePort, aliceUser);
});
afterAll(async () => { await server.stop(); });

const pause = `/console/api/keys/${ALICE_KEY.id}/pause`;
const statusOfKey = async (): Promise<string> => ok(await as(alice, 'GET', `/console/api/keys/${ALICE_KEY.id}`)).body.status;

describe('CSRF protection', () => {
  it('refuses a change without the session\'s token or from another site, and changes nothing', async () => {
    const forged: [string, Record<string, string>][] = [
      ['no token', { 'x-csrf-token': '' }],
      ['wrong token', { 'x-csrf-token': 'A'.repeat(43) }],
      ["another session's token", { 'x-csrf-token': other.csrf }],
      ['cross-site origin', { origin: 'https://evil.example' }],
      ['opaque origin', { origin: 'null' }],
      ['same host, other port', { origin: `http://127.0.0.1:${server.consolePort + 1}` }],
      ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }],
      ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site' }],
    ];
    for (const [why, headers] of forged) {
      const res = expectError(await as(alice, 'POST', pause, undefined, headers), 403, 'forbidden');
      expect(res.body.error.message, why).toMatch(/X-CSRF-Token|cross-site/);
    }
    // A form post (no JSON, no token), as a malicious page would send it.
    expectError(await send(server.consolePort, 'POST', pause, {
      headers: { cookie: alice.cookie, origin: 'https://evil.example' }, contentType: 'application/x-www-form-urlencoded', body: 'a=1',
    }), 403, 'forbidden');
    expect(await statusOfKey()).toBe('Active');

    const refused = ok(await operator(server.consolePort, server.adminToken, 'GET', '/console/api/audit?user=alice&limit=20')).body.data
      .filter((e: { action: string }) => e.action === 'key.pause');
    expect(refused).toHaveLength(forged.length + 1);
    for (const e of refused) expect(e).toMatchObject({ actor: 'user:alice', outcome: 'refused', status: 403, error: { name: 'forbidden' }, ip: '127.0.0.1' });
  });

  it('accepts the token from the console\'s own origin, and reads without one', async () => {
    ok(await as(alice, 'GET', '/console/api/keys', undefined, { 'x-csrf-token': '', origin: 'https://evil.example' }));
    ok(await as(alice, 'POST', pause, undefined, { 'sec-fetch-site': 'same-origin' }));
    expect(await statusOfKey()).toBe('Paused');
    // A request without Origin (not a browser's cross-site request) with the token is fine too.
    ok(await as(alice, 'POST', `/console/api/keys/${ALICE_KEY.id}/resume`, undefined, { origin: '' }));
    expect(await statusOfKey()).toBe('Active');
  });

  it('refuses a login posted from another site', async () => {
    const dave = user('dave', SECRETS.dave);
    const res = expectError(await loginAttempt(server.consolePort, 'dave', dave.password, await dave.device.fresh(), { headers: { origin: 'https://evil.example' } }), 403, 'forbidden');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('does not apply the browser checks to the operator token', async () => {
    ok(await send(server.consolePort, 'POST', pause, { headers: { authorization: `Bearer ${server.adminToken}`, origin: 'https://elsewhere.example' } }));
    ok(await operator(server.consolePort, server.adminToken, 'POST', `/console/api/keys/${ALICE_KEY.id}/resume`));
  });
});
