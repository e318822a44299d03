// The console's operator routes for API keys (DECISIONS "Console"): pause, resume, revoke, the
// key kill switch, and the key's request statistics. A change is written to LMDB and flushed
// before the answer, then the main thread's key cache is reloaded so the next request sees it.
// The kill switch also reaches the account's shard, which refuses the key's trading calls (423).
import type { TemplatedApp } from 'uWebSockets.js';
import type { KeyRecord } from '../store/records.js';
import { keyStatus } from '../store/records.js';
import { ApiError } from '../gateway/errors.js';
import { callShard } from '../gateway/shard-call.js';
import type { KeyStatsBook } from '../gateway/stats/key-stats-book.js';
import { KeyStats } from '../gateway/stats/key-stats.js';
import { iso } from '../gateway/wire.js';
import { operatorRoute, type OperatorDeps, type OperatorHandler } from './operator-routes.js';

/** A live (not revoked) key, or not_found: a revoked key has disappeared for the console too. */
function liveKey(deps: OperatorDeps, id: string): KeyRecord {
  const record = deps.store.db<KeyRecord>('keys').get(id);
  if (!record || record.revokedAt !== null) throw new ApiError('not_found', `key ${JSON.stringify(id)} not found`);
  return record;
}

async function save(deps: OperatorDeps, next: KeyRecord): Promise<void> {
  await deps.store.db<KeyRecord>('keys').put(next.id, next);
  await deps.store.flushed();
  deps.auth.keys.reload(next.id);
}

/** What the key routes answer: the key's state as the console shows it. */
export function keyStateJson(k: KeyRecord, nowMs: number) {
  return {
    id: k.id,
    login: k.login,
    status: k.revokedAt === null ? keyStatus(k, nowMs) : 'Revoked',
    kill_switch: { active: k.halted },
    revoked_at: k.revokedAt === null ? null : iso(k.revokedAt),
  };
}

export function registerKeyRoutes(app: TemplatedApp, deps: OperatorDeps, stats: KeyStatsBook): void {
  const setStatus = (status: KeyRecord['status']): OperatorHandler => async (ex, _body, params) => {
    const next = { ...liveKey(deps, params[0]!), status };
    await save(deps, next);
    ex.json(200, keyStateJson(next, deps.clock.nowMs()));
  };
  operatorRoute(app, deps, 'post', '/console/api/keys/:id/pause', setStatus('Paused'), 'optional');
  operatorRoute(app, deps, 'post', '/console/api/keys/:id/resume', setStatus('Active'), 'optional');

  operatorRoute(app, deps, 'del', '/console/api/keys/:id', async (ex, _body, params) => {
    const nowMs = deps.clock.nowMs();
    const next = { ...liveKey(deps, params[0]!), revokedAt: nowMs };
    await save(deps, next);
    ex.json(200, keyStateJson(next, nowMs));
  }, 'optional');

  operatorRoute(app, deps, 'put', '/console/api/keys/:id/kill-switch', async (ex, body, params) => {
    const active = body['active'];
    if (typeof active !== 'boolean') throw new ApiError('bad_request', 'active must be true or false', 'active');
    const next = { ...liveKey(deps, params[0]!), halted: active };
    // Stored first: a shard loads the halted keys from the store when it starts.
    await save(deps, next);
    await callShard(deps, next.login, { kind: 'keyHalt', login: next.login, keyId: next.id, active });
    ex.json(200, keyStateJson(next, deps.clock.nowMs()));
  }, 'required');

  operatorRoute(app, deps, 'get', '/console/api/keys/:id/stats', (ex, _body, params) => {
    const record = liveKey(deps, params[0]!);
    ex.json(200, (stats.get(record.id) ?? new KeyStats(record.id, record.createdAt)).toJson());
  }, 'optional');
}
