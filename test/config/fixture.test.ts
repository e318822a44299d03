import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { validateFixture } from '../../src/config/fixture.js';
import { FX_SESSION } from '../../src/engine/market-session.js';
import { defaultsRaw, withValue, type Raw } from './helpers.js';

const demoSeed = (): Raw => defaultsRaw().seed as Raw;

function errorOf(raw: unknown): ConfigError {
  try {
    validateFixture(raw);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('validation passed');
}

const US30 = { name: 'US30', digits: 1, bid: 39000, ask: 39002.5, quote_currency: 'USD', base_currency: null };

describe('validateFixture', () => {
  it('fills the documented defaults of a minimal fixture', () => {
    const fixture = validateFixture({
      symbols: [{ name: 'EURUSD', digits: 5, bid: 1.085, ask: 1.0851 }, US30],
      users: [{ id: 'u1', password: 'pw', totp_secret: 'JBSWY3DPEHPK3PXP' }],
      accounts: [{ login: '1', user: 'u1' }, { login: '2', user: 'u1', type: 'live' }],
      keys: [{ id: 'k1', secret: 's'.repeat(16), login: '1', scopes: ['read'] }],
      webhooks: [{ id: 'w1', user: 'u1', secret: 'w'.repeat(16), symbols: ['EURUSD'], targets: [{ login: '1', sizing: { type: 'fixed', lots: 0.01 } }] }],
    });
    expect(fixture.console).toEqual({ admin_token: null });
    expect(fixture.symbols[0]).toEqual({
      name: 'EURUSD', digits: 5, bid: 1.085, ask: 1.0851, contract_size: 100000, volatility: 0, tick_ms: 1000,
      max_volume: 100, session: FX_SESSION, base_currency: 'EUR', quote_currency: 'USD',
    });
    expect(fixture.symbols[1]).toMatchObject({ base_currency: null, quote_currency: 'USD' });
    expect(fixture.accounts).toEqual([
      { login: '1', user: 'u1', type: 'demo', group: 'demo', currency: 'USD', balance: 0, leverage: 100, server: 'TAS-Demo' },
      { login: '2', user: 'u1', type: 'live', group: 'real', currency: 'USD', balance: 0, leverage: 100, server: 'TAS-Live' },
    ]);
    expect(fixture.keys[0]).toEqual({
      id: 'k1', secret: 's'.repeat(16), name: 'k1', login: '1', scopes: ['read'], rate_limit: 20, ip_whitelist: [],
      expires_at: null, status: 'Active',
    });
    expect(fixture.webhooks[0]?.paused).toBe(false);
  });

  it('takes an empty object as an empty fixture', () => {
    expect(validateFixture({})).toEqual({ console: { admin_token: null }, symbols: [], users: [], accounts: [], keys: [], webhooks: [] });
  });

  it('lets a key above 50 req/s through on a Pro or ECN account only', () => {
    const ecn = withValue(withValue(demoSeed(), 'keys[0].login', '100002'), 'keys[0].rate_limit', 100);
    expect(validateFixture(ecn).keys[0]?.rate_limit).toBe(100);
    const pro = withValue(withValue(demoSeed(), 'accounts[0].group', 'real\\PRO-USD'), 'keys[0].rate_limit', 51);
    expect(validateFixture(pro).keys[0]?.rate_limit).toBe(51);
  });

  it('accepts addresses, ranges and ISO times in keys', () => {
    let raw = withValue(demoSeed(), 'keys[0].ip_whitelist', ['127.0.0.1', '10.0.0.0/8', '::1', '2001:db8::/32', '::ffff:1.2.3.4']);
    raw = withValue(raw, 'keys[0].expires_at', '2027-02-28T23:59:59.5+03:00');
    expect(validateFixture(raw).keys[0]?.expires_at).toBe('2027-02-28T23:59:59.5+03:00');
    expect(validateFixture(withValue(raw, 'keys[0].expires_at', '2028-02-29')).keys[0]?.expires_at).toBe('2028-02-29');
  });

  it.each([
    ['extras', 1, 'extras', 'unknown key'],
    ['console.admin_token', 'short', 'console.admin_token', '16..256 printable'],
    ['console.token', 'x', 'console.token', 'unknown key'],
    ['symbols', {}, 'symbols', 'must be an array'],
    ['symbols[0].name', 'eurusd', 'symbols[0].name', 'upper-case letters or digits'],
    ['symbols[0].name', 'EUR/USD', 'symbols[0].name', 'upper-case letters or digits'],
    ['symbols[1].name', 'EURUSD', 'symbols[1].name', 'duplicates symbols[0].name ("EURUSD")'],
    ['symbols[0].digits', 9, 'symbols[0].digits', 'integer 0..8'],
    ['symbols[0].digits', undefined, 'symbols[0].digits', 'is required'],
    ['symbols[0].contract_size', 0, 'symbols[0].contract_size', 'a number > 0'],
    ['symbols[0].bid', 0, 'symbols[0].bid', 'a number > 0'],
    ['symbols[0].bid', 1.085001, 'symbols[0].bid', 'at most 5 decimals'],
    ['symbols[0].ask', 1.08, 'symbols[0].ask', 'must be at least the bid 1.085, got 1.08'],
    ['symbols[0].ask', '1.0851', 'symbols[0].ask', 'got "1.0851"'],
    ['symbols[0].volatility', -0.1, 'symbols[0].volatility', 'a number >= 0'],
    ['symbols[0].tick_ms', 5, 'symbols[0].tick_ms', 'integer 10..'],
    ['symbols[0].max_volume', 0, 'symbols[0].max_volume', 'multiple of 0.01'],
    ['symbols[0].max_volume', 0.015, 'symbols[0].max_volume', 'multiple of 0.01'],
    ['symbols[0].session', 'weekdays', 'symbols[0].session', 'must be "24x7" or'],
    ['symbols[0].session.tz', '3:00', 'symbols[0].session.tz', 'tz must look like'],
    ['symbols[0].session.open', 'Sunday 23:05', 'symbols[0].session.open', 'open must look like'],
    ['symbols[0].session.close', undefined, 'symbols[0].session.close', 'is required'],
    ['symbols[0].base_currency', 'eur', 'symbols[0].base_currency', '3-letter upper-case'],
    ['symbols[0].quote_currency', 'US', 'symbols[0].quote_currency', '3-letter upper-case'],
    ['symbols[0]', { ...US30, quote_currency: undefined }, 'symbols[0].quote_currency', 'is required'],
    ['symbols[0]', { ...US30, base_currency: undefined }, 'symbols[0].base_currency', 'is required'],
    ['users[0].id', '', 'users[0].id', '1..64 characters'],
    ['users[0].id', 'a b', 'users[0].id', '1..64 characters'],
    ['users[0].password', '', 'users[0].password', '1..128 characters'],
    ['users[0].totp_secret', 'JBSWY3DPEHPK3PX', 'users[0].totp_secret', 'base32'],
    ['users[0].totp_secret', 'jbswy3dpehpk3pxp', 'users[0].totp_secret', 'base32'],
    ['users[0].totp_secret', 'JBSWY3DPEHPK3PX1', 'users[0].totp_secret', 'base32'],
    ['users[0].totp_secret', 'JBSWY3DPEHPK3PXPJ', 'users[0].totp_secret', 'base32'],
    ['users[1]', { id: 'demo', password: 'x', totp_secret: 'JBSWY3DPEHPK3PXP' }, 'users[1].id', 'duplicates users[0].id'],
    ['accounts[0].login', 'A1', 'accounts[0].login', '1..20 digits'],
    ['accounts[0].login', '1'.repeat(21), 'accounts[0].login', '1..20 digits'],
    ['accounts[0].login', 100001, 'accounts[0].login', 'got 100001'],
    ['accounts[1].login', '100001', 'accounts[1].login', 'duplicates accounts[0].login'],
    ['accounts[0].user', 'ghost', 'accounts[0].user', 'must name a user of the fixture, got "ghost"'],
    ['accounts[0].type', 'paper', 'accounts[0].type', 'one of "live", "demo"'],
    ['accounts[0].currency', 'usd', 'accounts[0].currency', '3-letter'],
    ['accounts[0].balance', -1, 'accounts[0].balance', '>= 0'],
    ['accounts[0].balance', 10.005, 'accounts[0].balance', 'at most 2 decimals'],
    ['accounts[2].leverage', 0, 'accounts[2].leverage', 'integer 1..1000'],
    ['accounts[2].leverage', 1001, 'accounts[2].leverage', 'integer 1..1000'],
    ['accounts[2].leverage', 1.5, 'accounts[2].leverage', 'integer 1..1000'],
    ['accounts[0].nickname', 'x', 'accounts[0].nickname', 'unknown key'],
    ['keys[0].id', 'key/1', 'keys[0].id', '1..64 characters'],
    ['keys[0].secret', 'short', 'keys[0].secret', 'got 5 characters'],
    ['keys[0].secret', 'sixteen chars ok', 'keys[0].secret', 'without spaces'],
    ['keys[0].login', '999', 'keys[0].login', 'must name an account of the fixture'],
    ['keys[0].scopes', [], 'keys[0].scopes', 'must not be empty'],
    ['keys[0].scopes', ['read', 'withdraw'], 'keys[0].scopes[1]', 'one of "read", "trade", got "withdraw"'],
    ['keys[0].scopes', ['read', 'read'], 'keys[0].scopes[1]', 'duplicates keys[0].scopes[0]'],
    ['keys[0].scopes', undefined, 'keys[0].scopes', 'is required'],
    ['keys[0].rate_limit', 0, 'keys[0].rate_limit', 'integer 1..100'],
    ['keys[0].rate_limit', 101, 'keys[0].rate_limit', 'integer 1..100'],
    ['keys[0].rate_limit', 51, 'keys[0].rate_limit', 'needs a Pro or ECN account'],
    ['keys[0].ip_whitelist', ['1.2.3.4/33'], 'keys[0].ip_whitelist[0]', 'address or CIDR'],
    ['keys[0].ip_whitelist', ['example.com'], 'keys[0].ip_whitelist[0]', 'address or CIDR'],
    ['keys[0].expires_at', 'tomorrow', 'keys[0].expires_at', 'ISO 8601'],
    ['keys[0].expires_at', '2025-02-30', 'keys[0].expires_at', 'ISO 8601'],
    ['keys[0].expires_at', '2025-01-01T10:00:00', 'keys[0].expires_at', 'ISO 8601'],
    ['keys[0].status', 'Revoked', 'keys[0].status', 'one of "Active", "Paused", "Expired"'],
    ['keys[1]', { id: 'demo-key', secret: 's'.repeat(16), login: '100001', scopes: ['read'] }, 'keys[1].id', 'duplicates keys[0].id'],
    ['webhooks[0].user', 'ghost', 'webhooks[0].user', 'must name a user'],
    ['webhooks[0].secret', 'x', 'webhooks[0].secret', 'got 1 characters'],
    ['webhooks[0].symbols', ['EURUSD', 'NOPE'], 'webhooks[0].symbols[1]', 'must name a symbol of the fixture, got "NOPE"'],
    ['webhooks[0].symbols', [], 'webhooks[0].symbols', 'must not be empty'],
    ['webhooks[0].targets', [], 'webhooks[0].targets', 'must not be empty'],
    ['webhooks[0].targets[1].login', '999', 'webhooks[0].targets[1].login', 'must name an account'],
    ['webhooks[0].targets[1].login', '100001', 'webhooks[0].targets[1].login', 'duplicates webhooks[0].targets[0].login'],
    ['webhooks[0].targets[0].sizing.lots', 0.001, 'webhooks[0].targets[0].sizing.lots', 'multiple of 0.01'],
    ['webhooks[0].targets[0].sizing.factor', 2, 'webhooks[0].targets[0].sizing.factor', 'unknown key'],
    ['webhooks[0].targets[0].sizing.type', 'martingale', 'webhooks[0].targets[0].sizing.type', 'one of "fixed"'],
    ['webhooks[0].targets[1].sizing.factor', 0, 'webhooks[0].targets[1].sizing.factor', 'a number > 0'],
    ['webhooks[0].targets[2].sizing.percent', 0, 'webhooks[0].targets[2].sizing.percent', 'a number > 0, <= 100'],
    ['webhooks[0].targets[2].sizing.percent', 100.5, 'webhooks[0].targets[2].sizing.percent', 'a number > 0, <= 100'],
    ['webhooks[0].paused', 'no', 'webhooks[0].paused', 'true or false'],
    ['webhooks[1]', { id: 'demo-webhook', user: 'demo', secret: 'w'.repeat(16), symbols: ['EURUSD'], targets: [{ login: '100001', sizing: { type: 'fixed', lots: 1 } }] },
      'webhooks[1].id', 'duplicates webhooks[0].id'],
  ])('refuses %s = %j at %s', (path, value, errorPath, reason) => {
    const e = errorOf(withValue(demoSeed(), path, value));
    expect(e.kind).toBe('seed');
    expect(e.path).toBe(errorPath);
    expect(e.message).toContain(`seed error at ${errorPath}: `);
    expect(e.reason).toContain(reason);
  });

  it('refuses a webhook target owned by another user', () => {
    let raw = withValue(demoSeed(), 'users[1]', { id: 'other', password: 'x', totp_secret: 'JBSWY3DPEHPK3PXP' });
    raw = withValue(raw, 'accounts[2].user', 'other');
    const e = errorOf(raw);
    expect(e.path).toBe('webhooks[0].targets[2].login');
    expect(e.reason).toContain('belongs to "other"');
  });

  it('never echoes a secret it refuses', () => {
    const e = errorOf(withValue(demoSeed(), 'users[0].totp_secret', 'NOTBASE32!!!SECRETVALUE'));
    expect(e.message).not.toContain('SECRETVALUE');
    const k = errorOf(withValue(demoSeed(), 'keys[0].secret', 'tooShortSecret'));
    expect(k.message).not.toContain('tooShortSecret');
  });

  it('refuses a fixture that is not an object', () => {
    expect(errorOf([]).message).toBe('seed error at (top level): must be an object, got []');
  });
});
