// The stream tests' fixture: 24x7 symbols whose prices move only when a test pushes them
// (`prices.source: push`), a ladder of 205 extra symbols for the 200-per-connection limit, and one
// key per situation of the upgrade rules.
export interface Credentials { readonly id: string; readonly secret: string }

const cred = (id: string): Credentials => ({ id, secret: `secret-of-${id}-0123456789` });

export const LOGIN = '100001';
export const OTHER_LOGIN = '100002';
export const EUR_LOGIN = '100003';
/** Owned by user u2, whose kill switch a test triggers; target of webhook wh-s. */
export const KILL_LOGIN = '100009';
export const WEBHOOK = { id: 'wh-s', secret: 'wh-s-secret-0123456789' } as const;

export const KEYS = {
  main: cred('s-main'),
  readOnly: cred('s-read'),
  tradeOnly: cred('s-trade'),
  other: cred('s-other'),
  eur: cred('s-eur'),
  expired: cred('s-expired'),
  paused: cred('s-paused'),
  whitelisted: cred('s-wl'),
  limit: cred('s-limit'),
  kill: cred('s-kill'),
  /** rate_limit 1: its third read within a second gets 429. */
  slow: cred('s-slow'),
} as const;

export const LADDER = Array.from({ length: 205 }, (_, i) => `S${String(i).padStart(3, '0')}`);

const key = (c: Credentials, login: string, extra: Record<string, unknown> = {}) => ({
  id: c.id, secret: c.secret, name: c.id, login, scopes: ['read', 'trade'], rate_limit: 50, ...extra,
});

const account = (login: string, extra: Record<string, unknown> = {}) => ({
  login, user: 'u1', type: 'demo', group: 'demo\\ECN', currency: 'USD', balance: 10000, leverage: 100, server: 'Demo-1', ...extra,
});

export function streamSeed(): Record<string, unknown> {
  return {
    symbols: [
      { name: 'BTCUSD', digits: 2, contract_size: 1, bid: 65000, ask: 65010, volatility: 0, max_volume: 10, session: '24x7' },
      { name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, max_volume: 50, session: '24x7' },
      ...LADDER.map((name) => ({
        name, digits: 2, contract_size: 1, bid: 100, ask: 100.5, volatility: 0, max_volume: 10, session: '24x7',
        base_currency: null, quote_currency: 'USD',
      })),
    ],
    users: [
      { id: 'u1', password: 'password-u1', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' },
      { id: 'u2', password: 'password-u2', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DQ' },
    ],
    accounts: [
      account(LOGIN),
      account(OTHER_LOGIN, { type: 'live', group: 'real\\ECN', balance: 50000, server: 'Live-1' }),
      account(EUR_LOGIN, { currency: 'EUR' }),
      account(KILL_LOGIN, { user: 'u2' }),
    ],
    keys: [
      key(KEYS.main, LOGIN),
      key(KEYS.readOnly, LOGIN, { scopes: ['read'] }),
      key(KEYS.tradeOnly, LOGIN, { scopes: ['trade'] }),
      key(KEYS.other, OTHER_LOGIN),
      key(KEYS.eur, EUR_LOGIN),
      key(KEYS.expired, LOGIN, { expires_at: '2020-01-01T00:00:00Z' }),
      key(KEYS.paused, LOGIN, { status: 'Paused' }),
      key(KEYS.whitelisted, LOGIN, { ip_whitelist: ['10.0.0.0/8'] }),
      key(KEYS.limit, LOGIN),
      key(KEYS.kill, KILL_LOGIN),
      key(KEYS.slow, LOGIN, { rate_limit: 1 }),
    ],
    webhooks: [{
      id: WEBHOOK.id, user: 'u2', secret: WEBHOOK.secret, symbols: ['BTCUSD'],
      targets: [{ login: KILL_LOGIN, sizing: { type: 'fixed', lots: 0.01 } }],
    }],
  };
}

/** Pushed prices only; heartbeats fast enough to observe without waiting seconds. */
export const STREAM_CONFIG = { prices: { source: 'push' }, stream: { heartbeat_ms: 200 } };
