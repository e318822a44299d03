// Console users and their authenticators through the JSON API of a real server: the operator
// creates a user (TOTP secret as otpauth URI and QR code, shown once; a generated password when
// none is given); only the operator may; a user moves to a new authenticator with a fresh code of
// the old one and a code of the new one, and nothing changes until that second step succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operator, type Answer } from '../rest/support/client.js';
import { startServer, type RunningServer } from '../support/server.js';
import { as, CONSOLE_CONFIG, consoleSeed, expectError, login, loginAttempt, ok, SECRETS, user } from './support/console.js';
import { codeAt, stepNow, TotpDevice } from './support/totp.js';

let server: RunningServer;
beforeAll(async () => { server = await startServer({ seed: consoleSeed(Date.now()), config: CONSOLE_CONFIG }); });
afterAll(async () => { await server.stop(); });

const op = (method: string, path: string, body?: unknown): Promise<Answer> => operator(server.consolePort, server.adminToken, method, path, body);
const lastLoginReason = async (id: string): Promise<string> =>
  ok(await op('GET', `/console/api/audit?user=${id}&limit=20`)).body.data.find((e: { action: string }) => e.action === 'session.login').detail.reason;

describe('console users', () => {
  it('are created by the operator only, with an authenticator to scan and, when asked, a generated password', async () => {
    const made = ok(await op('POST', '/console/api/users', { id: 'lena' }), 201).body;
    expect(made).toMatchObject({ id: 'lena', password: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/), totp: { secret: expect.stringMatching(/^[A-Z2-7]{32}$/) } });
    expect(made.totp.qr_svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const lena = { id: 'lena', password: made.password, device: new TotpDevice(made.totp.secret) };
    const session = await login(server.consolePort, lena);
    expect(ok(await as(session, 'GET', '/console/api/users')).body.data.map((u: { id: string }) => u.id)).toEqual(['lena']);
    expect(ok(await op('GET', '/console/api/users')).body.data.length).toBeGreaterThan(8);
    // Only the operator creates users; names are unique; passwords are long enough; nothing else is taken.
    expectError(await as(session, 'POST', '/console/api/users', { id: 'mallory' }), 403, 'forbidden');
    expectError(await op('POST', '/console/api/users', { id: 'lena' }), 400, 'bad_request', 'id');
    expectError(await op('POST', '/console/api/users', { id: 'max', password: 'short' }), 400, 'bad_request', 'password');
    expectError(await op('POST', '/console/api/users', { id: 'bad name!' }), 400, 'bad_request', 'id');
    expectError(await op('POST', '/console/api/users', { id: 'max', totp_secret: 'AAAA' }), 400, 'bad_request', 'totp_secret');
    const audit = ok(await op('GET', '/console/api/audit?user=lena&limit=50')).body.data.find((e: { action: string }) => e.action === 'user.create');
    expect(audit).toMatchObject({ actor: 'operator', outcome: 'ok', detail: { created: { id: 'lena', password: 'generated' } } });
    expect(JSON.stringify(audit)).not.toContain(made.password);
    expect(JSON.stringify(audit)).not.toContain(made.totp.secret);
  });

  it('move to a new authenticator in two steps; the old app works until the second one', async () => {
    const erin = user('erin', SECRETS.erin);
    const session = await login(server.consolePort, erin);
    // A user needs a fresh code of the current app to start; another user's enrolment is not found.
    expectError(await as(session, 'POST', '/console/api/users/erin/totp/enrol'), 400, 'bad_request', 'totp');
    expectError(await as(session, 'POST', '/console/api/users/bob/totp/enrol', { totp: '123456' }), 404, 'not_found');
    expectError(await as(session, 'POST', '/console/api/users/erin/totp/confirm', { totp: '123456' }), 400, 'bad_request', 'totp');
    const started = ok(await as(session, 'POST', '/console/api/users/erin/totp/enrol', { totp: await erin.device.fresh() })).body;
    expect(started).toMatchObject({ user: 'erin', otpauth_uri: `otpauth://totp/TAS:erin?secret=${started.secret}&issuer=TAS&algorithm=SHA1&digits=6&period=30` });
    // Not yet: a wrong code of the new secret changes nothing; the old app's code is still the right one (only spent).
    const oldCode = codeAt(SECRETS.erin, erin.device.last);
    expectError(await as(session, 'POST', '/console/api/users/erin/totp/confirm', { totp: oldCode }), 401, 'unauthorized', 'totp');
    expectError(await loginAttempt(server.consolePort, 'erin', erin.password, oldCode), 401, 'unauthorized');
    expect(await lastLoginReason('erin')).toBe('reused TOTP code');
    const step = erin.device.last;
    ok(await as(session, 'POST', '/console/api/users/erin/totp/confirm', { totp: codeAt(started.secret, step) }));
    // Done: the old app's code is now simply wrong, and the new app signs in.
    expectError(await loginAttempt(server.consolePort, 'erin', erin.password, oldCode), 401, 'unauthorized');
    expect(await lastLoginReason('erin')).toBe('wrong or expired TOTP code');
    const fresh = new TotpDevice(started.secret);
    fresh.spent(step);
    await login(server.consolePort, { ...erin, device: fresh });
    // The operator may start one without a code (a user who lost the phone), and the pending secret is replaced by a new start.
    const first = ok(await op('POST', '/console/api/users/erin/totp/enrol')).body;
    const second = ok(await op('POST', '/console/api/users/erin/totp/enrol')).body;
    expect(second.secret).not.toBe(first.secret);
    expectError(await op('POST', '/console/api/users/erin/totp/confirm', { totp: codeAt(first.secret, stepNow()) }), 401, 'unauthorized', 'totp');
  });
});
