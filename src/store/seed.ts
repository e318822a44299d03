// Bootstrap fixture upsert (DECISIONS "Bootstrap fixture"): idempotent, so a second start with the
// same file writes nothing. The fixture owns the descriptive fields it names; runtime state that
// the console changes later (key status and kill switch, webhook pause, revocation) is taken from
// the fixture only when the record is created. Accounts are upserted through their shards (their
// single writer), not here.
import type { FixtureKey, FixtureSizing, FixtureSymbol, FixtureUser, FixtureWebhook, Fixture } from '../config/types.js';
import type { Sizing, SymbolSpec, UnixMs } from '../engine/types.js';
import { lotsToCentilots } from '../market/ticks.js';
import { hashPassword, verifyPassword } from '../base/password.js';
import { KEYS, USERS, WEBHOOKS } from './records.js';
import type { SecretBox } from './secret-box.js';
import { SYMBOLS, type Store } from './store.js';

export interface SeedReport { readonly created: string[]; readonly updated: string[] }

/** The fixture was validated, so its lots are exact multiples of 0.01. */
function centilots(lots: number): number {
  const cl = lotsToCentilots(lots);
  if (cl === null) throw new Error(`validated fixture holds an inexact volume ${lots}`);
  return cl;
}

export function symbolSpec(s: FixtureSymbol): SymbolSpec {
  return {
    name: s.name,
    digits: s.digits,
    contractSize: s.contract_size,
    maxVolume: centilots(s.max_volume),
    baseCurrency: s.base_currency,
    quoteCurrency: s.quote_currency,
    session: s.session,
  };
}

export function sizingOf(s: FixtureSizing): Sizing {
  switch (s.type) {
    case 'fixed': return { type: 'fixed', lots: centilots(s.lots) };
    case 'multiplier': return { type: 'multiplier', factor: s.factor };
    case 'risk_percent': return { type: 'risk_percent', percent: s.percent };
  }
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export async function seedStore(store: Store, box: SecretBox, fixture: Fixture, nowMs: UnixMs): Promise<SeedReport> {
  const report: SeedReport = { created: [], updated: [] };
  const note = (existed: boolean, what: string): void => { (existed ? report.updated : report.created).push(what); };

  for (const s of fixture.symbols) {
    const spec = symbolSpec(s);
    const old = store.table(SYMBOLS).get(s.name);
    if (!old || !same(old, spec)) { await store.table(SYMBOLS).put(s.name, spec); note(!!old, `symbol ${s.name}`); }
  }
  for (const u of fixture.users) await seedUser(store, box, u, nowMs, note);
  for (const k of fixture.keys) await seedKey(store, box, k, nowMs, note);
  for (const w of fixture.webhooks) await seedWebhook(store, box, w, nowMs, note);
  await store.flushed();
  return report;
}

type Note = (existed: boolean, what: string) => void;

async function seedUser(store: Store, box: SecretBox, u: FixtureUser, nowMs: UnixMs, note: Note): Promise<void> {
  const users = store.table(USERS);
  const old = users.get(u.id);
  if (old && await verifyPassword(u.password, old.passwordHash) && box.open(old.sealedTotpSecret) === u.totp_secret) return;
  await users.put(u.id, {
    id: u.id,
    passwordHash: old && await verifyPassword(u.password, old.passwordHash) ? old.passwordHash : await hashPassword(u.password),
    sealedTotpSecret: box.seal(u.totp_secret),
    createdAt: old?.createdAt ?? nowMs,
  });
  note(!!old, `user ${u.id}`);
}

async function seedKey(store: Store, box: SecretBox, k: FixtureKey, nowMs: UnixMs, note: Note): Promise<void> {
  const keys = store.table(KEYS);
  const old = keys.get(k.id);
  const described = {
    name: k.name, login: k.login, scopes: k.scopes, rateLimit: k.rate_limit, ipWhitelist: k.ip_whitelist,
    expiresAt: k.expires_at === null ? null : Date.parse(k.expires_at),
  };
  if (old && box.open(old.sealedSecret) === k.secret && same(
    { name: old.name, login: old.login, scopes: old.scopes, rateLimit: old.rateLimit, ipWhitelist: old.ipWhitelist, expiresAt: old.expiresAt },
    described,
  )) return;
  await keys.put(k.id, {
    id: k.id,
    sealedSecret: box.seal(k.secret),
    ...described,
    status: old?.status ?? (k.status === 'Paused' ? 'Paused' : 'Active'),
    createdAt: old?.createdAt ?? nowMs,
    revokedAt: old?.revokedAt ?? null,
    halted: old?.halted ?? false,
  });
  note(!!old, `key ${k.id}`);
}

async function seedWebhook(store: Store, box: SecretBox, w: FixtureWebhook, nowMs: UnixMs, note: Note): Promise<void> {
  const webhooks = store.table(WEBHOOKS);
  const old = webhooks.get(w.id);
  const described = { user: w.user, symbols: w.symbols, targets: w.targets.map((t) => ({ login: t.login, sizing: sizingOf(t.sizing) })) };
  if (old && box.open(old.sealedSecret) === w.secret && same({ user: old.user, symbols: old.symbols, targets: old.targets }, described)) return;
  await webhooks.put(w.id, {
    id: w.id,
    sealedSecret: box.seal(w.secret),
    ...described,
    paused: old?.paused ?? w.paused,
    createdAt: old?.createdAt ?? nowMs,
  });
  note(!!old, `webhook ${w.id}`);
}
