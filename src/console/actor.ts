// Who is calling the console, and what they may see (DECISIONS "Console"). The operator (bearer
// admin token) sees every user's accounts, keys, webhooks and kill switch; a logged-in user sees
// only their own. What a user may not see is answered exactly as what does not exist (404), so
// the console reveals nothing about other users.
import type { AccountRecord } from '../engine/types.js';
import { ApiError } from '../gateway/errors.js';
import type { ReadModel } from '../shard/read-model.js';
import { KEYS, USERS, type KeyRecord, type UserRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Session } from './sessions.js';

export type Actor =
  | { readonly kind: 'operator' }
  | { readonly kind: 'user'; readonly user: string; readonly session: Session }
  | { readonly kind: 'anonymous' };

export const OPERATOR: Actor = { kind: 'operator' };
export const ANONYMOUS: Actor = { kind: 'anonymous' };

/** How the audit log names the actor. */
export const actorName = (a: Actor): string => (a.kind === 'user' ? `user:${a.user}` : a.kind);

/** What a call may touch; it also learns whose resources it touched (the audit entry's owner). */
export interface Scoped {
  readonly actor: Actor;
  owner: string | null;
}

export interface ScopeDeps {
  readonly store: Store;
  readonly readModel: ReadModel;
}

/** The user a user-actor acts as; null for the operator (every user). */
export function viewer(actor: Actor): string | null {
  if (actor.kind === 'user') return actor.user;
  if (actor.kind === 'operator') return null;
  throw new ApiError('unauthorized', 'log in first');
}

/** Throws not_found unless the actor may see `user`'s resources; records the owner. */
export function mayTouch(call: Scoped, user: string, notFound: string, field?: string): void {
  const own = viewer(call.actor);
  if (own !== null && own !== user) throw new ApiError('not_found', notFound, { field });
  call.owner = user;
}

export function userOf(deps: ScopeDeps, call: Scoped, id: string): UserRecord {
  const notFound = `user ${JSON.stringify(id)} not found`;
  const record = deps.store.table(USERS).get(id);
  if (record === undefined) throw new ApiError('not_found', notFound);
  mayTouch(call, id, notFound);
  return record;
}

export function accountOf(deps: ScopeDeps, call: Scoped, login: string, field?: string): AccountRecord {
  const notFound = `account ${JSON.stringify(login)} not found`;
  const account = deps.readModel.account(login);
  if (account === undefined) throw new ApiError('not_found', notFound, { field });
  mayTouch(call, account.user, notFound, field);
  return account;
}

/** A live (not revoked) key of the actor's: a revoked key has disappeared for the console too. */
export function keyOf(deps: ScopeDeps, call: Scoped, id: string): KeyRecord {
  const notFound = `key ${JSON.stringify(id)} not found`;
  const record = deps.store.table(KEYS).get(id);
  if (record === undefined || record.revokedAt !== null) throw new ApiError('not_found', notFound);
  const owner = deps.readModel.account(record.login)?.user;
  // A key of an account that is gone is the operator's to see.
  if (owner === undefined) {
    if (viewer(call.actor) !== null) throw new ApiError('not_found', notFound);
    return record;
  }
  mayTouch(call, owner, notFound);
  return record;
}

/** Whether a user-actor (or the operator) may list this account's things. */
export function sees(actor: Actor, account: AccountRecord | undefined): boolean {
  const own = viewer(actor);
  return own === null || account?.user === own;
}
