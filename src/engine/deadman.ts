// Dead-man's switches ("cancel all after", cancel on disconnect), one per API key and account. The
// deadline is state like any other: armed and disarmed by commands, journaled, checkpointed and
// replayed. The engine never reads a clock, so it cannot fire on its own: the host watches
// `nextDeadlineMs` with its clock and applies fireDeadMan once the deadline passed, and the
// engine fires only if it has (a replay of that command at its nowMs decides the same).
import type { AccountState } from './account.js';
import { accountOrReject, isReject, type Core } from './core.js';
import { cancelPending } from './orders.js';
import { closeEach } from './positions.js';
import { badRequest } from './rejects.js';
import type { Tx } from './tx.js';
import type { ArmDeadMan, DeadManFiredResult, DeadManRecord, DeadManResult, FireDeadMan, OrderRecord, Reject, UnixMs } from './types.js';

/** Armed switches by login, then key id. */
export class DeadMen {
  private readonly byLogin = new Map<string, Map<string, DeadManRecord>>();

  get(login: string, keyId: string): DeadManRecord | undefined {
    return this.byLogin.get(login)?.get(keyId);
  }

  set(record: DeadManRecord): void {
    let keys = this.byLogin.get(record.login);
    if (keys === undefined) { keys = new Map(); this.byLogin.set(record.login, keys); }
    keys.set(record.keyId, record);
  }

  delete(login: string, keyId: string): boolean {
    const keys = this.byLogin.get(login);
    if (keys === undefined || !keys.delete(keyId)) return false;
    if (keys.size === 0) this.byLogin.delete(login);
    return true;
  }

  *all(): Generator<DeadManRecord> {
    for (const keys of this.byLogin.values()) yield* keys.values();
  }

  /** The earliest armed deadline; null when none is armed. */
  nextDeadlineMs(): UnixMs | null {
    let next: UnixMs | null = null;
    for (const r of this.all()) if (next === null || r.deadlineMs < next) next = r.deadlineMs;
    return next;
  }

  /** Switches whose deadline is at or before nowMs, by login then key id (a deterministic order). */
  due(nowMs: UnixMs): DeadManRecord[] {
    const due = [...this.all()].filter((r) => r.deadlineMs <= nowMs);
    return due.sort((a, b) => (a.login < b.login ? -1 : a.login > b.login ? 1 : a.keyId < b.keyId ? -1 : a.keyId > b.keyId ? 1 : 0));
  }
}

/** Re-arms (timeout > 0) or disarms (0) a key's switch; the host checks the allowed range. */
export function armDeadMan(core: Core, tx: Tx, cmd: ArmDeadMan): DeadManResult | Reject {
  const account = accountOrReject(core, cmd.login);
  if (isReject(account)) return account;
  if (cmd.timeoutMs === 0) {
    if (core.deadMen.delete(account.login, cmd.keyId)) tx.deadMan({ t: 'disarmed', login: account.login, keyId: cmd.keyId });
    return { ok: true, kind: 'deadMan', login: account.login, keyId: cmd.keyId, armed: null };
  }
  const armed: DeadManRecord = { login: account.login, keyId: cmd.keyId, deadlineMs: tx.nowMs + cmd.timeoutMs, closePositions: cmd.closePositions };
  core.deadMen.set(armed);
  tx.deadMan({ t: 'armed', deadMan: armed });
  return { ok: true, kind: 'deadMan', login: account.login, keyId: cmd.keyId, armed };
}

/**
 * Cancels the account's pending orders placed through the key and, when asked, closes the key's
 * API positions, all with reason dead_man. Kill switches do not stop it: it only reduces risk.
 */
export function fireDeadMan(core: Core, tx: Tx, cmd: FireDeadMan): DeadManFiredResult | Reject {
  const account = accountOrReject(core, cmd.login);
  if (isReject(account)) return account;
  let closePositions = cmd.closePositions;
  if (cmd.cause === 'deadline') {
    const armed = core.deadMen.get(account.login, cmd.keyId);
    if (armed === undefined || armed.deadlineMs > tx.nowMs) return badRequest('key_id', `no dead-man's switch of key ${cmd.keyId} has passed its deadline`);
    closePositions = armed.closePositions;
    core.deadMen.delete(account.login, cmd.keyId);
    tx.deadMan({ t: 'disarmed', login: account.login, keyId: cmd.keyId });
  }
  const cancelled = cancelKeyOrders(core, tx, account, cmd.keyId);
  const positions = closePositions ? [...account.positions.values()].filter((p) => p.source === 'api' && p.keyId === cmd.keyId) : [];
  const closing = closeEach(core, tx, account, positions, 'dead_man');
  return {
    ok: true, kind: 'deadManFired', login: account.login, keyId: cmd.keyId, cause: cmd.cause,
    cancelled, closed: closing.closed, failed: closing.failed,
  };
}

function cancelKeyOrders(core: Core, tx: Tx, account: AccountState, keyId: string): OrderRecord[] {
  const cancelled: OrderRecord[] = [];
  for (const order of [...account.pending.values()]) {
    if (order.keyId === keyId) cancelled.push(cancelPending(core, tx, account, order, 'dead_man'));
  }
  return cancelled;
}
