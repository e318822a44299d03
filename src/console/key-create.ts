// Creating an API key from the console (spec "What the service does" 2-4, DECISIONS "Console"):
// the request read and checked, the rate limit the account is entitled to, and the key record.
// Scopes are `read` and `trade` only: there is no withdraw scope, and no key can move funds.
import { randomBytes } from 'node:crypto';
import { anyText, cidr, fields, list, optional, required, shown, type Reader } from '../config/check.js';
import { InvalidValue } from '../config/errors.js';
import { isoTime, login } from '../config/fixture-items.js';
import type { KeyScope } from '../config/types.js';
import type { AccountRecord, AccountMetrics, UnixMs } from '../engine/types.js';
import { ApiError } from '../gateway/errors.js';
import { money } from '../gateway/wire.js';
import type { KeyRecord } from '../store/records.js';

export const KEY_SCOPES: readonly KeyScope[] = ['read', 'trade'];
/** Spec "Limits": 10, 20 and 50 req/s; 100 for Pro and ECN accounts with equity of 50,000 or more. */
export const RATE_LIMITS = [10, 20, 50, 100] as const;
export const PREMIUM_RATE_LIMIT = 100;
export const PREMIUM_EQUITY_CENTS = 50_000 * 100;
export const DEFAULT_RATE_LIMIT = 20;
export const MAX_WHITELIST = 32;

export interface NewKey {
  readonly name: string;
  readonly login: string;
  readonly scopes: readonly KeyScope[];
  readonly rateLimit: number;
  readonly expiresAt: UnixMs | null;
  readonly ipWhitelist: readonly string[];
}

const scope: Reader<KeyScope> = (value, path) => {
  if (!KEY_SCOPES.includes(value as KeyScope)) {
    throw new InvalidValue(path, `is ${shown(value)}: a key's scopes are "read" and "trade" only (there is no withdraw scope)`);
  }
  return value as KeyScope;
};

const rateLimit: Reader<number> = (value, path) => {
  if (!RATE_LIMITS.includes(value as (typeof RATE_LIMITS)[number])) {
    throw new InvalidValue(path, `must be one of ${RATE_LIMITS.join(', ')} (requests per second), got ${shown(value)}`);
  }
  return value as number;
};

function whitelist(value: unknown, path: string): string[] {
  if (Array.isArray(value) && value.length > MAX_WHITELIST) throw new InvalidValue(path, `holds at most ${MAX_WHITELIST} entries`);
  return list(cidr, { unique: true })(value, path);
}

function expiry(nowMs: UnixMs): Reader<UnixMs | null> {
  return (value, path) => {
    if (value === null) return null;
    const atMs = Date.parse(isoTime(value, path));
    if (atMs <= nowMs) throw new InvalidValue(path, `must be in the future, got ${shown(value)}`);
    return atMs;
  };
}

/** The request's key fields (`totp` is the caller's to check). */
export function readNewKey(body: Readonly<Record<string, unknown>>, nowMs: UnixMs): NewKey {
  const o = fields(body, '', ['name', 'login', 'scopes', 'rate_limit', 'expires_at', 'ip_whitelist', 'totp']);
  return {
    name: required(o, 'name', '', anyText),
    login: required(o, 'login', '', login),
    scopes: required(o, 'scopes', '', list(scope, { nonEmpty: true, unique: true })),
    rateLimit: optional(o, 'rate_limit', '', DEFAULT_RATE_LIMIT, rateLimit),
    expiresAt: optional(o, 'expires_at', '', null, expiry(nowMs)),
    ipWhitelist: optional(o, 'ip_whitelist', '', [], whitelist),
  };
}

/** A Pro or ECN group: a word of the group name (`real\ECN`, `demo\pro-usd`). */
export function isProOrEcn(group: string): boolean {
  return group.split(/[^A-Za-z0-9]+/).some((word) => /^(pro|ecn)$/i.test(word));
}

export function mayUsePremiumRate(account: AccountRecord, metrics: AccountMetrics): boolean {
  return isProOrEcn(account.group) && metrics.equity >= PREMIUM_EQUITY_CENTS;
}

export function checkRateLimit(rate: number, account: AccountRecord, metrics: AccountMetrics): void {
  if (rate < PREMIUM_RATE_LIMIT || mayUsePremiumRate(account, metrics)) return;
  throw new ApiError('forbidden',
    `a rate limit of ${PREMIUM_RATE_LIMIT} requests per second is for Pro and ECN accounts with equity of 50,000 or more `
    + `(account ${account.login}: group ${account.group}, equity ${money(metrics.equity).toFixed(2)} ${account.currency})`, { field: 'rate_limit' });
}

/** A new key's record and its secret (shown once, stored sealed). */
export function newKeyRecord(k: NewKey, seal: (secret: string) => string, nowMs: UnixMs): { record: KeyRecord; secret: string } {
  const secret = randomBytes(32).toString('base64url');
  const record: KeyRecord = {
    id: `key_${randomBytes(10).toString('hex')}`,
    sealedSecret: seal(secret),
    name: k.name,
    login: k.login,
    scopes: k.scopes,
    rateLimit: k.rateLimit,
    ipWhitelist: k.ipWhitelist,
    expiresAt: k.expiresAt,
    status: 'Active',
    createdAt: nowMs,
    revokedAt: null,
    halted: false,
  };
  return { record, secret };
}
