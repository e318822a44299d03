// The bootstrap fixture (DECISIONS "Bootstrap fixture"): each item read by fixture-items.ts, then
// the rules across items: unique ids and references that resolve. Every section is optional.
import { adminToken, at, fields, item, list, optional, shown, type Reader } from './check.js';
import { ConfigError, InvalidValue, type ConfigErrorKind } from './errors.js';
import { readAccount, readKey, readSymbol, readUser, readWebhook } from './fixture-items.js';
import type { Fixture, FixtureAccount } from './types.js';

/** Refuses the second item whose `field` repeats an earlier one. */
function unique<T>(items: readonly T[], field: keyof T & string, path: string): void {
  const firstAt = new Map<unknown, number>();
  items.forEach((it, i) => {
    const first = firstAt.get(it[field]);
    if (first !== undefined) {
      throw new InvalidValue(at(item(path, i), field), `duplicates ${at(item(path, first), field)} (${shown(it[field])})`);
    }
    firstAt.set(it[field], i);
  });
}

function mustExist(known: ReadonlyMap<string, unknown>, value: string, path: string, what: string): void {
  if (!known.has(value)) throw new InvalidValue(path, `must name ${what} of the fixture, got ${shown(value)}`);
}

/** Spec "Limits" 7: only Pro and ECN accounts may go above 50 requests per second. */
const MAX_RATE_LIMIT_STANDARD = 50;
const PRO_GROUP = /pro|ecn/i;

function readFixture(raw: unknown, path: string): Fixture {
  const o = fields(raw, path, ['console', 'symbols', 'users', 'accounts', 'keys', 'webhooks']);
  const section = <T>(key: string, read: Reader<T>): T[] => optional(o, key, path, [], list(read));
  const consoleSection = optional(o, 'console', path, {}, (v, p) => fields(v, p, ['admin_token']));
  const admin_token = optional(consoleSection, 'admin_token', at(path, 'console'), null, adminToken);

  const symbols = section('symbols', readSymbol);
  const users = section('users', readUser);
  const accounts = section('accounts', readAccount);
  const keys = section('keys', readKey);
  const webhooks = section('webhooks', readWebhook);
  const accountsAt = at(path, 'accounts');
  const keysAt = at(path, 'keys');
  const webhooksAt = at(path, 'webhooks');

  unique(symbols, 'name', at(path, 'symbols'));
  unique(users, 'id', at(path, 'users'));
  unique(accounts, 'login', accountsAt);
  unique(keys, 'id', keysAt);
  unique(webhooks, 'id', webhooksAt);

  const symbolByName = new Map(symbols.map((s) => [s.name, s]));
  const userById = new Map(users.map((u) => [u.id, u]));
  const accountByLogin = new Map<string, FixtureAccount>(accounts.map((a) => [a.login, a]));

  accounts.forEach((a, i) => mustExist(userById, a.user, at(item(accountsAt, i), 'user'), 'a user'));
  keys.forEach((k, i) => {
    const keyAt = item(keysAt, i);
    mustExist(accountByLogin, k.login, at(keyAt, 'login'), 'an account');
    const group = accountByLogin.get(k.login)?.group ?? '';
    if (k.rate_limit > MAX_RATE_LIMIT_STANDARD && !PRO_GROUP.test(group)) {
      throw new InvalidValue(at(keyAt, 'rate_limit'),
        `above ${MAX_RATE_LIMIT_STANDARD} needs a Pro or ECN account, but account ${k.login} is in group ${shown(group)}`);
    }
  });
  webhooks.forEach((w, i) => {
    const webhookAt = item(webhooksAt, i);
    mustExist(userById, w.user, at(webhookAt, 'user'), 'a user');
    w.symbols.forEach((s, j) => mustExist(symbolByName, s, item(at(webhookAt, 'symbols'), j), 'a symbol'));
    const targetsAt = at(webhookAt, 'targets');
    w.targets.forEach((t, j) => {
      const loginAt = at(item(targetsAt, j), 'login');
      mustExist(accountByLogin, t.login, loginAt, 'an account');
      // A webhook trades for its owner only: the kill switch and the 423 rules are per user.
      const owner = accountByLogin.get(t.login)?.user;
      if (owner !== w.user) throw new InvalidValue(loginAt, `account ${t.login} belongs to ${shown(owner)}, not to the webhook's user ${shown(w.user)}`);
    });
    unique(w.targets, 'login', targetsAt);
  });

  return { console: { admin_token }, symbols, users, accounts, keys, webhooks };
}

/**
 * The fixture, typed with every default filled in, or a ConfigError naming the first bad path.
 * `kind` and `prefix` say where it sits: its own file (`seed`, "") or the configuration's `seed`.
 */
export function validateFixture(raw: unknown, kind: ConfigErrorKind = 'seed', prefix = ''): Fixture {
  try {
    return readFixture(raw, prefix);
  } catch (e) {
    if (e instanceof InvalidValue) throw new ConfigError(kind, e.path, e.reason);
    throw e;
  }
}
