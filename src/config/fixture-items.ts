// Readers of one fixture item each (DECISIONS "Bootstrap fixture"), with the defaults of the
// optional fields. Rules that look across items (unique ids, references) live in fixture.ts.
import {
  anyText, at, boolean, cidr, currency, fields, identifier, integer, list, lots, nullable, number, oneOf, optional,
  required, secret, session, shown, text, type Reader,
} from './check.js';
import { InvalidValue } from './errors.js';
import type {
  FixtureAccount, FixtureKey, FixtureSizing, FixtureSymbol, FixtureUser, FixtureWebhook, KeyScope, KeyStatus,
} from './types.js';
import type { AccountType } from '../engine/types.js';
import { FX_SESSION } from '../engine/market-session.js';

export const SYMBOL_DEFAULTS: Pick<FixtureSymbol, 'contract_size' | 'volatility' | 'tick_ms' | 'max_volume' | 'session'> = {
  contract_size: 100_000,
  volatility: 0,
  tick_ms: 1000,
  max_volume: 100,
  session: FX_SESSION,
};
export const ACCOUNT_DEFAULTS: Pick<FixtureAccount, 'type' | 'currency' | 'balance' | 'leverage'> = {
  type: 'demo', currency: 'USD', balance: 0, leverage: 100,
};
export const KEY_DEFAULTS: Pick<FixtureKey, 'rate_limit' | 'ip_whitelist' | 'expires_at' | 'status'> = {
  rate_limit: 20, ip_whitelist: [], expires_at: null, status: 'Active',
};

const KEY_SCOPES: readonly KeyScope[] = ['read', 'trade'];
const KEY_STATUSES: readonly KeyStatus[] = ['Active', 'Paused', 'Expired'];
const ACCOUNT_TYPES: readonly AccountType[] = ['live', 'demo'];
/** Prices travel as integer ticks (price × 10^digits): keep them exact in a double. */
const MAX_PRICE_DIGITS = 15;

export const symbolName = text(/^[A-Z0-9]{1,16}$/, '1..16 upper-case letters or digits');
export const login = text(/^\d{1,20}$/, '1..20 digits');

/** RFC 4648 base32 of at least 80 bits, as authenticator apps take it. Never echoed. */
const totpSecret: Reader<string> = (value, path) => {
  const m = typeof value === 'string' ? /^([A-Z2-7]*)(=*)$/.exec(value) : null;
  const chars = m?.[1]?.length ?? 0;
  const padding = m?.[2]?.length ?? 0;
  const whole = [0, 2, 4, 5, 7].includes(chars % 8) && (padding === 0 || (chars + padding) % 8 === 0);
  if (m === null || chars < 16 || padding > 6 || !whole) {
    throw new InvalidValue(path, 'must be base32 (A-Z, 2-7, optional = padding) of at least 16 characters');
  }
  return value as string;
};

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

function isCalendarTime(m: RegExpExecArray): boolean {
  const n = (i: number): number => Number(m[i] ?? 0);
  const date = new Date(Date.UTC(n(1), n(2) - 1, n(3)));
  return date.getUTCFullYear() === n(1) && date.getUTCMonth() === n(2) - 1 && date.getUTCDate() === n(3)
    && n(4) <= 23 && n(5) <= 59 && n(6) <= 59 && n(7) <= 14 && n(8) <= 59;
}

/** ISO 8601 date or date-time; a time needs its zone so every reader gets the same instant. */
export const isoTime: Reader<string> = (value, path) => {
  const m = typeof value === 'string' ? ISO_TIME.exec(value) : null;
  if (m === null || !isCalendarTime(m)) {
    throw new InvalidValue(path, `must be an ISO 8601 date or date-time with zone (2026-01-31T00:00:00Z), got ${shown(value)}`);
  }
  return m[0];
};

export function readSymbol(value: unknown, path: string): FixtureSymbol {
  const o = fields(value, path, [
    'name', 'digits', 'contract_size', 'bid', 'ask', 'volatility', 'tick_ms', 'max_volume', 'session',
    'base_currency', 'quote_currency',
  ]);
  const name = required(o, 'name', path, symbolName);
  const digits = required(o, 'digits', path, integer(0, 8));
  const price = number({ above: 0, atMost: 10 ** (MAX_PRICE_DIGITS - digits), decimals: digits });
  const bid = required(o, 'bid', path, price);
  const ask = required(o, 'ask', path, price);
  if (ask < bid) throw new InvalidValue(at(path, 'ask'), `must be at least the bid ${bid}, got ${ask}`);
  // A 6-letter name is a currency pair (EURUSD, XAUUSD); other names must say what they are.
  const pair = /^[A-Z]{6}$/.test(name);
  return {
    name, digits, bid, ask,
    contract_size: optional(o, 'contract_size', path, SYMBOL_DEFAULTS.contract_size, number({ above: 0, atMost: 1e9 })),
    volatility: optional(o, 'volatility', path, SYMBOL_DEFAULTS.volatility, number({ atLeast: 0 })),
    tick_ms: optional(o, 'tick_ms', path, SYMBOL_DEFAULTS.tick_ms, integer(10, 3_600_000)),
    max_volume: optional(o, 'max_volume', path, SYMBOL_DEFAULTS.max_volume, lots),
    session: optional(o, 'session', path, SYMBOL_DEFAULTS.session, session),
    base_currency: pair
      ? optional(o, 'base_currency', path, name.slice(0, 3), nullable(currency))
      : required(o, 'base_currency', path, nullable(currency)),
    quote_currency: pair
      ? optional(o, 'quote_currency', path, name.slice(3), currency)
      : required(o, 'quote_currency', path, currency),
  };
}

export function readUser(value: unknown, path: string): FixtureUser {
  const o = fields(value, path, ['id', 'password', 'totp_secret']);
  return {
    id: required(o, 'id', path, identifier),
    password: required(o, 'password', path, anyText),
    totp_secret: required(o, 'totp_secret', path, totpSecret),
  };
}

export function readAccount(value: unknown, path: string): FixtureAccount {
  const o = fields(value, path, ['login', 'user', 'type', 'group', 'currency', 'balance', 'leverage', 'server']);
  const type = optional(o, 'type', path, ACCOUNT_DEFAULTS.type, oneOf(ACCOUNT_TYPES));
  return {
    login: required(o, 'login', path, login),
    user: required(o, 'user', path, identifier),
    type,
    group: optional(o, 'group', path, type === 'demo' ? 'demo' : 'real', anyText),
    currency: optional(o, 'currency', path, ACCOUNT_DEFAULTS.currency, currency),
    balance: optional(o, 'balance', path, ACCOUNT_DEFAULTS.balance, number({ atLeast: 0, atMost: 1e12, decimals: 2 })),
    leverage: optional(o, 'leverage', path, ACCOUNT_DEFAULTS.leverage, integer(1, 1000)),
    server: optional(o, 'server', path, type === 'demo' ? 'TAS-Demo' : 'TAS-Live', anyText),
  };
}

export function readKey(value: unknown, path: string): FixtureKey {
  const o = fields(value, path, [
    'id', 'secret', 'name', 'login', 'scopes', 'rate_limit', 'ip_whitelist', 'expires_at', 'status',
  ]);
  const id = required(o, 'id', path, identifier);
  return {
    id,
    secret: required(o, 'secret', path, secret(16)),
    name: optional(o, 'name', path, id, anyText),
    login: required(o, 'login', path, login),
    // Spec "Resources": `read`, `trade`, one or both; no other scope exists.
    scopes: required(o, 'scopes', path, list(oneOf(KEY_SCOPES), { nonEmpty: true, unique: true })),
    rate_limit: optional(o, 'rate_limit', path, KEY_DEFAULTS.rate_limit, integer(1, 100)),
    ip_whitelist: optional(o, 'ip_whitelist', path, KEY_DEFAULTS.ip_whitelist, list(cidr, { unique: true })),
    expires_at: optional(o, 'expires_at', path, KEY_DEFAULTS.expires_at, nullable(isoTime)),
    status: optional(o, 'status', path, KEY_DEFAULTS.status, oneOf(KEY_STATUSES)),
  };
}

const sizing: Reader<FixtureSizing> = (value, path) => {
  const type = required(fields(value, path, ['type', 'lots', 'factor', 'percent']), 'type', path,
    oneOf(['fixed', 'multiplier', 'risk_percent'] as const));
  switch (type) {
    case 'fixed':
      return { type, lots: required(fields(value, path, ['type', 'lots']), 'lots', path, lots) };
    case 'multiplier':
      return { type, factor: required(fields(value, path, ['type', 'factor']), 'factor', path, number({ above: 0, atMost: 1000 })) };
    case 'risk_percent':
      return { type, percent: required(fields(value, path, ['type', 'percent']), 'percent', path, number({ above: 0, atMost: 100 })) };
  }
};

const target: Reader<FixtureWebhook['targets'][number]> = (value, path) => {
  const o = fields(value, path, ['login', 'sizing']);
  return { login: required(o, 'login', path, login), sizing: required(o, 'sizing', path, sizing) };
};

export function readWebhook(value: unknown, path: string): FixtureWebhook {
  const o = fields(value, path, ['id', 'user', 'secret', 'symbols', 'targets', 'paused']);
  return {
    id: required(o, 'id', path, identifier),
    user: required(o, 'user', path, identifier),
    secret: required(o, 'secret', path, secret(16)),
    symbols: required(o, 'symbols', path, list(symbolName, { nonEmpty: true, unique: true })),
    targets: required(o, 'targets', path, list(target, { nonEmpty: true })),
    paused: optional(o, 'paused', path, false, boolean),
  };
}
