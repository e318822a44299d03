// The engine's state as the command handlers see it, and the checks every trading command shares.
import type { AccountState } from './account.js';
import type { TriggerBook } from './book.js';
import type { DeadMen } from './deadman.js';
import type { IdAllocator } from './ids.js';
import type { Instruments, Instrument } from './instruments.js';
import { killSwitchActive, notFound } from './rejects.js';
import type { ClientIdMemory } from './retention.js';
import type { Exposure, MarginRules } from './stop-out.js';
import type { DoneResult, Reject, Source } from './types.js';

export const DONE: DoneResult = { ok: true, kind: 'done' };

/** A symbol with its trigger index. */
export interface Slot { readonly sym: Instrument; readonly book: TriggerBook }

export interface Core {
  readonly market: Instruments;
  readonly slots: ReadonlyMap<string, Slot>;
  readonly accounts: Map<string, AccountState>;
  readonly ids: IdAllocator;
  readonly clientIds: ClientIdMemory;
  readonly deadMen: DeadMen;
  readonly margins: MarginRules;
  readonly exposure: Exposure;
}

export function accountOrReject(core: Core, login: string): AccountState | Reject {
  return core.accounts.get(login) ?? notFound(`account ${login} not found`);
}

/**
 * Spec 7 and DECISIONS "Kill switch": while the user's or the account's switch is set every
 * non-manual trading call is refused; a halted key is refused whatever the source.
 */
function haltReject(account: AccountState, source: Source, keyId: string | null): Reject | null {
  if (source !== 'manual' && account.userHalted) return killSwitchActive(`the kill switch of the owner of account ${account.login} is triggered`);
  if (source !== 'manual' && account.accountHalted) return killSwitchActive(`the kill switch of account ${account.login} is active`);
  if (keyId !== null && account.haltedKeys.size > 0 && account.haltedKeys.has(keyId)) return killSwitchActive(`the kill switch of key ${keyId} is active`);
  return null;
}

/** Finds the account of a trading command and applies the kill switches. */
export function tradingAccount(core: Core, login: string, source: Source, keyId: string | null): AccountState | Reject {
  const account = accountOrReject(core, login);
  if (isReject(account)) return account;
  return haltReject(account, source, keyId) ?? account;
}

export function isReject<T>(v: T | Reject): v is Reject {
  return typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false;
}
