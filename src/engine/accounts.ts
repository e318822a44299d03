// Seed upserts: create an account with its balance, or update its static fields only.
import { AccountState } from './account.js';
import { DONE, type Core } from './core.js';
import { badRequest } from './rejects.js';
import type { Tx } from './tx.js';
import type { DoneResult, Reject, UpsertAccount } from './types.js';

export function upsertAccount(core: Core, tx: Tx, cmd: UpsertAccount): DoneResult | Reject {
  const a = cmd.account;
  const existing = core.accounts.get(a.login);
  if (existing === undefined) {
    const account = new AccountState({
      login: a.login, user: a.user, type: a.type, group: a.group, currency: a.currency, leverage: a.leverage,
      server: a.server, balance: a.balance, margin: 0, seq: 0, accountHalted: false, userHalted: false,
    });
    core.accounts.set(a.login, account);
    tx.touch(account);
    return DONE;
  }
  // Margins and client profits are held in the account currency; they cannot be re-denominated.
  if (a.currency !== existing.currency && (existing.positions.size > 0 || existing.pending.size > 0)) {
    return badRequest('currency', `account ${a.login} has open positions or pending orders; its currency cannot change`);
  }
  if (existing.setStatics(a)) tx.touch(existing);
  return DONE;
}
