// The console's API key routes (spec "What the service does" 2-4 and 8, DECISIONS "Console"):
// create (fresh TOTP; secret shown once), list and show with statistics and advisories, pause,
// resume, revoke (fresh TOTP), the key kill switch, and the statistics alone. A change is written
// to LMDB and flushed before the answer, then the main thread's key cache is reloaded so the next
// REST or WebSocket request sees it (the FIX thread re-reads keys every few seconds). The kill
// switch also reaches the account's shard, which refuses the key's trading calls (423).
import { ApiError } from '../gateway/errors.js';
import { readQuery } from '../gateway/rest/query.js';
import { callShard } from '../gateway/shard-call.js';
import type { KeyStatsBook } from '../gateway/stats/key-stats-book.js';
import { iso } from '../gateway/wire.js';
import { KEYS, USERS, keyStatus, type KeyRecord, type UserRecord } from '../store/records.js';
import { accountOf, keyOf, sees } from './actor.js';
import { checked } from './check-body.js';
import { freshTotp } from './fresh-totp.js';
import { checkRateLimit, newKeyRecord, readNewKey } from './key-create.js';
import { keyJson, statsOf } from './key-view.js';
import type { ConsoleCall, ConsoleDeps, ConsoleRouter } from './router.js';
import type { UnixMs } from '../engine/types.js';

async function save(deps: ConsoleDeps, next: KeyRecord): Promise<void> {
  await deps.store.table(KEYS).put(next.id, next);
  await deps.store.flushed();
  deps.auth.keys.reload(next.id);
}

/** What the key state routes answer: the key's state as the console shows it. */
export function keyStateJson(k: KeyRecord, nowMs: UnixMs) {
  return {
    id: k.id,
    login: k.login,
    status: k.revokedAt === null ? keyStatus(k, nowMs) : 'Revoked',
    kill_switch: { active: k.halted },
    revoked_at: k.revokedAt === null ? null : iso(k.revokedAt),
  };
}

/** The user whose fresh TOTP a change of this account's keys needs (the account's owner). */
function ownerRecord(deps: ConsoleDeps, call: ConsoleCall, login: string): UserRecord {
  const user = deps.readModel.account(login)?.user;
  const record = user === undefined ? undefined : deps.store.table(USERS).get(user);
  if (record === undefined) throw new ApiError('not_found', `the owner of account ${login} is not a console user`, { field: 'login' });
  call.owner = record.id;
  return record;
}

export function registerKeyRoutes(router: ConsoleRouter, stats: KeyStatsBook): void {
  const { deps } = router;
  const view = (k: KeyRecord, nowMs: UnixMs) => keyJson(k, deps.readModel.account(k.login), statsOf(stats, k), nowMs);

  router.route({ method: 'get', path: '/console/api/keys', access: 'member', body: 'none', action: 'key.list' }, (call) => {
    const query = readQuery(call.ex.query, ['login']);
    const login = query.get('login');
    if (login !== undefined) accountOf(deps, call, login, 'login');
    const keys = [...deps.store.table(KEYS).getRange()].map((e) => e.value)
      .filter((k) => k.revokedAt === null && (login === undefined || k.login === login) && sees(call.actor, deps.readModel.account(k.login)))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    call.reply(200, { data: keys.map((k) => view(k, call.nowMs)) });
  });

  router.route({ method: 'post', path: '/console/api/keys', access: 'member', body: 'required', action: 'key.create' }, async (call) => {
    const wanted = checked(() => readNewKey(call.body, call.nowMs));
    const account = accountOf(deps, call, wanted.login, 'login');
    checkRateLimit(wanted.rateLimit, account, deps.readModel.metrics(account));
    // Checked last: a request refused for its fields does not spend the code.
    if (call.actor.kind === 'user' || call.body['totp'] !== undefined) {
      await freshTotp(deps, call, ownerRecord(deps, call, account.login), 'create a key');
    }
    const { record, secret } = newKeyRecord(wanted, (s) => deps.box.seal(s), call.nowMs);
    await save(deps, record);
    call.target = record.id;
    call.detail = {
      created: { name: record.name, login: record.login, scopes: record.scopes, rate_limit: record.rateLimit, ip_whitelist: record.ipWhitelist, expires_at: record.expiresAt === null ? null : iso(record.expiresAt) },
    };
    // The secret is in this answer only; the store keeps it sealed (secret-box.ts).
    call.reply(201, { ...view(record, call.nowMs), secret }, [['cache-control', 'no-store']]);
  });

  router.route({ method: 'get', path: '/console/api/keys/:id', access: 'member', body: 'none', action: 'key.get' }, (call) => {
    call.reply(200, view(keyOf(deps, call, call.params[0]!), call.nowMs));
  });

  for (const [action, status] of [['pause', 'Paused'], ['resume', 'Active']] as const) {
    router.route({ method: 'post', path: `/console/api/keys/:id/${action}`, access: 'member', body: 'optional', action: `key.${action}` }, async (call) => {
      if (Object.keys(call.body).length > 0) throw new ApiError('bad_request', `${action} takes no fields`);
      const before = keyOf(deps, call, call.params[0]!);
      const next = { ...before, status };
      await save(deps, next);
      call.detail = { status: { from: keyStatus(before, call.nowMs), to: keyStatus(next, call.nowMs) } };
      call.reply(200, keyStateJson(next, call.nowMs));
    });
  }

  router.route({ method: 'del', path: '/console/api/keys/:id', access: 'member', body: 'optional', action: 'key.revoke' }, async (call) => {
    const before = keyOf(deps, call, call.params[0]!);
    for (const field of Object.keys(call.body)) if (field !== 'totp') throw new ApiError('bad_request', `unknown field ${JSON.stringify(field)}`, { field });
    if (call.actor.kind === 'user' || call.body['totp'] !== undefined) {
      await freshTotp(deps, call, ownerRecord(deps, call, before.login), 'revoke a key');
    }
    const next = { ...before, revokedAt: call.nowMs };
    await save(deps, next);
    call.detail = { revoked: { name: before.name, login: before.login } };
    call.reply(200, keyStateJson(next, call.nowMs));
  });

  router.route({ method: 'put', path: '/console/api/keys/:id/kill-switch', access: 'member', body: 'required', action: 'key.kill_switch' }, async (call) => {
    const active = call.body['active'];
    if (typeof active !== 'boolean') throw new ApiError('bad_request', 'active must be true or false', { field: 'active' });
    const before = keyOf(deps, call, call.params[0]!);
    const next = { ...before, halted: active };
    // Stored first: a shard loads the halted keys from the store when it starts.
    await save(deps, next);
    await callShard(deps, next.login, { kind: 'keyHalt', login: next.login, keyId: next.id, active });
    if (active && !before.halted) deps.metrics.killSwitchTriggered('key');
    call.detail = { kill_switch: { from: before.halted, to: active } };
    call.reply(200, keyStateJson(next, call.nowMs));
  });

  router.route({ method: 'get', path: '/console/api/keys/:id/stats', access: 'member', body: 'none', action: 'key.stats' }, (call) => {
    call.reply(200, statsOf(stats, keyOf(deps, call, call.params[0]!)));
  });
}
