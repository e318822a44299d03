// The console as the tests reach it: a user's session (cookie + CSRF token, the way the page
// sends them), operator calls with the bearer token, and the fixture of the console tests.
import { expect } from 'vitest';
import { send, type Answer, type SendOptions } from '../../rest/support/client.js';
import { TotpDevice } from './totp.js';

export interface TestUser { readonly id: string; readonly password: string; readonly device: TotpDevice }

export const user = (id: string, secret: string): TestUser => ({ id, password: `password-of-${id}`, device: new TotpDevice(secret) });

export interface Session {
  readonly port: number;
  readonly user: string;
  readonly cookie: string;
  readonly csrf: string;
  readonly setCookie: string;
}

/** Logs in with password and a fresh code; fails the test unless it worked. */
export async function login(port: number, u: TestUser, opts: SendOptions = {}): Promise<Session> {
  const res = await loginAttempt(port, u.id, u.password, await u.device.fresh(), opts);
  expect(res.status, res.text).toBe(200);
  const setCookie = String(res.headers['set-cookie'] ?? '');
  const cookie = setCookie.split(';')[0]!;
  return { port, user: u.id, cookie, csrf: res.body.csrf_token, setCookie };
}

export function loginAttempt(port: number, id: string, password: string, totp: string, opts: SendOptions = {}): Promise<Answer> {
  return send(port, 'POST', '/console/api/login', { ...opts, body: JSON.stringify({ user: id, password, totp }) });
}

/** A call with the session cookie and its CSRF token, from the console's own origin. */
export function as(s: Session, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  // Node frames a DELETE body only with an explicit length (it never chunks DELETE).
  const length: Record<string, string> = text === undefined ? {} : { 'content-length': String(Buffer.byteLength(text)) };
  return send(s.port, method, path, {
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, origin: `http://127.0.0.1:${s.port}`, ...length, ...headers },
    ...(text === undefined ? {} : { body: text }),
  });
}

export function expectError(res: Answer, status: number, name: string, field?: string): Answer {
  expect(res.status, res.text).toBe(status);
  expect(res.body.error.name).toBe(name);
  if (field !== undefined) expect(res.body.error.field).toBe(field);
  return res;
}

export const ok = (res: Answer, status = 200): Answer => { expect(res.status, res.text).toBe(status); return res; };

export const SECRETS = {
  alice: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  bob: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU',
  carol: 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U',
  dave: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
  erin: 'ONSWG4TFORZWK5DIMVZGK5DTMVRXEZLU',
  frank: 'MZZGC3TLMZZGC3TLMZZGC3TLMZZGC3TL',
  grace: 'M5ZGCY3FM5ZGCY3FM5ZGCY3FM5ZGCY3F',
  heidi: 'NBSWSZDJNBSWSZDJNBSWSZDJNBSWSZDJ',
} as const;

/** A second key on the alice account that the tests sign REST calls with. */
export const ALICE_KEY = { id: 'k-alice', secret: 'secret-of-k-alice-0123456789' };

const account = (login: string, owner: string, extra: Record<string, unknown> = {}) =>
  ({ login, user: owner, type: 'demo', group: 'demo\\standard', currency: 'USD', balance: 10000, leverage: 100, server: 'Demo-1', ...extra });

/**
 * alice: 700001 (demo, standard), 700002 (live real\ECN, 60,000: may have 100 req/s), 700003
 * (live real\Pro, 40,000: equity too low for 100). bob: 700101. carol and dave: one account each.
 * Prices move only when pushed.
 */
export function consoleSeed(nowMs: number): Record<string, unknown> {
  return {
    symbols: [{ name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, max_volume: 50, session: '24x7' }],
    users: Object.entries(SECRETS).map(([id, totp_secret]) => ({ id, password: `password-of-${id}`, totp_secret })),
    accounts: [
      account('700001', 'alice'),
      account('700002', 'alice', { type: 'live', group: 'real\\ECN', balance: 60000, server: 'Live-1' }),
      account('700003', 'alice', { type: 'live', group: 'real\\Pro', balance: 40000, server: 'Live-1' }),
      account('700101', 'bob'),
      account('700201', 'carol'),
      account('700301', 'dave'),
    ],
    keys: [
      { ...ALICE_KEY, name: 'alice bot', login: '700001', scopes: ['read', 'trade'], rate_limit: 20 },
      { id: 'k-bob', secret: 'secret-of-k-bob-0123456789', name: 'bob bot', login: '700101', scopes: ['read'], rate_limit: 10, ip_whitelist: ['10.0.0.0/8'], expires_at: new Date(nowMs + 90 * 86400_000).toISOString() },
      { id: 'k-old', secret: 'secret-of-k-old-0123456789', name: 'expired bot', login: '700001', scopes: ['read'], rate_limit: 10, expires_at: '2021-01-01T00:00:00Z' },
    ],
    webhooks: [
      { id: 'wh-alice', user: 'alice', secret: 'wh-alice-secret-0123456789', symbols: ['EURUSD'], targets: [{ login: '700001', sizing: { type: 'fixed', lots: 0.01 } }] },
      { id: 'wh-bob', user: 'bob', secret: 'wh-bob-secret-0123456789', symbols: ['EURUSD'], targets: [{ login: '700101', sizing: { type: 'fixed', lots: 0.01 } }] },
    ],
  };
}

export const CONSOLE_CONFIG = { prices: { source: 'push' }, trusted_proxies: ['127.0.0.2'] };
