// Kill switches (spec 7, DECISIONS "Kill switch"). Triggering the user's switch closes every
// api/webhook/strategy position and cancels every non-manual pending order of the account; a
// position that cannot close now is reported, never skipped. The account-level switch, like a key
// halt, only refuses trading calls ("while it is active, trading calls fail"): it flattens nothing.
import { accountOrReject, DONE, isReject, type Core } from './core.js';
import { cancelPending } from './orders.js';
import { closeEach } from './positions.js';
import type { Tx } from './tx.js';
import { KILLABLE_SOURCES, type CloseManyResult, type DoneResult, type KillSwitchResult, type OrderRecord, type Reject, type SetKeyHalt, type SetKillSwitch } from './types.js';

const NOTHING_CLOSED: CloseManyResult = { ok: true, kind: 'closeMany', closed: [], failed: [] };

export function killSwitch(core: Core, tx: Tx, cmd: SetKillSwitch): KillSwitchResult | Reject {
  const account = accountOrReject(core, cmd.login);
  if (isReject(account)) return account;
  const flagChanged = cmd.scope === 'user' ? account.userHalted !== cmd.active : account.accountHalted !== cmd.active;
  if (cmd.scope === 'user') account.userHalted = cmd.active;
  else account.accountHalted = cmd.active;
  if (flagChanged) tx.touch(account);
  const cancelled: OrderRecord[] = [];
  let closing = NOTHING_CLOSED;
  if (cmd.active && cmd.scope === 'user') {
    closing = closeEach(core, tx, account, [...account.positions.values()].filter((p) => KILLABLE_SOURCES.has(p.source)), 'kill_switch');
    for (const order of [...account.pending.values()]) {
      if (order.source !== 'manual') cancelled.push(cancelPending(core, tx, account, order, 'kill_switch'));
    }
  }
  return { ok: true, kind: 'killSwitch', login: account.login, closed: closing.closed, cancelled, failed: closing.failed };
}

export function keyHalt(core: Core, tx: Tx, cmd: SetKeyHalt): DoneResult | Reject {
  const account = accountOrReject(core, cmd.login);
  if (isReject(account)) return account;
  if (account.haltedKeys.has(cmd.keyId) !== cmd.active) {
    if (cmd.active) account.haltedKeys.add(cmd.keyId);
    else account.haltedKeys.delete(cmd.keyId);
    tx.keyHalt(account.login, cmd.keyId, cmd.active);
  }
  return DONE;
}
