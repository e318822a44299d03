// The trading core: commands and time in, events and state changes out. `apply` is the only
// mutator; given the same init and the same (command, nowMs) log it produces the same outcomes
// and the same snapshot, which is what lets a shard journal commands and replay them.
import { upsertAccount } from './accounts.js';
import { isInt } from './checks.js';
import { commandReject } from './commands.js';
import type { Core } from './core.js';
import { loadCore } from './init.js';
import { snapshotCore } from './snapshot.js';
import { armDeadMan, fireDeadMan } from './deadman.js';
import { keyHalt, killSwitch } from './killswitch.js';
import { accountMetrics, floatingProfitCents } from './money.js';
import { cancel, cancelAll, place, replace } from './orders.js';
import { amendPosition, close, closeAll, closeWebhook } from './positions.js';
import { badRequest } from './rejects.js';
import { tick } from './ticks.js';
import { Tx } from './tx.js';
import { floatingCents } from './floating.js';
import type {
  AccountMetrics, AccountSnapshot, Cents, ClientIdArchive, Command, DeadManRecord, EngineInit, MarginLevels, OrderRecord, Outcome, Quote, Reject, Result, SymbolSpec,
  UnixMs,
} from './types.js';

export class Engine {
  private readonly core: Core;
  private commandNo = 0;

  /**
   * Throws EngineInitError when `init` is inconsistent (a corrupt store or a bad symbol table).
   * Without `archive` the engine keeps every client id in memory for the whole retention.
   */
  constructor(init: EngineInit, archive: ClientIdArchive | null = null) {
    this.core = loadCore(init, archive);
  }

  get shardId(): number {
    return this.core.ids.shardId;
  }

  get symbols(): readonly SymbolSpec[] {
    return this.core.market.specs;
  }

  get accountCount(): number {
    return this.core.accounts.size;
  }

  /** Persist with every batch: ids continue from it after a restart. */
  get idCounter(): number {
    return this.core.ids.allocated;
  }

  /** Never throws; a malformed command is a bad_request Reject and changes nothing. */
  apply(cmd: Command, nowMs: UnixMs): Outcome {
    this.commandNo += 1;
    const tx = new Tx(nowMs, this.commandNo);
    if (!isInt(nowMs) || nowMs < 0) return tx.outcome(badRequest('nowMs', 'nowMs must be Unix milliseconds'));
    this.core.clientIds.prune(nowMs);
    const invalid = commandReject(cmd);
    return tx.outcome(invalid ?? this.dispatch(tx, cmd));
  }

  snapshot(): EngineInit {
    return snapshotCore(this.core);
  }

  account(login: string): AccountSnapshot | null {
    const a = this.core.accounts.get(login);
    if (a === undefined) return null;
    return { account: a.record(), positions: [...a.positions.values()], pendingOrders: [...a.pending.values()] };
  }

  /**
   * Free margin as an order's margin check sees it (the account's floating profit kept between
   * ticks, floating.ts); always equal to metrics().freeMargin, which sums every position anew.
   */
  freeMargin(login: string): Cents | null {
    const a = this.core.accounts.get(login);
    return a === undefined ? null : a.balance + (a.positions.size === 0 ? 0 : floatingCents(this.core, a)) - a.margin;
  }

  /**
   * The figures at the current quotes of every account from the `from`-th on, in the order the
   * accounts were added (a shard samples them for the equity history).
   */
  *allMetrics(from = 0): Generator<{ readonly login: string; readonly metrics: AccountMetrics }> {
    let i = 0;
    for (const a of this.core.accounts.values()) {
      if (i++ >= from) yield { login: a.login, metrics: accountMetrics(a, a.positions.values(), this.core.market) };
    }
  }

  /** Balance, equity, margin, free margin and margin level at the current quotes. */
  metrics(login: string): AccountMetrics | null {
    const a = this.core.accounts.get(login);
    return a === undefined ? null : accountMetrics(a, a.positions.values(), this.core.market);
  }

  /** A pending order, or a settled one the engine still remembers (the host keeps the rest). */
  order(login: string, orderId: string): OrderRecord | null {
    return this.core.accounts.get(login)?.order(orderId) ?? null;
  }

  /** The order an accepted client id created, while the engine keeps the client id in memory. */
  orderIdOfClientId(login: string, clientId: string): string | null {
    return this.core.accounts.get(login)?.clientIds.get(clientId)?.orderId ?? null;
  }

  quote(symbol: string): Quote | null {
    return this.core.market.quote(symbol);
  }

  /** Floating profit of each open position of the account at the current quotes (null: cannot be priced yet), by ticket. */
  floatingProfits(login: string): { readonly currency: string; readonly positions: readonly { readonly ticket: number; readonly symbol: string; readonly profit: Cents | null }[] } | null {
    const a = this.core.accounts.get(login);
    if (a === undefined) return null;
    const positions = [...a.positions.values()].map((p) => ({ ticket: p.ticket, symbol: p.symbol, profit: floatingProfitCents(p, this.core.market, a.currency) }));
    return { currency: a.currency, positions };
  }

  /** The margin-call and stop-out levels of the account's group. */
  marginLevels(login: string): MarginLevels | null {
    const a = this.core.accounts.get(login);
    return a === undefined ? null : this.core.margins.of(a.group);
  }

  /** The earliest armed dead-man's deadline (the host watches it); null when none is armed. */
  nextDeadlineMs(): UnixMs | null {
    return this.core.deadMen.nextDeadlineMs();
  }

  /** Armed switches whose deadline is at or before nowMs, in a deterministic order. */
  dueDeadMen(nowMs: UnixMs): DeadManRecord[] {
    return this.core.deadMen.due(nowMs);
  }

  private dispatch(tx: Tx, cmd: Command): Result | Reject {
    const core = this.core;
    switch (cmd.kind) {
      case 'place': return place(core, tx, cmd);
      case 'cancel': return cancel(core, tx, cmd);
      case 'replace': return replace(core, tx, cmd);
      case 'amendPosition': return amendPosition(core, tx, cmd);
      case 'cancelAll': return cancelAll(core, tx, cmd);
      case 'closeAll': return closeAll(core, tx, cmd);
      case 'armDeadMan': return armDeadMan(core, tx, cmd);
      case 'fireDeadMan': return fireDeadMan(core, tx, cmd);
      case 'close': return close(core, tx, cmd);
      case 'closeWebhook': return closeWebhook(core, tx, cmd);
      case 'tick': return tick(core, tx, cmd);
      case 'killSwitch': return killSwitch(core, tx, cmd);
      case 'keyHalt': return keyHalt(core, tx, cmd);
      case 'upsertAccount': return upsertAccount(core, tx, cmd);
    }
  }
}
