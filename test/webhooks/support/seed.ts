// The fixture of the webhook tests: two 24x7 symbols whose prices move only when pushed, accounts
// of one user spread over both shards (logins alternate between shard 0 and 1 with 2 shards), a
// EUR account for cross-currency sizing, a read key per account (positions are checked through
// GET /v1/positions) and one webhook per concern, since the limit (burst 10) is per webhook.
import type { Credentials } from '../../rest/support/client.js';

export const secretOf = (id: string): string => `${id}-secret-0123456789`;
export const keyOf = (login: string): Credentials => ({ id: `k-${login}`, secret: `key-secret-of-${login}-0123456789` });

/** Sizing accounts (fresh: their equity is their balance when sized). */
export const FIXED = '500002';
export const MULT = '500001';
export const EUR_RISK = '500004';
export const USD_RISK = '500003';
/** Equity so small that 1% risk is below 0.01 lot. */
export const TINY = '500006';
/** Its account kill switch is set in the partial-failure test. */
export const HALTED = '500005';
export const SIG = '500008';
export const CLOSE_A = '500009';
export const CLOSE_B = '500010';
export const DEDUP = '500011';
export const RATE = '500012';
export const PARTIAL = '500013';
export const BAD_A = '500014';
export const BAD_B = '500015';
export const PAUSED = '500016';
export const CONSOLE = '500017';
/** Owned by another user. */
export const STRANGER = '500007';

const OWN = [FIXED, MULT, EUR_RISK, USD_RISK, TINY, HALTED, SIG, CLOSE_A, CLOSE_B, DEDUP, RATE, PARTIAL, BAD_A, BAD_B, PAUSED, CONSOLE];

const account = (login: string, user: string, extra: Record<string, unknown> = {}) => ({
  login, user, type: 'demo', group: 'demo\\ECN', currency: 'USD', balance: 10000, leverage: 100, server: 'Demo-1', ...extra,
});

const webhook = (id: string, targets: readonly [string, Record<string, unknown>][], extra: Record<string, unknown> = {}) => ({
  id, user: 'u1', secret: secretOf(id), symbols: ['EURUSD'], targets: targets.map(([login, sizing]) => ({ login, sizing })), ...extra,
});

const fixed = (lots: number) => ({ type: 'fixed', lots });
const multiplier = (factor: number) => ({ type: 'multiplier', factor });
const risk = (percent: number) => ({ type: 'risk_percent', percent });

export const BAD_HOOKS = ['wh-bad-1', 'wh-bad-2', 'wh-bad-3'];

export const WEBHOOK_SEED = {
  symbols: [
    // Buys fill at 1.10020, sells at 1.10000.
    { name: 'EURUSD', digits: 5, contract_size: 100000, bid: 1.1, ask: 1.1002, volatility: 0, max_volume: 50, session: '24x7' },
    { name: 'BTCUSD', digits: 2, contract_size: 1, bid: 65000, ask: 65010, volatility: 0, max_volume: 10, session: '24x7' },
  ],
  users: [
    { id: 'u1', password: 'password-u1', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' },
    { id: 'u2', password: 'password-u2', totp_secret: 'JBSWY3DPEHPK3PXPJBSWY3DQ' },
  ],
  accounts: [
    ...OWN.map((login) => account(login, 'u1')),
    account(STRANGER, 'u2'),
  ].map((a) => {
    if (a.login === MULT) return { ...a, balance: 50000 };
    if (a.login === EUR_RISK) return { ...a, currency: 'EUR' };
    if (a.login === USD_RISK) return { ...a, balance: 12345 };
    if (a.login === TINY) return { ...a, balance: 10 };
    return a;
  }),
  keys: [...OWN, STRANGER].map((login) => ({ ...keyOf(login), name: login, login, scopes: ['read'], rate_limit: 50 })),
  webhooks: [
    webhook('wh-size', [[FIXED, fixed(0.1)], [MULT, multiplier(2.5)], [EUR_RISK, risk(1.5)], [USD_RISK, risk(1)]]),
    webhook('wh-sig', [[SIG, fixed(0.01)]], { symbols: ['EURUSD', 'BTCUSD'] }),
    webhook('wh-close', [[CLOSE_A, fixed(0.05)], [CLOSE_B, multiplier(1)]], { symbols: ['EURUSD', 'BTCUSD'] }),
    webhook('wh-dedup', [[DEDUP, fixed(0.01)]]),
    webhook('wh-rate', [[RATE, fixed(0.01)]]),
    webhook('wh-partial', [[PARTIAL, fixed(0.01)], [TINY, risk(1)], [HALTED, fixed(0.01)]]),
    ...BAD_HOOKS.map((id) => webhook(id, [[BAD_A, multiplier(1)], [BAD_B, risk(1)]])),
    webhook('wh-paused', [[PAUSED, fixed(0.01)]], { paused: true }),
  ],
};

export const WEBHOOK_CONFIG = { prices: { source: 'push' } };
