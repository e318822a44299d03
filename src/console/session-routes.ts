// Logging in and out of the console (DECISIONS "Console"): password (scrypt, checked in the
// password pool off the main loop) and a TOTP code in one request; a success starts a session (an
// HttpOnly, SameSite=Strict cookie scoped to /console, Secure when the browser came over https)
// and returns its CSRF token. A refusal never says which of the three was wrong. Every attempt is
// audited with its reason; per-user lockout and per-address throttling stop guessing.
import { fields, identifier, required, type Reader } from '../config/check.js';
import { InvalidValue } from '../config/errors.js';
import { ApiError } from '../gateway/errors.js';
import type { Headers } from '../gateway/http.js';
import { iso } from '../gateway/wire.js';
import { USERS } from '../store/records.js';
import { checked } from './check-body.js';
import { lockedError } from './fresh-totp.js';
import type { IpThrottle } from './lockout.js';
import type { PasswordPool } from './password-pool.js';
import type { ConsoleCall, ConsoleRouter } from './router.js';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE, SESSION_IDLE_MS, sessionEndsAtMs, type Session } from './sessions.js';

/** A credential's reader: its value is never echoed (errors reach the client and the audit log). */
const credential = (pattern: RegExp, expectation: string): Reader<string> => (value, path) => {
  if (typeof value !== 'string' || !pattern.test(value)) throw new InvalidValue(path, `must be ${expectation}`);
  return value;
};
const password = credential(/^[^\u0000]{1,256}$/s, 'a string of 1..256 characters');
const totpCode = credential(/^\d{6}$/, 'the 6-digit code of the authenticator app, as a string');

const REFUSED = 'login refused: user, password or TOTP code wrong (each TOTP code works once)';

function cookie(value: string, maxAgeS: number, secure: boolean): Headers {
  const attributes = [`${SESSION_COOKIE}=${value}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeS}`];
  if (secure) attributes.push('Secure');
  return [['set-cookie', attributes.join('; ')], ['cache-control', 'no-store']];
}

function sessionJson(s: Session) {
  return {
    actor: 'user',
    user: s.user,
    csrf_token: s.csrfToken,
    expires_at: iso(sessionEndsAtMs(s)),
    idle_timeout_s: SESSION_IDLE_MS / 1000,
  };
}

export function registerSessionRoutes(router: ConsoleRouter, passwords: PasswordPool, throttle: IpThrottle): void {
  const { deps } = router;

  const refuse = (call: ConsoleCall, user: string, reason: string): never => {
    call.detail = { reason };
    const lockedUntil = deps.lockout.fail(user, call.nowMs);
    throw new ApiError('unauthorized', lockedUntil === null ? REFUSED : `${REFUSED}; too many failures: locked until ${iso(lockedUntil)}`);
  };

  router.route({ method: 'post', path: '/console/api/login', access: 'public', body: 'required', action: 'session.login' }, async (call) => {
    const body = checked(() => {
      const o = fields(call.body, '', ['user', 'password', 'totp']);
      return { user: required(o, 'user', '', identifier), password: required(o, 'password', '', password), totp: required(o, 'totp', '', totpCode) };
    });
    call.target = body.user;
    const waitMs = throttle.take(call.ip, call.nowMs);
    if (waitMs > 0) {
      call.detail = { reason: 'too many login attempts from this address' };
      throw new ApiError('rate_limited', 'too many login attempts from this address; try again later', { headers: [['retry-after', String(Math.max(1, Math.ceil(waitMs / 1000)))]] });
    }
    const record = deps.store.table(USERS).get(body.user);
    if (record !== undefined) call.owner = record.id;
    const lockedUntil = deps.lockout.lockedUntil(body.user, call.nowMs);
    if (lockedUntil !== null) {
      call.detail = { reason: 'locked' };
      throw lockedError(lockedUntil, call.nowMs);
    }
    const passwordOk = await passwords.verify(body.password, record?.passwordHash ?? null);
    if (record === undefined) return refuse(call, body.user, 'unknown user');
    if (!passwordOk) return refuse(call, body.user, 'wrong password');
    const check = await deps.totp.consume(record, body.totp);
    if (!check.ok) return refuse(call, body.user, check.reason === 'used' ? 'reused TOTP code' : 'wrong or expired TOTP code');
    deps.lockout.succeed(record.id);
    const session = deps.sessions.create(record.id, call.ip);
    call.actor = { kind: 'user', user: record.id, session };
    call.detail = { session: 'started', expires_at: iso(sessionEndsAtMs(session)) };
    call.reply(200, sessionJson(session), cookie(session.id, SESSION_ABSOLUTE_MS / 1000, call.https));
  });

  router.route({ method: 'post', path: '/console/api/logout', access: 'member', body: 'optional', action: 'session.logout' }, (call) => {
    if (call.actor.kind !== 'user') throw new ApiError('bad_request', 'the operator token has no session to end');
    deps.sessions.end(call.actor.session.id);
    call.owner = call.actor.user;
    call.reply(200, { status: 'logged_out' }, cookie('', 0, call.https));
  });

  router.route({ method: 'get', path: '/console/api/session', access: 'member', body: 'none', action: 'session.get' }, (call) => {
    if (call.actor.kind === 'user') call.reply(200, sessionJson(call.actor.session), [['cache-control', 'no-store']]);
    else call.reply(200, { actor: 'operator' });
  });
}
