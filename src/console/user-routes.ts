// Console users and their authenticators. The operator creates a user (`POST /console/api/users`)
// and gets, this once, the TOTP secret as an otpauth:// URI and a QR code to hand over (and the
// password when it was generated). A user moves to a new authenticator app in two steps: `enrol`
// (a fresh code of the current app) answers a new secret, URI and QR code, kept pending for 10
// minutes; `confirm` with a code of the new secret makes it the user's secret. Until then the old
// app keeps working, so a half-done enrolment never locks anyone out.
import { randomBytes } from 'node:crypto';
import { fields, identifier, optional, required, type Reader } from '../config/check.js';
import { InvalidValue } from '../config/errors.js';
import { ApiError } from '../gateway/errors.js';
import { readQuery } from '../gateway/rest/query.js';
import { iso } from '../gateway/wire.js';
import { USERS, type UserRecord } from '../store/records.js';
import { hashPassword } from '../base/password.js';
import { userOf, viewer } from './actor.js';
import { checked } from './check-body.js';
import { freshTotp, refusedCode, refuseIfLocked } from './fresh-totp.js';
import type { ConsoleRouter } from './router.js';
import { enrolment, newTotpSecret } from './totp-enrolment.js';
import { totpRefusal } from './totp-guard.js';

export const ENROLMENT_TTL_MS = 10 * 60_000;
const MIN_PASSWORD = 12;

const newPassword: Reader<string> = (value, path) => {
  if (typeof value !== 'string' || !new RegExp(`^[^\\u0000-\\u001f\\u007f]{${MIN_PASSWORD},256}$`).test(value)) {
    throw new InvalidValue(path, `must be ${MIN_PASSWORD}..256 characters without control characters`);
  }
  return value;
};
const code: Reader<string> = (value, path) => {
  if (typeof value !== 'string' || !/^\d{6}$/.test(value)) throw new InvalidValue(path, 'must be the 6-digit code of the authenticator app, as a string');
  return value;
};

interface Pending { readonly secret: string; readonly expiresAtMs: number }

export function registerUserRoutes(router: ConsoleRouter): void {
  const { deps } = router;
  const users = () => deps.store.table(USERS);
  const pending = new Map<string, Pending>();

  router.route({ method: 'get', path: '/console/api/users', access: 'member', body: 'none', action: 'user.list' }, (call) => {
    readQuery(call.ex.query, []);
    const own = viewer(call.actor);
    const data = [...users().getRange()].map((e) => e.value).filter((u) => own === null || u.id === own)
      .sort((a, b) => (a.id < b.id ? -1 : 1)).map((u) => ({ id: u.id, created_at: iso(u.createdAt) }));
    call.reply(200, { data });
  });

  router.route({ method: 'post', path: '/console/api/users', access: 'operator', body: 'required', action: 'user.create' }, async (call) => {
    const wanted = checked(() => {
      const o = fields(call.body, '', ['id', 'password']);
      return { id: required(o, 'id', '', identifier), password: optional<string | null>(o, 'password', '', null, newPassword) };
    });
    call.target = wanted.id;
    if (users().get(wanted.id) !== undefined) throw new ApiError('bad_request', `user ${wanted.id} already exists`, { field: 'id' });
    const password = wanted.password ?? randomBytes(12).toString('base64url');
    const secret = newTotpSecret();
    const record: UserRecord = { id: wanted.id, passwordHash: await hashPassword(password), sealedTotpSecret: deps.box.seal(secret), createdAt: call.nowMs };
    // Checked again after the hashing: two racing creations of one name must not overwrite each other.
    if (!await users().ifNoExists(wanted.id, () => { void users().put(wanted.id, record); })) {
      throw new ApiError('bad_request', `user ${wanted.id} already exists`, { field: 'id' });
    }
    await deps.store.flushed();
    call.owner = wanted.id;
    call.detail = { created: { id: wanted.id, password: wanted.password === null ? 'generated' : 'given' } };
    call.reply(201, {
      id: record.id, created_at: iso(record.createdAt),
      ...(wanted.password === null ? { password } : {}),
      totp: await enrolment(record.id, secret),
    }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'post', path: '/console/api/users/:user/totp/enrol', access: 'member', body: 'optional', action: 'user.totp_enrol' }, async (call) => {
    const user = userOf(deps, call, call.params[0]!);
    checked(() => fields(call.body, '', ['totp']));
    await freshTotp(deps, call, user, 'set up a new authenticator');
    const secret = newTotpSecret();
    const expiresAtMs = call.nowMs + ENROLMENT_TTL_MS;
    pending.set(user.id, { secret, expiresAtMs });
    call.detail = { enrolment: 'started', expires_at: iso(expiresAtMs) };
    call.reply(200, { user: user.id, ...await enrolment(user.id, secret), expires_at: iso(expiresAtMs) }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'post', path: '/console/api/users/:user/totp/confirm', access: 'member', body: 'required', action: 'user.totp_confirm' }, async (call) => {
    const user = userOf(deps, call, call.params[0]!);
    const totp = checked(() => required(fields(call.body, '', ['totp']), 'totp', '', code));
    const started = pending.get(user.id);
    if (started === undefined || started.expiresAtMs <= call.nowMs) {
      pending.delete(user.id);
      throw new ApiError('bad_request', 'no authenticator enrolment in progress (or it expired after 10 minutes): start again', { field: 'totp' });
    }
    refuseIfLocked(deps, call, user.id);
    const step = deps.totp.stepOf(started.secret, totp);
    if (step === null) {
      throw refusedCode(deps, call, user.id, `${totpRefusal({ ok: false, reason: 'wrong' })} for the new secret: type the code the new entry in your app shows`, true);
    }
    const current = users().get(user.id)!;
    await users().put(user.id, { ...current, sealedTotpSecret: deps.box.seal(started.secret) });
    await deps.totp.spendThrough(user.id, step);
    await deps.store.flushed();
    pending.delete(user.id);
    call.detail = { enrolment: 'confirmed' };
    call.reply(200, { user: user.id, enrolled_at: iso(call.nowMs) });
  });
}
