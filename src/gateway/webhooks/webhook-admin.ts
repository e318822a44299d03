// Creating, editing and showing webhooks (the console's webhook routes and its page). A new
// webhook is checked exactly as a fixture webhook is (same reader, same messages), plus what only
// the live service knows: the user and the target accounts exist, each target belongs to the
// webhook's user (the kill switch and its 423 are per user), the symbols are configured.
import { randomBytes } from 'node:crypto';
import { InvalidValue } from '../../config/errors.js';
import { readWebhook } from '../../config/fixture-items.js';
import type { FixtureWebhook } from '../../config/types.js';
import type { Sizing, SymbolSpec, UnixMs } from '../../engine/types.js';
import { centilotsToLots } from '../../market/ticks.js';
import type { ReadModel } from '../../shard/read-model.js';
import { USERS } from '../../store/records.js';
import { sizingOf } from '../../store/seed.js';
import type { Store } from '../../store/store.js';
import { ApiError } from '../errors.js';
import { iso } from '../wire.js';
import type { LiveWebhook, WebhookBook } from './webhook-book.js';

export interface WebhookAdminDeps {
  readonly store: Store;
  readonly readModel: ReadModel;
  readonly symbols: ReadonlyMap<string, SymbolSpec>;
}

export type SizingJson =
  | { readonly type: 'fixed'; readonly lots: number }
  | { readonly type: 'multiplier'; readonly factor: number }
  | { readonly type: 'risk_percent'; readonly percent: number };

export function sizingJson(s: Sizing): SizingJson {
  return s.type === 'fixed' ? { type: 'fixed', lots: centilotsToLots(s.lots) } : s;
}

export function webhookJson(hook: LiveWebhook) {
  const r = hook.record;
  return {
    id: r.id,
    user: r.user,
    symbols: r.symbols,
    targets: r.targets.map((t) => ({ login: t.login, sizing: sizingJson(t.sizing) })),
    paused: r.paused,
    created_at: iso(r.createdAt),
  };
}

/** A webhook made from a console request; `secret` is set when it was generated (shown once). */
export interface Created { readonly hook: LiveWebhook; readonly generatedSecret: string | null }

export async function createWebhook(book: WebhookBook, deps: WebhookAdminDeps, body: Record<string, unknown>, nowMs: UnixMs): Promise<Created> {
  const generatedSecret = body['secret'] === undefined ? randomBytes(24).toString('base64url') : null;
  const w = readChecked({ ...body, id: body['id'] ?? `wh_${randomBytes(8).toString('hex')}`, secret: body['secret'] ?? generatedSecret });
  if (book.get(w.id) !== undefined) throw new ApiError('bad_request', `webhook ${w.id} already exists`, { field: 'id' });
  if (deps.store.table(USERS).get(w.user) === undefined) throw new ApiError('not_found', `user ${w.user} not found`, { field: 'user' });
  checkRouting(deps, w);
  const hook = await book.create({
    id: w.id, user: w.user, symbols: w.symbols, paused: w.paused, createdAt: nowMs,
    targets: w.targets.map((t) => ({ login: t.login, sizing: sizingOf(t.sizing) })),
  }, w.secret);
  return { hook, generatedSecret };
}

/**
 * Replaces a webhook's allowed symbols and/or targets (the console's edit), checked exactly as at
 * creation; the id, user, secret and pause state stay.
 */
export async function editWebhook(book: WebhookBook, deps: WebhookAdminDeps, hook: LiveWebhook, body: Record<string, unknown>): Promise<LiveWebhook> {
  for (const key of Object.keys(body)) {
    if (key !== 'symbols' && key !== 'targets') throw new ApiError('bad_request', `${key}: cannot be edited (symbols and targets can)`, { field: key });
  }
  if (Object.keys(body).length === 0) throw new ApiError('bad_request', 'nothing to change: send symbols and/or targets');
  const current = webhookJson(hook);
  const w = readChecked({
    id: current.id, user: current.user, secret: hook.secret.toString('utf8'),
    symbols: body['symbols'] ?? current.symbols, targets: body['targets'] ?? current.targets,
  });
  checkRouting(deps, w);
  const updated = await book.update(w.id, { symbols: w.symbols, targets: w.targets.map((t) => ({ login: t.login, sizing: sizingOf(t.sizing) })) });
  if (updated === undefined) throw new ApiError('not_found', `webhook ${w.id} not found`);
  return updated;
}

function readChecked(body: Record<string, unknown>): FixtureWebhook {
  try {
    return readWebhook(body, '');
  } catch (e) {
    if (e instanceof InvalidValue) throw new ApiError('bad_request', `${e.path}: ${e.reason}`, { field: e.path });
    throw e;
  }
}

/** What only the live service knows: configured symbols, and target accounts that exist, are the user's and appear once. */
function checkRouting(deps: WebhookAdminDeps, w: FixtureWebhook): void {
  w.symbols.forEach((s, i) => {
    if (!deps.symbols.has(s)) throw new ApiError('bad_request', `symbol ${s} is not configured`, { field: `symbols[${i}]` });
  });
  const logins = new Set<string>();
  w.targets.forEach((t, i) => {
    const field = `targets[${i}].login`;
    const account = deps.readModel.account(t.login);
    if (account === undefined) throw new ApiError('not_found', `account ${t.login} not found`, { field });
    if (account.user !== w.user) throw new ApiError('bad_request', `account ${t.login} does not belong to user ${w.user}`, { field });
    if (logins.has(t.login)) throw new ApiError('bad_request', `account ${t.login} is a target twice`, { field });
    logins.add(t.login);
  });
}
