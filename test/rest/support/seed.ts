// The fixture of the REST tests: prices that move only when a test pushes them (volatility 0,
// `prices.source: push`), accounts in two currencies, and one key per situation the spec names.
import type { Credentials } from './client.js';

const secretOf = (id: string): string => `secret-of-${id}-0123456789`;
const cred = (id: string): Credentials => ({ id, secret: secretOf(id) });

export const KEYS = {
  main: cred('k-main'),
  readOnly: cred('k-read'),
  other: cred('k-other'),
  expired: cred('k-expired'),
  whitelisted: cred('k-wl'),
  whitelisted6: cred('k-wl6'),
  slow: cred('k-slow'),
  paused: cred('k-pause'),
  revoked: cred('k-revoke'),
  halted: cred('k-halt'),
  burst: cred('k-burst'),
} as const;

export const MAIN_LOGIN = '100001';
export const OTHER_LOGIN = '100002';
export const HALT_LOGIN = '100003';
export const BURST_LOGIN = '100004';
/** Accounts of the property test's keys (the trade limit is per account). */
export const PROPERTY_LOGINS = Array.from({ length: 10 }, (_, i) => String(200001 + i));
export const propertyKey = (login: string): Credentials => cred(`k-prop-${login}`);
/**
 * One account and key per test that trades (10 trade calls per second per account, burst 20, so
 * tests sharing an account would throttle each other).
 */
export const TRADER_LOGINS = Array.from({ length: 12 }, (_, i) => String(300001 + i));
export const traderKey = (login: string): Credentials => cred(`k-trader-${login}`);

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const at = (ms: number): string => {
  const d = new Date(ms);
  return `${DAYS[d.getUTCDay()]} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
};

/** A one-minute weekly window a day from `nowMs` (UTC): closed now, whatever the weekday. */
export function closedSession(nowMs: number): { tz: string; open: string; close: string } {
  const openMs = nowMs + 24 * 3600_000;
  return { tz: '+00:00', open: at(openMs), close: at(openMs + 60_000) };
}

const key = (c: Credentials, login: string, extra: Record<string, unknown> = {}) => ({
  id: c.id, secret: c.secret, name: c.id, login, scopes: ['read', 'trade'], rate_limit: 100, ...extra,
});

const account = (login: string, extra: Record<string, unknown> = {}) => ({
  login, user: 'u1', type: 'demo', group: 'demo\\ECN', currency: 'USD', balance: 10000, leverage: 100, server: 'Demo-1', ...extra,
});

export function restSeed(nowMs: number): Record<string, unknown> {
  return {
    symbols: [
      { name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, max_volume: 50, session: '24x7' },
      { name: 'BTCUSD', digits: 2, contract_size: 1, bid: 65000, ask: 65010, volatility: 0, max_volume: 10, session: '24x7' },
      { name: 'XAGUSD', digits: 3, contract_size: 5000, bid: 30, ask: 30.05, volatility: 0, max_volume: 10, session: closedSession(nowMs) },
    ],
    users: [{ id: 'u1', password: 'password-u1', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' }],
    accounts: [
      account(MAIN_LOGIN),
      account(OTHER_LOGIN, { type: 'live', group: 'real\\ECN', balance: 50000, server: 'Live-1' }),
      account(HALT_LOGIN),
      account(BURST_LOGIN),
      ...PROPERTY_LOGINS.map((l) => account(l)),
      ...TRADER_LOGINS.map((l) => account(l)),
    ],
    keys: [
      key(KEYS.main, MAIN_LOGIN),
      key(KEYS.readOnly, MAIN_LOGIN, { scopes: ['read'] }),
      key(KEYS.other, OTHER_LOGIN),
      key(KEYS.expired, MAIN_LOGIN, { expires_at: '2020-01-01T00:00:00Z' }),
      key(KEYS.whitelisted, MAIN_LOGIN, { ip_whitelist: ['10.0.0.0/8'] }),
      key(KEYS.whitelisted6, MAIN_LOGIN, { ip_whitelist: ['2001:db8::/32'] }),
      key(KEYS.slow, MAIN_LOGIN, { rate_limit: 1 }),
      key(KEYS.paused, MAIN_LOGIN),
      key(KEYS.revoked, MAIN_LOGIN),
      key(KEYS.halted, HALT_LOGIN),
      key(KEYS.burst, BURST_LOGIN),
      ...PROPERTY_LOGINS.map((l) => key(propertyKey(l), l)),
      ...TRADER_LOGINS.map((l) => key(traderKey(l), l)),
    ],
    webhooks: [],
  };
}

/** Quotes move only when pushed; 127.0.0.2 is the trusted proxy. */
export const REST_CONFIG = { prices: { source: 'push' }, trusted_proxies: ['127.0.0.2'], http: { max_body_bytes: 2048 } };
