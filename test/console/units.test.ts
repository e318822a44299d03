// The console's pure parts with injected time: session expiry (idle 30 min, absolute 12 h), the
// lockout and the per-address throttle, the TOTP guard's single use, cookies and the same-origin
// checks, the key advisories and entitlements, and the audit summary that drops credentials.
import { afterAll, describe, expect, it } from 'vitest';
import type { AccountRecord } from '../../src/engine/types.js';
import { addMonthsUtc, advisoriesOf } from '../../src/console/key-view.js';
import { isProOrEcn, mayUsePremiumRate, readNewKey } from '../../src/console/key-create.js';
import { IpThrottle, Lockout, LOCKOUT_MS } from '../../src/console/lockout.js';
import { authenticateConsoleCall, checkSameOrigin, cookieValues, type GuardHeaders } from '../../src/console/request-guard.js';
import { SessionStore, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/console/sessions.js';
import { summary } from '../../src/console/audit-log.js';
import { TotpGuard, totpRefusal } from '../../src/console/totp-guard.js';
import { InvalidValue } from '../../src/config/errors.js';
import { ApiError } from '../../src/gateway/errors.js';
import type { KeyRecord, UserRecord } from '../../src/store/records.js';
import type { SecretBox } from '../../src/store/secret-box.js';
import { openStore, type Store } from '../../src/store/store.js';
import { tempDir } from '../support/server.js';
import { codeAt, STEP_MS } from './support/totp.js';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

class FakeClock { constructor(public ms: number) {} nowMs(): number { return this.ms; } }

describe('sessions', () => {
  it('end 30 minutes after the last use, and 12 hours after the login however busy', () => {
    const clock = new FakeClock(T0);
    const store = new SessionStore(clock);
    const s = store.create('alice', '127.0.0.1');
    clock.ms += SESSION_IDLE_MS - 1;
    expect(store.use(s.id)?.user).toBe('alice');
    clock.ms += SESSION_IDLE_MS - 1;
    expect(store.use(s.id)).not.toBeNull();
    clock.ms += SESSION_IDLE_MS;
    expect(store.use(s.id)).toBeNull();
    expect(store.use(s.id)).toBeNull();

    const busy = store.create('alice', '127.0.0.1');
    for (let t = 0; t < SESSION_ABSOLUTE_MS; t += 10 * 60_000) { clock.ms = T0 + 3 * SESSION_IDLE_MS + t; expect(store.use(busy.id)).not.toBeNull(); }
    clock.ms = busy.createdAtMs + SESSION_ABSOLUTE_MS;
    expect(store.use(busy.id)).toBeNull();
    store.close();
  });

  it('look up only well-formed ids and end at logout', () => {
    const store = new SessionStore(new FakeClock(T0));
    const s = store.create('bob', '::1');
    expect(s.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.csrfToken).not.toBe(s.id);
    expect(store.use(`${s.id}x`)).toBeNull();
    expect(store.use('')).toBeNull();
    store.end(s.id);
    expect(store.use(s.id)).toBeNull();
    expect(store.size).toBe(0);
    store.close();
  });
});

describe('lockout and throttle', () => {
  it('locks after 5 failures within 15 minutes, for 15 minutes', () => {
    const l = new Lockout();
    for (let i = 0; i < 4; i++) expect(l.fail('u', T0 + i)).toBeNull();
    expect(l.lockedUntil('u', T0 + 10)).toBeNull();
    expect(l.fail('u', T0 + 10)).toBe(T0 + 10 + LOCKOUT_MS);
    expect(l.lockedUntil('u', T0 + 10 + LOCKOUT_MS - 1)).toBe(T0 + 10 + LOCKOUT_MS);
    expect(l.lockedUntil('u', T0 + 10 + LOCKOUT_MS)).toBeNull();
    expect(l.lockedUntil('v', T0)).toBeNull();
  });

  it('forgets failures older than the window and after a success', () => {
    const l = new Lockout();
    for (let i = 0; i < 4; i++) l.fail('u', T0);
    expect(l.fail('u', T0 + 15 * 60_000)).toBeNull();
    for (let i = 0; i < 3; i++) l.fail('w', T0);
    l.succeed('w');
    for (let i = 0; i < 4; i++) expect(l.fail('w', T0 + 1)).toBeNull();
  });

  it('lets an address try 20 logins at once, then one every 3 seconds', () => {
    const t = new IpThrottle();
    for (let i = 0; i < 20; i++) expect(t.take('198.51.100.1', T0)).toBe(0);
    const wait = t.take('198.51.100.1', T0);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(3000);
    expect(t.take('198.51.100.2', T0)).toBe(0);
    expect(t.take('198.51.100.1', T0 + 3000)).toBe(0);
    expect(t.take('198.51.100.1', T0 + 3000)).toBeGreaterThan(0);
  });
});

describe('TOTP guard', () => {
  const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
  const stores: Store[] = [];
  afterAll(async () => { for (const s of stores.splice(0)) await s.close(); });
  /** A real main environment in a temp dir. */
  const realStore = (): Store => {
    const store = openStore(tempDir('tas-totp-'), 'none', 0);
    stores.push(store);
    return store;
  };
  const box = { open: (sealed: string) => sealed } as unknown as SecretBox;
  const userRec: UserRecord = { id: 'u', passwordHash: '', sealedTotpSecret: SECRET, createdAt: 0 };

  it('takes the previous, current and next step once each, in order, and survives a new guard on the same store', async () => {
    const clock = new FakeClock(T0);
    const step = Math.floor(T0 / STEP_MS);
    const store = realStore();
    const guard = new TotpGuard(store, box, clock);
    const wrong = { ok: false, reason: 'wrong' };
    expect(await guard.consume(userRec, codeAt(SECRET, step - 2))).toEqual(wrong);
    expect(await guard.consume(userRec, codeAt(SECRET, step + 2))).toEqual(wrong);
    expect(await guard.consume(userRec, codeAt(SECRET, step - 1))).toEqual({ ok: true, step: step - 1 });
    // Used: the app shows a fresh code when the current step begins, which it already has (T0 is a step start).
    expect(await guard.consume(userRec, codeAt(SECRET, step - 1))).toEqual({ ok: false, reason: 'used', nextCodeInMs: 0 });
    expect(await guard.consume(userRec, codeAt(SECRET, step + 1))).toEqual({ ok: true, step: step + 1 });
    // An older step than the last one taken is refused even inside the window: the next fresh code is two steps away.
    expect(await guard.consume(userRec, codeAt(SECRET, step))).toEqual({ ok: false, reason: 'used', nextCodeInMs: 2 * STEP_MS });
    clock.ms += 12_345;
    expect(await new TotpGuard(store, box, clock).consume(userRec, codeAt(SECRET, step + 1))).toEqual({ ok: false, reason: 'used', nextCodeInMs: 2 * STEP_MS - 12_345 });
    clock.ms = T0 + 2 * STEP_MS;
    expect(await guard.consume(userRec, codeAt(SECRET, step + 2))).toEqual({ ok: true, step: step + 2 });
    expect(await guard.consume(userRec, 'abcdef')).toEqual(wrong);
  });

  it('says how long until a fresh code when one was used, and never less than a second', () => {
    expect(totpRefusal({ ok: false, reason: 'used', nextCodeInMs: 17_200 })).toBe('TOTP code already used (each code works once): wait for the next code of your authenticator app, in 18 s');
    expect(totpRefusal({ ok: false, reason: 'used', nextCodeInMs: 0 })).toMatch(/in 1 s$/);
    expect(totpRefusal({ ok: false, reason: 'wrong' })).toBe('TOTP code is wrong or expired');
  });

  it('spends a step before any await, so two requests with one code cannot both pass', async () => {
    const guard = new TotpGuard(realStore(), box, new FakeClock(T0));
    const code = codeAt(SECRET, Math.floor(T0 / STEP_MS));
    const results = await Promise.all([guard.consume(userRec, code), guard.consume(userRec, code)]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
  });
});

describe('request guard', () => {
  const headers = (extra: Partial<GuardHeaders> = {}): GuardHeaders =>
    ({ authorization: '', cookie: '', origin: '', host: '127.0.0.1:8081', secFetchSite: '', csrfToken: '', ...extra });

  it('reads cookies by name', () => {
    expect(cookieValues('a=1; tas_session=x; b=2; tas_session=y', 'tas_session')).toEqual(['x', 'y']);
    expect(cookieValues('tas_sessionx=1; =2; tas_session', 'tas_session')).toEqual([]);
  });

  it('authenticates by bearer token first, then the session cookie', () => {
    const sessions = new SessionStore(new FakeClock(T0));
    const s = sessions.create('alice', '127.0.0.1');
    const token = 'operator-token-0123456789';
    expect(authenticateConsoleCall('member', headers({ authorization: `Bearer ${token}` }), token, sessions)).toEqual({ kind: 'operator' });
    expect(() => authenticateConsoleCall('member', headers({ authorization: 'Bearer nope', cookie: `tas_session=${s.id}` }), token, sessions)).toThrow(/operator token wrong/);
    expect(authenticateConsoleCall('member', headers({ cookie: `tas_session=${s.id}` }), token, sessions)).toMatchObject({ kind: 'user', user: 'alice' });
    expect(() => authenticateConsoleCall('operator', headers({ cookie: `tas_session=${s.id}` }), token, sessions)).toThrow(/operator only/);
    expect(() => authenticateConsoleCall('member', headers(), token, sessions)).toThrow(/log in first/);
    expect(authenticateConsoleCall('public', headers(), token, sessions)).toEqual({ kind: 'anonymous' });
    sessions.close();
  });

  it("accepts a change only from the console's own origin with the session's token", () => {
    const sessions = new SessionStore(new FakeClock(T0));
    const s = sessions.create('alice', '127.0.0.1');
    const actor = { kind: 'user', user: 'alice', session: s } as const;
    const refused = (h: GuardHeaders): string => {
      try { checkSameOrigin(actor, h); return 'accepted'; } catch (e) { return (e as ApiError).errorName; }
    };
    expect(refused(headers({ csrfToken: s.csrfToken, origin: 'http://127.0.0.1:8081', secFetchSite: 'same-origin' }))).toBe('accepted');
    expect(refused(headers({ csrfToken: s.csrfToken }))).toBe('accepted');
    expect(refused(headers({ csrfToken: s.csrfToken, origin: 'http://127.0.0.1:8082' }))).toBe('forbidden');
    expect(refused(headers({ csrfToken: s.csrfToken, origin: 'javascript:alert(1)' }))).toBe('forbidden');
    expect(refused(headers({ csrfToken: s.csrfToken, secFetchSite: 'cross-site' }))).toBe('forbidden');
    const tampered = `${s.csrfToken.slice(0, -1)}${s.csrfToken.endsWith('A') ? 'B' : 'A'}`;
    expect(refused(headers({ csrfToken: tampered }))).toBe('forbidden');
    expect(refused(headers())).toBe('forbidden');
    expect(() => checkSameOrigin({ kind: 'anonymous' }, headers({ origin: 'https://evil.example' }))).toThrow(ApiError);
    expect(() => checkSameOrigin({ kind: 'operator' }, headers({ origin: 'https://evil.example' }))).not.toThrow();
    sessions.close();
  });
});

describe('keys', () => {
  const key = (createdAt: number, extra: Partial<KeyRecord> = {}): KeyRecord => ({
    id: 'k', sealedSecret: '', name: 'k', login: '1', scopes: ['read'], rateLimit: 10, ipWhitelist: [], expiresAt: null,
    status: 'Active', createdAt, revokedAt: null, halted: false, ...extra,
  });

  it('advises expiry, a whitelist and rotation after 12 calendar months', () => {
    expect(addMonthsUtc(Date.UTC(2025, 0, 31), 12)).toBe(Date.UTC(2026, 0, 31));
    expect(addMonthsUtc(Date.UTC(2024, 1, 29, 10), 12)).toBe(Date.UTC(2025, 1, 28, 10));
    expect(addMonthsUtc(Date.UTC(2025, 11, 31), 2)).toBe(Date.UTC(2026, 1, 28));
    const now = Date.UTC(2026, 0, 15);
    expect(advisoriesOf(key(now), now).map((a) => a.code)).toEqual(['no_expiry', 'no_ip_whitelist']);
    expect(advisoriesOf(key(Date.UTC(2025, 0, 15), { expiresAt: now + 1, ipWhitelist: ['10.0.0.0/8'] }), now).map((a) => a.code)).toEqual(['older_than_12_months']);
    expect(advisoriesOf(key(Date.UTC(2025, 0, 15) + 1, { expiresAt: now + 1, ipWhitelist: ['10.0.0.0/8'] }), now)).toEqual([]);
  });

  it('grants 100 req/s to Pro and ECN groups with equity of 50,000 or more', () => {
    expect(['real\\ECN', 'demo\\pro-usd', 'PRO', 'ecn'].map(isProOrEcn)).toEqual([true, true, true, true]);
    expect(['real\\ECNx', 'professional', 'demo\\standard', ''].map(isProOrEcn)).toEqual([false, false, false, false]);
    const account = { group: 'real\\ECN' } as AccountRecord;
    const metrics = (equity: number) => ({ balance: 0, equity, margin: 0, freeMargin: 0, marginLevel: 0 });
    expect(mayUsePremiumRate(account, metrics(5_000_000))).toBe(true);
    expect(mayUsePremiumRate(account, metrics(4_999_999))).toBe(false);
  });

  it('reads a new key: read/trade scopes only, the listed rate limits, a future expiry', () => {
    const now = T0;
    expect(readNewKey({ name: 'bot', login: '1', scopes: ['trade', 'read'], totp: '123456' }, now))
      .toEqual({ name: 'bot', login: '1', scopes: ['trade', 'read'], rateLimit: 20, expiresAt: null, ipWhitelist: [] });
    expect(readNewKey({ name: 'bot', login: '1', scopes: ['read'], expires_at: '2026-02-01' }, now).expiresAt).toBe(Date.UTC(2026, 1, 1));
    const refusal = (body: Record<string, unknown>): string => {
      try { readNewKey({ name: 'bot', login: '1', scopes: ['read'], ...body }, now); return 'accepted'; } catch (e) { return (e as InvalidValue).path; }
    };
    expect(refusal({ scopes: ['withdraw'] })).toBe('scopes[0]');
    expect(refusal({ scopes: ['admin', 'read'] })).toBe('scopes[0]');
    expect(refusal({ rate_limit: 25 })).toBe('rate_limit');
    expect(refusal({ rate_limit: '20' })).toBe('rate_limit');
    expect(refusal({ expires_at: new Date(now).toISOString() })).toBe('expires_at');
    expect(refusal({ login: '1a' })).toBe('login');
    expect(refusal({ ip_whitelist: ['10.0.0.0/33'] })).toBe('ip_whitelist[0]');
    expect(refusal({ rate_limit: 100 })).toBe('accepted');
  });
});

describe('audit summary', () => {
  it('drops credentials and cuts long text, long lists and deep nesting', () => {
    const s = summary({ user: 'alice', password: 'hunter2', totp: '123456', secret: 's3cr3t', name: 'x'.repeat(200), list: Array.from({ length: 40 }, (_, i) => i), deep: { a: { b: { c: { d: 1 } } } } });
    expect(s['password']).toBe('(not logged)');
    expect(s['totp']).toBe('(not logged)');
    expect(s['secret']).toBe('(not logged)');
    expect(String(s['name'])).toMatch(/^x{128}…\(200 chars\)$/);
    expect(s['list']).toHaveLength(33);
    expect(s['deep']).toEqual({ a: { b: '…' } });
    expect(JSON.stringify(s)).not.toMatch(/hunter2|123456|s3cr3t/);
  });
});
