// "A fresh TOTP code" (DECISIONS "Console"): creating a key, revoking a key and resetting the kill
// switch carry a TOTP code in the request even inside a session, so a stolen session cookie alone
// can do none of them. Operator calls may leave the code out; a code they send is checked alike.
import { ApiError } from '../gateway/errors.js';
import type { UserRecord } from '../store/records.js';
import { LOCKOUT_MS } from './lockout.js';
import type { ConsoleCall, ConsoleDeps } from './router.js';
import { totpRefusal } from './totp-guard.js';

const CODE = /^\d{6}$/;

export function lockedError(untilMs: number, nowMs: number): ApiError {
  const retryS = Math.max(1, Math.ceil((untilMs - nowMs) / 1000));
  return new ApiError('rate_limited', `too many failed attempts: locked until ${new Date(untilMs).toISOString()}`, undefined, undefined, [['retry-after', String(retryS)]]);
}

/** Checks and spends the call's `totp`; resolves with the code, or null when the operator sent none. */
export async function freshTotp(deps: ConsoleDeps, call: ConsoleCall, user: UserRecord, purpose: string): Promise<string | null> {
  const code = call.body['totp'];
  const isUser = call.actor.kind === 'user';
  if (!isUser && (code === undefined || code === null)) return null;
  if (typeof code !== 'string' || !CODE.test(code)) {
    throw new ApiError('bad_request', `a fresh 6-digit TOTP code is required to ${purpose}`, 'totp');
  }
  if (isUser) {
    const lockedUntil = deps.lockout.lockedUntil(user.id, call.nowMs);
    if (lockedUntil !== null) throw lockedError(lockedUntil, call.nowMs);
  }
  const check = await deps.totp.consume(user, code);
  if (check.ok) return code;
  // A used code was a right one: it proves the app, so it is not counted as a guess.
  const lockedNow = isUser && check.reason === 'wrong' ? deps.lockout.fail(user.id, call.nowMs) : null;
  const locked = lockedNow === null ? '' : `; too many failures: locked for ${LOCKOUT_MS / 60_000} minutes`;
  throw new ApiError('unauthorized', `${totpRefusal(check)}${locked}`, 'totp');
}
