// The account side of a Logon (spec "Authentication" 7, DECISIONS "FIX 4.4"): SenderCompID names
// the account as `<prefix>_<login>`, the gateway is inside its session hours, Username (553) is a
// key id and Password (554) its secret (compared in constant time), the key is Active (not
// paused, expired or revoked), bound to that account, and the client's address is on its IP
// whitelist; an account has one live session at most. Each refusal says why in the Logout's 58,
// except that an unknown key and a wrong secret read the same.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyScope } from '../../config/types.js';
import { isSessionOpen } from '../../engine/market-session.js';
import { keyStatus } from '../../store/records.js';
import { ipMatches, parseCidr, type Cidr } from '../../base/ip.js';
import type { LogonRequest } from '../session/types.js';
import type { AppDeps } from './ports.js';

export type AccountLogon =
  | { readonly ok: true; readonly login: string; readonly keyId: string; readonly scopes: readonly KeyScope[]; readonly cancelOnDisconnect: boolean }
  | { readonly ok: false; readonly text: string };

const BAD_CREDENTIALS = 'Invalid Username (553) or Password (554)';

/** Digests first, so secrets of different lengths still compare in constant time. */
function sameSecret(given: string, secret: Buffer): boolean {
  const a = createHash('sha256').update(given, 'latin1').digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

function whitelistOf(entries: readonly string[]): Cidr[] {
  return entries.flatMap((text) => parseCidr(text) ?? []);
}

export function checkAccountLogon(
  req: LogonRequest,
  deps: Pick<AppDeps, 'keys' | 'senderPrefix' | 'hours' | 'hoursText' | 'cancelOnDisconnect'>,
  isLoggedOn: (login: string) => boolean,
): AccountLogon {
  const sender = req.header.senderCompId;
  const prefix = `${deps.senderPrefix}_`;
  const login = sender.startsWith(prefix) ? sender.slice(prefix.length) : '';
  if (login === '') return { ok: false, text: `SenderCompID (49) must be ${prefix}<account login>, received ${sender}` };
  if (!isSessionOpen(deps.hours, req.nowMs)) return { ok: false, text: `Outside session hours: FIX logons are accepted ${deps.hoursText}` };
  const keyId = req.logon.username ?? '';
  const key = deps.keys.key(keyId);
  if (key === null || key.record.revokedAt !== null || !sameSecret(req.logon.password ?? '', key.secret)) {
    return { ok: false, text: BAD_CREDENTIALS };
  }
  const status = keyStatus(key.record, req.nowMs);
  if (status !== 'Active') return { ok: false, text: `API key ${keyId} is ${status === 'Paused' ? 'paused' : 'expired'}` };
  if (key.record.login !== login) return { ok: false, text: `API key ${keyId} is not bound to account ${login}` };
  const whitelist = whitelistOf(key.record.ipWhitelist);
  if (whitelist.length > 0 && !ipMatches(req.remoteAddress, whitelist)) {
    return { ok: false, text: `Address ${req.remoteAddress} is not on the IP whitelist of API key ${keyId}` };
  }
  if (isLoggedOn(login)) return { ok: false, text: `Account ${login} already has a live FIX session (one session per account)` };
  return { ok: true, login, keyId, scopes: key.record.scopes, cancelOnDisconnect: req.logon.cancelOrdersOnDisconnect ?? deps.cancelOnDisconnect };
}
