// "A fresh TOTP code" (DECISIONS "Console"): creating a key, revoking a key and resetting the kill
// switch carry a TOTP code in the request even inside a session, so a stolen session cookie alone
// can do none of them. Operator calls may leave the code out; a code they send is checked alike.
import { ApiError } from '../gateway/errors.js';
import type { UserRecord } from '../store/records.js';
import { LOCKOUT_MS } from './lockout.js';
import type { ConsoleCall, ConsoleDeps } from './router.js';
import { totpRefusal } from './totp-guard.js';
import type { UnixMs } from '../engine/types.js';

const CODE = /^\d{6}$/;

export function lockedError(untilMs: number, nowMs: UnixMs): ApiError {
  const retryS = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new ApiError('rate_limited', `too many failed attempts: locked until ${new Date(untilMs).toISOString()}`, { headers: [['retry-after', String(retryS)]] });
}

/** A user locked out of fresh-code actions is refused before any code is looked at (the operator never is). */
export function refuseIfLocked(deps: ConsoleDeps, call: ConsoleCall, user: string): void {
  if (call.actor.kind !== 'user') return;
  const lockedUntil = deps.lockout.lockedUntil(user, call.nowMs);
  if (lockedUntil !== null) throw lockedError(lockedUntil, call.nowMs);
}

/** A refused code: a guess counts toward a user's lockout, and the answer says when that locked them. */
export function refusedCode(deps: ConsoleDeps, call: ConsoleCall, user: string, message: string, guess: boolean): ApiError {
  const lockedNow = call.actor.kind === 'user' && guess ? deps.lockout.fail(user, call.nowMs) : null;
  const locked = lockedNow === null ? '' : `; too many failures: locked for ${LOCKOUT_MS / 60_000} minutes`;
  return new ApiError('unauthorized', `${message}${locked}`, { field: 'totp' });
}

/** Checks and spends the call's `totp`; resolves with the code, or null when the operator sent none. */
export async function freshTotp(deps: ConsoleDeps, call: ConsoleCall, user: UserRecord, purpose: string): Promise<string | null> {
  const code = call.body['totp'];
  if (call.actor.kind !== 'user' && (code === undefined || code === null)) return null;
  if (typeof code !== 'string' || !CODE.test(code)) {
    throw new ApiError('bad_request', `a fresh 6-digit TOTP code is required to ${purpose}`, { field: 'totp' });
  }
  refuseIfLocked(deps, call, user.id);
  const check = await deps.totp.consume(user, code);
  if (check.ok) return code;
  // A used code was a right one: it proves the app, so it is not counted as a guess.
  throw refusedCode(deps, call, user.id, totpRefusal(check), check.reason === 'wrong');
}
